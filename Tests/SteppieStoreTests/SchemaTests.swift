import Foundation
import Testing
import SteppieCore
@testable import SteppieStore

@Suite struct SchemaTests {
    @Test func freshDatabaseIsMigratedOnceAndRecordsTheMigrationId() throws {
        let f = try StoreFixture()
        let db = try f.rawConnection()
        #expect(try Migrator().applied(db) == ["v1-contract", "v2-routine-recordings", "v3-guardian-boot-clock", "v4-set-schedules", "v5-corrections-absences", "v6-device-buttons-haptics", "v7-network-backoff-photo-swaps", "v8-routine-looks", "v9-child-pictures-sibling-switch", "v10-sync", "v11-sync-recordings", "v12-compact-sync-events"])
        #expect(try db.queryFirst("PRAGMA user_version") { $0.int(0) } == Schema.migrations.count)
        #expect(try db.queryFirst("PRAGMA journal_mode") { $0.text(0) } == "wal")
        #expect(try db.queryFirst("PRAGMA foreign_keys") { $0.int(0) } == 1)
        // Opening again changes nothing.
        _ = try Store(path: f.path, timeZone: f.zone)
        #expect(try Migrator().applied(db) == ["v1-contract", "v2-routine-recordings", "v3-guardian-boot-clock", "v4-set-schedules", "v5-corrections-absences", "v6-device-buttons-haptics", "v7-network-backoff-photo-swaps", "v8-routine-looks", "v9-child-pictures-sibling-switch", "v10-sync", "v11-sync-recordings", "v12-compact-sync-events"])
    }

