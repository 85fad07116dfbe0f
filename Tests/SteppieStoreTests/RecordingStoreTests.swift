import Foundation
import Testing
import SteppieCore
@testable import SteppieStore

@Suite struct RecordingStoreTests {
    @Test func aVersion1DatabaseKeepsItsDataWhenMigrated() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-v1-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("steppie.db").path
        let zone = TimeZone(identifier: "Asia/Seoul") ?? .current
        let now = Timestamp.parse("2026-03-02T07:00:00+09:00") ?? Date()
        // A database as version 1 of the program left it: only the first migration, with data.
        do {
            let db = try Connection(path: path)
            try Migrator([Schema.migrations[0]]).migrate(db)
            #expect(try Migrator().applied(db) == ["v1-contract"])
            #expect(try db.queryFirst("SELECT count(*) FROM sqlite_schema WHERE name = 'routine_recordings'") { $0.int(0) } == 0)
            try db.execute("""
                INSERT INTO children (id, display_name, created_at, updated_at)
                VALUES ('11111111-1111-1111-1111-111111111111', 'Mina', '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00');
                INSERT INTO routine_sets (id, child_id, name, is_active, created_at, updated_at)
                VALUES ('22222222-2222-2222-2222-222222222222', '11111111-1111-1111-1111-111111111111', '{"en":"Morning"}', 1,
                        '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00');
                INSERT INTO routines (id, routine_set_id, title, icon, sort_order, created_at, updated_at)
                VALUES ('33333333-3333-3333-3333-333333333333', '22222222-2222-2222-2222-222222222222', '{"en":"Wash"}',
                        '{"type":"builtin","name":"water"}', 0, '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00');
                INSERT INTO daily_logs (id, date, routine_id, routine_set_id, status, completed_at, created_at, updated_at)
                VALUES ('44444444-4444-4444-4444-444444444444', '2026-03-01', '33333333-3333-3333-3333-333333333333',
                        '22222222-2222-2222-2222-222222222222', 'completed', '2026-03-01T07:05:00+09:00',
                        '2026-03-01T07:05:00+09:00', '2026-03-01T07:05:00+09:00');
                """)
        }
        let store = try Store(path: path, timeZone: zone)
        #expect(try Migrator().applied(store.db) == ["v1-contract", "v2-routine-recordings", "v3-guardian-boot-clock", "v4-set-schedules", "v5-corrections-absences", "v6-device-buttons-haptics", "v7-network-backoff-photo-swaps", "v8-routine-looks", "v9-child-pictures-sibling-switch", "v10-sync", "v11-sync-recordings", "v12-compact-sync-events"])
        let snapshot = try store.snapshot()
        #expect(snapshot.children.map(\.displayName) == ["Mina"])
        #expect(snapshot.routines.map { $0.title.values["en"] } == ["Wash"])
        #expect(snapshot.dailyLogs.map(\.status) == [.completed])
        // The new table works on the migrated file.
        let routineId = try #require(snapshot.routines.first?.id)
        try store.setRecording(RoutineRecording(routineId: routineId, locale: "en", fileName: "a.wav", durationMs: 900, createdAt: now))
        #expect(try store.recordings().map(\.fileName) == ["a.wav"])
    }

    @Test func oneRecordingPerRoutineAndLocaleReplacedAndRemoved() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let set = try #require(try f.store.activeSet(childId: child.id))
        let routine = try #require(try f.store.routines(setId: set.id).first)
        func rec(_ name: String, _ locale: String = "ko") -> RoutineRecording {
            RoutineRecording(routineId: routine.id, locale: locale, fileName: name, durationMs: 1200, createdAt: f.now)
        }
        #expect(try f.store.setRecording(rec("first.wav")) == nil)
        #expect(try f.store.setRecording(rec("second.ogg"))?.fileName == "first.wav")
        try f.store.setRecording(rec("english.flac", "en"))
        #expect(try f.store.recording(routineId: routine.id, locale: "ko")?.fileName == "second.ogg")
        #expect(try f.store.recordings(locale: "en").map(\.fileName) == ["english.flac"])
        #expect(try f.store.removeRecording(routineId: routine.id, locale: "ko")?.fileName == "second.ogg")
        #expect(try f.store.recordings().map(\.locale) == ["en"])
        #expect(f.store.recordingsDirectory?.path == f.directory.appendingPathComponent("recordings").path)
    }

    @Test func tooLongOrUnknownRoutineIsRefused() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let set = try #require(try f.store.activeSet(childId: child.id))
        let routine = try #require(try f.store.routines(setId: set.id).first)
        #expect(throws: StoreError.self) {
            try f.store.setRecording(RoutineRecording(routineId: routine.id, locale: "ko", fileName: "x.wav", durationMs: 30_001, createdAt: f.now))
        }
        #expect(throws: StoreError.routineNotFound(UUID(uuidString: "99999999-9999-9999-9999-999999999999")?.lowercased ?? "")) {
            try f.store.setRecording(RoutineRecording(routineId: UUID(uuidString: "99999999-9999-9999-9999-999999999999") ?? UUID(),
                                                      locale: "ko", fileName: "x.wav", durationMs: 100, createdAt: f.now))
        }
        #expect(try f.store.recordings().isEmpty)
    }

    @Test func replaceAllKeepsRecordingsOfRoutinesThatRemain() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let set = try #require(try f.store.activeSet(childId: child.id))
        let routines = try f.store.routines(setId: set.id)
        for (i, r) in routines.prefix(2).enumerated() {
            try f.store.setRecording(RoutineRecording(routineId: r.id, locale: "ko", fileName: "r\(i).wav", durationMs: 500, createdAt: f.now))
        }
        var snapshot = try f.store.snapshot()
        snapshot.routines.removeAll { $0.id == routines[1].id }
        try f.store.replaceAll(with: snapshot)
        #expect(try f.store.recordings().map(\.fileName) == ["r0.wav"])
    }
}
