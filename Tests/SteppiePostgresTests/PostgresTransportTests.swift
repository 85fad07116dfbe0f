import Foundation
import SteppieCore
import SteppieLocalization
import Testing
@testable import SteppiePostgres

/// A database on another machine is reached only with TLS that checks its certificate
/// (`PostgresTransport`, docs/centre.md, "Roles and least privilege"): a Unix socket or loopback
/// needs none; anything else without `sslmode=verify-ca|verify-full` is refused before a byte is
/// sent. No database needed (the one connection made goes to an address that answers nobody).
@Suite struct PostgresTransportTests {
    @Test func onlySocketsAndLoopbackStayOnThisMachine() {
        for host in ["", "/var/run/postgresql", "/tmp/steppie-postgres.Ab12", "@abstract", "localhost", "LocalHost", "127.0.0.1",
                     "127.5.6.7", "::1", "::ffff:127.0.0.1", " 127.0.0.1 "] {
            #expect(PostgresTransport.isLocal(host), "\(host)")
        }
        for host in ["db.centre.example", "192.0.2.10", "10.0.0.1", "128.0.0.1", "0.0.0.0", "::ffff:10.0.0.1", "2001:db8::1", "::2",
                     "localhost.example", "127.0.0.1.example"] {
            #expect(!PostgresTransport.isLocal(host), "\(host)")
        }
    }

    @Test func aRemoteHostWithoutVerifyingTLSIsRefusedBeforeConnecting() {
        func exposed(_ conninfo: String, _ environment: [String: String] = [:]) -> String? {
            PostgresTransport.exposedHost(conninfo: conninfo, environment: environment)
        }
        // Remote, and libpq's default or a mode that does not check who answers.
        #expect(exposed("host=db.centre.example dbname=steppie") == "db.centre.example")
        for mode in ["disable", "allow", "prefer", "require"] {
            #expect(exposed("host=db.centre.example dbname=steppie sslmode=\(mode)") == "db.centre.example", "\(mode)")
        }
        #expect(exposed("postgresql://hub@db.centre.example/steppie") == "db.centre.example")
        #expect(exposed("postgresql://hub@192.0.2.7:5433/steppie?sslmode=require") == "192.0.2.7")
        // `hostaddr` is where libpq connects; a list is checked host by host.
        #expect(exposed("host=localhost hostaddr=192.0.2.1 dbname=steppie") == "192.0.2.1")
        #expect(exposed("host=/var/run/postgresql,db.centre.example dbname=steppie") == "db.centre.example")
        // The environment under the string: PGHOST, PGSSLMODE.
        #expect(exposed("dbname=steppie", ["PGHOST": "db.centre.example"]) == "db.centre.example")
        #expect(exposed("dbname=steppie", ["PGHOST": "db.centre.example", "PGSSLMODE": "verify-full"]) == nil)
        #expect(exposed("dbname=steppie sslmode=require", ["PGHOST": "db.centre.example", "PGSSLMODE": "verify-full"]) == "db.centre.example")
        // Verifying TLS, a socket, loopback: nothing to refuse.
        #expect(exposed("host=db.centre.example dbname=steppie sslmode=verify-full sslrootcert=/etc/steppie/ca.pem") == nil)
        #expect(exposed("host=db.centre.example dbname=steppie sslmode=verify-ca") == nil)
        #expect(exposed("postgresql://hub@db.centre.example/steppie?sslmode=verify-full") == nil)
        #expect(exposed("host=/var/run/postgresql dbname=steppie") == nil)
        #expect(exposed("host=127.0.0.1 port=5432 dbname=steppie") == nil)
        #expect(exposed("dbname=steppie") == nil)
        // A service file decides only when libpq reads it: checked once connected. A string that
        // does not parse is libpq's to explain when it connects.
        #expect(exposed("service=steppie-hub") == nil)
        #expect(exposed("dbname=steppie", ["PGSERVICE": "steppie-hub", "PGHOST": "db.centre.example"]) == nil)
        #expect(exposed("host='db.centre.example") == nil)
    }

    /// Once connected, what libpq used decides (a service file may have named the host and the
    /// mode): a TCP session to another machine is kept only when it is TLS in a verifying mode.
    @Test func aSessionToAnotherMachineIsKeptOnlyWithVerifyingTLS() {
        func exposed(_ host: String, _ address: String, tls: Bool, _ mode: String?) -> String? {
            PostgresTransport.exposedHost(host: host, address: address, tls: tls, sslmode: mode)
        }
        #expect(exposed("db.centre.example", "192.0.2.1", tls: false, "prefer") == "db.centre.example")
        #expect(exposed("db.centre.example", "192.0.2.1", tls: true, "prefer") == "db.centre.example")
        #expect(exposed("db.centre.example", "192.0.2.1", tls: true, "require") == "db.centre.example")
        #expect(exposed("db.centre.example", "192.0.2.1", tls: false, "verify-full") == "db.centre.example")
        #expect(exposed("", "192.0.2.1", tls: false, nil) == "192.0.2.1")
        #expect(exposed("db.centre.example", "192.0.2.1", tls: true, "verify-full") == nil)
        #expect(exposed("db.centre.example", "192.0.2.1", tls: true, "verify-ca") == nil)
        // A name that resolved to loopback, a socket: this machine.
        #expect(exposed("db.centre.example", "127.0.0.1", tls: false, "prefer") == nil)
        #expect(exposed("/var/run/postgresql", "", tls: false, "prefer") == nil)
        #expect(exposed("localhost", "::1", tls: false, "disable") == nil)
    }

    /// The refusal comes before any connection: an address nobody answers (TEST-NET-1) is not
    /// waited for, and with verifying TLS the same address is tried (and fails to connect).
    @Test func theConnectionIsRefusedWithTheCatalogSentence() throws {
        #expect(throws: PostgresError.insecureTransport(host: "192.0.2.1")) {
            try PostgresConnection(conninfo: "host=192.0.2.1 dbname=steppie connect_timeout=2", environment: [:])
        }
        do {
            _ = try PostgresConnection(conninfo: "host=192.0.2.1 dbname=steppie connect_timeout=1 sslmode=verify-full sslrootcert=/nonexistent",
                                       environment: [:])
            Issue.record("a connection to 192.0.2.1 was made")
        } catch let error as PostgresError {
            guard case .connect = error else { Issue.record("\(error)"); return }
        }
        let catalogs = try CatalogSet.load(directory: PostgresErrorCatalogTests.repository.appendingPathComponent("Localization"))
        let localizer = Localizer(catalogs: catalogs, systemLocale: nil)
        let message = PostgresError.insecureTransport(host: "db.centre.example").catalogMessage
        #expect(CatalogRenderer(localizer: localizer, locale: "en").say(message)
                == "the database at db.centre.example is on another machine and the connection string does not ask for TLS that checks its certificate; add sslmode=verify-full and sslrootcert=FILE (docs/centre.md, “Roles and least privilege”). No statement was sent to it.")
        #expect(CatalogRenderer(localizer: localizer, locale: "ko").say(message).hasPrefix("db.centre.example의 데이터베이스는 다른 컴퓨터에 있는데"))
        #expect(!PostgresError.insecureTransport(host: "x").isRetryable)
    }
}