    @Test func aVersion2DatabaseKeepsItsPinAndBackoffButNotItsSessionWhenMigrated() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-v2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("steppie.db").path
        // A database as version 2 of the program left it: a PIN, three failures, guardian mode on.
        do {
            let db = try Connection(path: path)
            try Migrator(Array(Schema.migrations.prefix(2))).migrate(db)
            try db.execute("""
                INSERT INTO device_settings (id, guardian_pin_hash, failed_pin_attempts, guardian_unlocked_until, created_at, updated_at)
                VALUES ('singleton', '$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA', 3, '2026-03-02T07:03:00.000+09:00',
                        '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00');
                """)
        }
        let store = try Store(path: path, timeZone: TimeZone(identifier: "Asia/Seoul") ?? .current)
        #expect(try Migrator().applied(store.db) == ["v1-contract", "v2-routine-recordings", "v3-guardian-boot-clock", "v4-set-schedules", "v5-corrections-absences", "v6-device-buttons-haptics", "v7-network-backoff-photo-swaps", "v8-routine-looks", "v9-child-pictures-sibling-switch", "v10-sync", "v11-sync-recordings", "v12-compact-sync-events"])
        let state = try store.guardianState()
        #expect(state.hasPin && state.failedAttempts == 3)
        // A session stored without a boot mark could be stretched by the wall clock: it ends.
        #expect(state.session == nil)
        #expect(try store.db.queryFirst("SELECT pin_locked_boot IS NULL AND guardian_unlocked_boot IS NULL FROM device_settings") { $0.bool(0) } == true)
    }

    @Test func aDatabaseFromANewerProgramIsRefused() throws {
        let f = try StoreFixture()
        try f.rawConnection().run("INSERT INTO schema_migrations (id) VALUES ('v9-future')")
        #expect(throws: StoreError.newerSchema(migrationId: "v9-future")) { _ = try Store(path: f.path, timeZone: f.zone) }
    }

    @Test func migrationsApplyInOrderEachInItsOwnTransaction() throws {
        let db = try Connection(path: ":memory:")
        let broken = Migrator([Migration(id: "a", sql: "CREATE TABLE a (x)"), Migration(id: "b", sql: "CREATE TABLE b (x); SELECT nonsense()")])
        #expect(throws: SQLiteError.self) { try broken.migrate(db) }
        #expect(try broken.applied(db) == ["a"])   // b rolled back entirely
        #expect(try db.queryFirst("SELECT count(*) FROM sqlite_schema WHERE name = 'b'") { $0.int(0) } == 0)
    }

    @Test func secondLogForTheSameDateAndRoutineFailsInTheSchema() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let log = try f.store.complete(childId: child.id, day: f.today, at: f.now)
        let db = try f.rawConnection()
        let insert = """
            INSERT INTO daily_logs (id, date, routine_id, routine_set_id, status, completed_at, created_at, updated_at)
            VALUES (?, ?, ?, ?, 'undone', NULL, '2026-03-02T07:00:00+09:00', '2026-03-02T07:00:00+09:00')
            """
        do {
            try db.run(insert, [.text(UUID().lowercased), .text(log.date.description), .text(log.routineId.lowercased), .text(log.routineSetId.lowercased)])
            Issue.record("a second log was accepted")
        } catch let e as SQLiteError {
            #expect(e.isConstraintViolation)
            #expect(e.message.contains("UNIQUE"))
        }
    }

    /// Raw writes that skip the Swift validator still meet the schema's own checks.
    @Test(arguments: [
        "UPDATE children SET tts_rate = 1.6",
        "UPDATE children SET undo_duration_seconds = 4",
        "UPDATE children SET feedback_intensity = 'loud'",
        "UPDATE children SET quiet_hours_start = '21:00'",
        "UPDATE routines SET color_token = 'color.card.black'",
        "UPDATE routines SET scheduled_time = '25:00'",
        "UPDATE routines SET sort_order = 0",
        "UPDATE routines SET title = 'not json'",
        "UPDATE daily_logs SET completed_at = NULL",
        "UPDATE daily_logs SET status = 'skipped'",
        "UPDATE routine_sets SET deleted_at = '2026-03-02T08:00:00+09:00'",
        "UPDATE device_settings SET guardian_pin_hash = '1234'",
        "DELETE FROM routines",
        "UPDATE daily_logs SET routine_id = '00000000-0000-4000-8000-000000000000'",
    ])
    func schemaRefusesRawViolations(_ sql: String) throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        try f.store.ensureDeviceSettings(at: f.now)
        try f.store.complete(childId: child.id, day: f.today, at: f.now)
        let before = try f.store.dump()
        #expect(throws: SQLiteError.self) { try f.rawConnection().execute(sql) }
        #expect(try f.store.dump() == before)
    }

    @Test func transactionRollsBackWhenItsBodyThrows() throws {
        struct Boom: Error {}
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (x INTEGER)")
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.run("INSERT INTO t VALUES (1)")
                try db.transaction { try db.run("INSERT INTO t VALUES (2)") }
                throw Boom()
            }
        }
        #expect(try db.queryFirst("SELECT count(*) FROM t") { $0.int(0) } == 0)
        // A nested failure undoes only the inner part.
        try db.transaction {
            try db.run("INSERT INTO t VALUES (1)")
            _ = try? db.transaction { try db.run("INSERT INTO t VALUES (2)"); throw Boom() }
        }
        #expect(try db.query("SELECT x FROM t") { $0.int(0) } == [1])
    }

    @Test func statementsAreCachedBySQLAndErrorsCarryMessageAndSQL() throws {
        let db = try Connection(path: ":memory:")
        let a = try db.statement("SELECT 1")
        let b = try db.statement("SELECT 1")
        #expect(a === b)
        do {
            _ = try db.statement("SELECT * FROM missing_table")
            Issue.record("prepared a broken statement")
        } catch let e as SQLiteError {
            #expect(e.message.contains("missing_table"))
            #expect(e.sql == "SELECT * FROM missing_table")
        }
    }

    @Test func migrationV7KeepsTheDevicesBackoffAndAddsTheNetworksAndTheRestoreJournal() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-v6-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("steppie.db").path
        // A database as version 6 of the program left it: a PIN and three failures at the device.
        do {
            let db = try Connection(path: path)
            try Migrator(Array(Schema.migrations.prefix(6))).migrate(db)
            try db.execute("""
                INSERT INTO device_settings (id, guardian_pin_hash, failed_pin_attempts, created_at, updated_at)
                VALUES ('singleton', '$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA', 3, '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00');
                """)
        }
        let store = try Store(path: path, timeZone: TimeZone(identifier: "Asia/Seoul") ?? .current)
        #expect(try Migrator().applied(store.db).contains("v7-network-backoff-photo-swaps"))
        #expect(try Migrator().applied(store.db).contains("v8-routine-looks"))
        let state = try store.guardianState()
        #expect(state.hasPin && state.failedAttempts == 3 && state.networkFailedAttempts == 0 && state.networkLock == nil)
        #expect(try store.photoSwaps().isEmpty)
        // The journal takes only staging folder names, and the network's count is never negative.
        let now = Date(timeIntervalSince1970: 1_764_547_200)
        try store.recordPhotoSwap(staging: ".steppie-restore-abc", at: now)
        #expect(try store.photoSwaps() == [".steppie-restore-abc"])
        for bad in ["../assets", ".steppie-restore-", "assets", ".steppie-restore-a/b"] {
            #expect(throws: (any Error).self) { try store.recordPhotoSwap(staging: bad, at: now) }
        }
        #expect(throws: (any Error).self) { try store.db.execute("UPDATE device_settings SET network_failed_pin_attempts = -1") }
        try store.clearPhotoSwap(staging: ".steppie-restore-abc")
        #expect(try store.photoSwaps().isEmpty)
    }

    @Test func openingAnUnreachablePathFailsCleanly() {
        #expect(throws: StoreError.self) { _ = try Store(path: "/proc/steppie/nope.db", timeZone: .current) }
    }
}
