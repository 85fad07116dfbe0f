import Foundation
import Testing
@testable import SteppiePostgres

extension PostgresTests {
    /// The hub's schema: recorded, run in order once, a newer database refused untouched.
    @Suite struct Migrations {
        static let hubTables = ["blobs", "conflicts", "devices", "events", "feed", "group_children", "groups", "hub_identity", "hub_state",
                                "invites", "join_attempts", "registers", "staff", "staff_sessions", "steppie_migrations"]

        @Test func migrationsRunOnceAndASecondRunChangesNothing() throws {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let c = try db.connect()
            #expect(try HubSchema.migrator.migrate(c) == HubSchema.migrations.map(\.id))
            #expect(try db.tables(c) == Self.hubTables)
            let recorded = try c.query("SELECT id, applied_at::text FROM steppie_migrations ORDER BY id") { [try $0.text(0), try $0.text(1)] }
            #expect(recorded.map { $0[0] } == HubSchema.migrations.map(\.id))

            // Another process (its own connection) starting later applies nothing and changes nothing.
            let other = try db.connect()
            #expect(try HubSchema.migrator.migrate(other) == [])
            #expect(try db.tables(c) == Self.hubTables)
            #expect(try c.query("SELECT id, applied_at::text FROM steppie_migrations ORDER BY id") { [try $0.text(0), try $0.text(1)] } == recorded)
        }

        @Test func hubProcessesStartingAtOnceApplyEachMigrationOnce() throws {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let conninfo = db.conninfo
            let applied = Collected<Result<[String], any Error>>()
            Pool.onThreads(4) { _ in
                applied.append(Result { try HubSchema.migrator.migrate(try PostgresConnection(conninfo: conninfo)) })
            }
            let lists = try applied.values.map { try $0.get() }
            // Each migration applied by exactly one of them (not necessarily the same one for every migration).
            #expect(lists.flatMap { $0 }.sorted() == HubSchema.migrations.map(\.id).sorted())
            #expect(try db.tables(try db.connect()) == Self.hubTables)
        }

        @Test func migrationsRunInOrderEachInItsOwnTransaction() throws {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let c = try db.connect()
            let first = PostgresMigration("a", ["CREATE TABLE one (x integer)"])
            let broken = PostgresMigration("b", ["CREATE TABLE two (x integer)", "CREATE TABLE one (y integer)"])
            #expect(throws: PostgresError.self) { try PostgresMigrator([first, broken]).migrate(c) }
            // The first one stays applied and recorded; nothing of the failed one is left.
            #expect(try db.tables(c) == ["one", "steppie_migrations"])
            #expect(try PostgresMigrator([first, broken]).recorded(c) == ["a"])
            let fixed = PostgresMigration("b", ["CREATE TABLE two (x integer)"])
            #expect(try PostgresMigrator([first, fixed]).migrate(c) == ["b"])
            #expect(try PostgresMigrator([first, fixed]).recorded(c) == ["a", "b"])
        }

        @Test func aDatabaseOfANewerSchemaIsRefusedUntouched() throws {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let c = try db.connect()
            let first = PostgresMigration("a", ["CREATE TABLE one (x integer)"])
            let second = PostgresMigration("b", ["CREATE TABLE two (x integer)"])
            try PostgresMigrator([first]).migrate(c)
            try c.run("INSERT INTO steppie_migrations (id) VALUES ('z-from-a-newer-steppie')")
            #expect(throws: PostgresError.newerSchema(migration: "z-from-a-newer-steppie")) {
                try PostgresMigrator([first, second]).migrate(c)
            }
            #expect(try db.tables(c) == ["one", "steppie_migrations"])
            #expect(PostgresError.newerSchema(migration: "z").catalogMessage.key == "postgres.error.newerSchema")
        }

        @Test func theHubSchemaKeepsTheHouseholdHubsConstraints() throws {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let c = try db.connect()
            try HubSchema.migrator.migrate(c)
            let hash = String(repeating: "ab", count: 32)
            let id = "00000000-0000-4000-8000-000000000001"
            let device = "INSERT INTO devices (id, name, credential_hash, children, joined_at) VALUES ($1, $2, $3, $4, '2026-12-03T08:00:00Z')"
            try c.run(device, [.text(id), .text("Room 1"), .text(hash), .text("[\"c1\"]")])
            let refused: [(String, [PostgresValue])] = [
                (device, [.text("short"), .text("Room 2"), .text(hash), .text("[]")]),
                (device, [.text("00000000-0000-4000-8000-000000000002"), .text(""), .text(hash), .text("[]")]),
                (device, [.text("00000000-0000-4000-8000-000000000003"), .text("Room 3"), .text("nothex"), .text("[]")]),
                (device, [.text("00000000-0000-4000-8000-000000000004"), .text("Room 4"), .text(hash), .text("{}")]),
                ("INSERT INTO registers (entity, record, field, child, value, stamp) VALUES ('nonsense', 'r', 'f', 'c', '1', $1)",
                 [.text(Connection.stamp)]),
                ("INSERT INTO hub_state (id, device_id) VALUES ('other', $1)", [.text(id)]),
                ("INSERT INTO invites (code_hash, children, expires_at) VALUES ($1, '[]', 0)", [.text(hash.uppercased())]),
            ]
            for (sql, parameters) in refused {
                let error = try #require(throws: PostgresError.self) { try c.run(sql, parameters) }
                #expect(error.sqlState == "23514", "\(sql) \(parameters)")
            }
            // The feed's order is its sequence: positions grow with every entry taken.
            for n in 1...3 {
                try c.run("INSERT INTO feed (origin, child, taken_at, entry) VALUES ($1, 'c1', $2, '{}')", [.text(id), .int(n)])
            }
            #expect(try c.query("SELECT position FROM feed ORDER BY position") { try $0.int(0) } == [1, 2, 3])
        }
    }
}
