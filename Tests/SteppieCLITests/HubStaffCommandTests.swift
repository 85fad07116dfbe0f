import Foundation
import SteppiePostgres
import Testing

/// `steppie hub staff|group …` on the private PostgreSQL of `scripts/with-postgres.sh`: the first
/// admin without signing in, every other change as a member whose password is on standard input.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["STEPPIE_TEST_POSTGRES"] != nil,
                             "STEPPIE_TEST_POSTGRES is unset: run under scripts/with-postgres.sh (scripts/test.sh does)"))
struct HubStaffCommandTests {
    @Test func theFirstAdminThenEveryChangeAsAMemberWithThePasswordOnStandardInput() throws {
        let (conninfo, drop) = try CentreHubProcessTests.schema()
        defer { drop() }
        let h = BinaryHarness()
        func hub(_ command: String, _ input: String? = nil) -> BinaryHarness.Result {
            h.sh("$S hub \(command) --postgres \"$PG\"", env: ["PG": conninfo], input: input)
        }
        // The first admin, before any `steppie hub` ran: no `--as`.
        #expect(hub("staff add Ada --role admin --password-stdin", "short\n").err.contains("at least 10 characters"))
        let first = hub("staff add Ada --role admin --password-stdin", "ada password 1\n")
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out.contains("Ada is now on the hub's staff (admin)."))
        // A second "first" admin is refused; an admin adds staff with both passwords on standard input.
        let second = hub("staff add Mallory --role admin --password-stdin", "mallory password\n")
        #expect(second.status == 1 && second.err.contains("the hub has an admin already"), "\(second.err)")
        #expect(hub("staff add Eve --role editor --as ada --password-stdin", "ada password 1\neve password 1\n").status == 0)
        let hostile = "'\\''); DROP TABLE staff; --'"
        #expect(hub("staff add '\(hostile) --role viewer --as Ada --password-stdin", "ada password 1\nvic password 1\n").status == 0)
        let list = hub("staff list --json")
        #expect(list.out.contains("\"name\" : \"'); DROP TABLE staff; --\"") && list.out.contains("\"role\" : \"editor\""), "\(list.out)")
        #expect(!list.out.contains("argon2") && !list.out.contains("password"))
        // A wrong password, a viewer, an editor managing staff: refused, nothing made.
        #expect(hub("group add 'Class 1' --as Eve --password-stdin", "wrong password\n").err.contains("wrong name or password"))
        let viewer = hub("group add 'Class 1' --as '\(hostile) --password-stdin", "vic password 1\n")
        #expect(viewer.status == 1 && viewer.err.contains("a member with the role viewer may not change groups"), "\(viewer.err)")
        #expect(hub("staff remove Ada --as Eve --password-stdin", "eve password 1\n").err.contains("may not add or remove staff"))
        #expect(hub("group list --json").out.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]")
        // An editor makes a group; without `--as` no one does.
        #expect(hub("group add 'Class 1' --as Eve --password-stdin", "eve password 1\n").status == 0)
        #expect(hub("group add 'Class 2'").status == 64)
        #expect(hub("group list").out.contains("Class 1: - (devices: 0)"))
        // Eve removed: her password no longer works.
        #expect(hub("staff remove eve --as Ada --password-stdin", "ada password 1\n").status == 0)
        #expect(hub("group remove 'Class 1' --as Eve --password-stdin", "eve password 1\n").err.contains("wrong name or password"))
        // The hash in the table is argon2id, never the password.
        let hashes = try PostgresConnection(conninfo: conninfo).query("SELECT password_hash FROM staff", [], { try $0.text(0) })
        #expect(hashes.count == 3 && hashes.allSatisfy { $0.hasPrefix("$argon2id$") && !$0.contains("password") })
    }
}
