import Foundation
import SteppieCentre
import SteppieCore
import SteppiePostgres
import SteppieSync
import Testing

extension CentreTests {
    /// The staff pages' sessions in PostgreSQL (docs/centre.md, "The staff pages").
    @Suite struct CentreSessionTests {
        @Test func aSessionIsFoundByItsTokenFromAnyPoolAndEndsWhenSignedOutOrItsMemberIsRemoved() throws {
            let centre = try CentreStaffTests.Centre()
            let store = centre.store, f = centre.f
            defer { f.database.drop() }
            let (token, opened) = try store.openSession(staff: centre.editor, locale: "en")
            #expect(token.count == 64 && opened.csrf.count == 64 && opened.csrf != token)
            // Another process: another pool on the same database.
            let other = CentreStore(pool: PostgresPool(conninfo: f.database.conninfo, size: 1))
            #expect(try other.session(token: token) == opened)
            #expect(try other.session(token: String(repeating: "0", count: 64)) == nil)
            #expect(try other.session(token: token.uppercased()) == nil)
            #expect(try other.session(token: "'); DROP TABLE staff_sessions; --") == nil)
            // Only the token's hash is stored.
            let stored = try PostgresConnection(conninfo: f.database.conninfo).query("SELECT token_hash FROM staff_sessions", [], { try $0.text(0) })
            #expect(stored.count == 1 && stored[0] != token)
            try other.setSessionLocale(token: token, locale: "ko")
            #expect(try store.session(token: token)?.locale == "ko")
            try other.closeSession(token: token)
            #expect(try store.session(token: token) == nil)
            // A removed member's session ends at once; the role is the database's now.
            let (vic, _) = try store.openSession(staff: centre.viewer, locale: nil)
            #expect(try store.session(token: vic)?.staff.role == .viewer)
            try store.removeStaff(name: "Vic", actor: centre.admin)
            #expect(try store.session(token: vic) == nil)
        }

        @Test func aSessionEndsWhenIdleAndNeverOutlivesItsLifetime() throws {
            let centre = try CentreStaffTests.Centre()
            let store = centre.store, f = centre.f
            defer { f.database.drop() }
            // Idle for 1 s (the database's clock): polled until it ends, within a deadline.
            let idle = CentreStore.SessionPolicy(idleSeconds: 1, lifetimeSeconds: 60)
            let (token, _) = try store.openSession(staff: centre.admin, locale: nil, policy: idle)
            let opened = Date()
            #expect(try store.session(token: token, policy: idle) != nil)
            var ended: Date?
            while ended == nil, Date().timeIntervalSince(opened) < 10 {
                if try PostgresConnection(conninfo: f.database.conninfo)
                    .queryFirst("SELECT deadline < clock_timestamp() FROM staff_sessions", [], { try $0.bool(0) }) == true {
                    ended = Date()
                }
                usleep(20_000)
            }
            #expect(ended != nil)
            #expect(try store.session(token: token, policy: idle) == nil)
            // Used all the time, it still ends at its lifetime: the idle end never passes it.
            let short = CentreStore.SessionPolicy(idleSeconds: 60, lifetimeSeconds: 1)
            let (busy, _) = try store.openSession(staff: centre.admin, locale: nil, policy: short)
            let start = Date()
            var refused = false
            while !refused, Date().timeIntervalSince(start) < 10 {
                refused = try store.session(token: busy, policy: short) == nil
                usleep(50_000)
            }
            #expect(refused)
            #expect(Date().timeIntervalSince(start) >= 0.9)
        }

        @Test func theSessionsMigrationKeepsTheStaffOfThePreviousSchema() throws {
            let database = try CentreTestDatabase()
            defer { database.drop() }
            let c = try PostgresConnection(conninfo: database.conninfo)
            let previous = Array(HubSchema.migrations.prefix { $0.id != "2026-12-hub-v4-staff-sessions" })
            #expect(previous.count == 3)
            try PostgresMigrator(previous).migrate(c)
            try c.run("INSERT INTO hub_state (id, device_id) VALUES ('singleton', $1)", [.text(DeviceID(UUID()).text)])
            let old = CentreStore(pool: PostgresPool(conninfo: database.conninfo, size: 2), passwordLimits: CentreStaffTests.cheap)
            let ada = try old.addFirstAdmin(name: "Ada", password: CentreStaffTests.password)
            #expect(try HubSchema.migrator.migrate(c) == HubSchema.migrations.map(\.id).drop { $0 != "2026-12-hub-v4-staff-sessions" }.map { $0 })
            #expect(try old.signIn(name: "ada", password: CentreStaffTests.password, now: 1_796_000_000_000) == ada)
            let (token, _) = try old.openSession(staff: ada, locale: "en")
            #expect(try old.session(token: token)?.staff == ada)
        }
    }
}
