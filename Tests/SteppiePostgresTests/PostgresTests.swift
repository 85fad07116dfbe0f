import Foundation
import Testing
@testable import SteppiePostgres

/// The suites on the private cluster of `scripts/with-postgres.sh` (`STEPPIE_TEST_POSTGRES`), one
/// at a time: one of them restarts the server, which would break the others' connections.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.conninfo != nil,
                             "STEPPIE_TEST_POSTGRES is unset: run under scripts/with-postgres.sh (scripts/test.sh does)"))
struct PostgresTests {}

/// A schema of its own for each test on the shared test database, dropped afterwards.
struct PostgresTestDatabase {
    static var conninfo: String? { ProcessInfo.processInfo.environment["STEPPIE_TEST_POSTGRES"] }

    let schema: String
    /// The test database's connection string with `search_path` set to the test's schema.
    let conninfo: String

    init() throws {
        let base = try #require(Self.conninfo)
        schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try PostgresConnection(conninfo: base)
        // An identifier cannot be a parameter; this one is made here of [a-z0-9_] only.
        try admin.run("CREATE SCHEMA \(schema)")
        conninfo = base + " options='-csearch_path=\(schema)'"
    }

    func connect() throws -> PostgresConnection {
        try PostgresConnection(conninfo: conninfo)
    }

    func drop() {
        guard let base = Self.conninfo, let admin = try? PostgresConnection(conninfo: base) else { return }
        _ = try? admin.run("DROP SCHEMA \(schema) CASCADE")
    }

    /// The tables of the test's schema, by name.
    func tables(_ c: PostgresConnection) throws -> [String] {
        try c.query("SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1", [.text(schema)]) {
            try $0.text(0)
        }
    }
}
