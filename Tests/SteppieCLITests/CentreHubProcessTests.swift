import Foundation
import SteppiePostgres
import SteppieTestSupport
import Testing

/// `steppie hub` on the private PostgreSQL of `scripts/with-postgres.sh`, with two `steppie serve`
/// devices joined through `steppie hub invite` and the unchanged `steppie sync join`.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["STEPPIE_TEST_POSTGRES"] != nil,
                             "STEPPIE_TEST_POSTGRES is unset: run under scripts/with-postgres.sh (scripts/test.sh does)"))
struct CentreHubProcessTests {
    /// A schema of its own on the test database; the connection string that uses it.
    static func schema() throws -> (conninfo: String, drop: () -> Void) {
        let base = try #require(ProcessInfo.processInfo.environment["STEPPIE_TEST_POSTGRES"])
        let name = "cli_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try PostgresConnection(conninfo: base).run("CREATE SCHEMA \(name)")
        return (base + " options='-csearch_path=\(name)'", { _ = try? PostgresConnection(conninfo: base).run("DROP SCHEMA \(name) CASCADE") })
    }

    @Test func twoDevicesConvergeThroughTheCentresHubWithinTwoSeconds() throws {
        let (conninfo, drop) = try Self.schema()
        defer { drop() }
        let home = SyncNode(), school = SyncNode()
        let log = home.h.directory + "/hub.log"
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "en_US.UTF-8"
        let hub = try SpawnedProcess(CLIHarness.binary, ["hub", "--postgres", conninfo, "--listen", "127.0.0.1:0"],
                                     environment: environment, stdoutPath: log, stderrPath: log)
        defer {
            hub.stop(SIGTERM)
            [home, school].forEach { $0.stop() }
        }
        func hubLog() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        var address: (url: String, fingerprint: String)?
        let deadline = Date().addingTimeInterval(20)
        while address == nil, Date() < deadline {
            if let line = hubLog().split(separator: "\n").last(where: { $0.contains("sync hub on https://") }),
               let url = line.split(separator: " ").first(where: { $0.hasPrefix("https://") }),
               let fp = line.split(separator: " ").last?.dropLast() {
                address = (String(url), String(fp))
            }
            usleep(50_000)
        }
        let (url, fingerprint) = try #require(address, "hub log: \(hubLog())")
        func centre(_ node: SyncNode, _ command: String) -> BinaryHarness.Result {
            node.h.sh("$S hub \(command) --postgres \"$PG\"", env: node.env.merging(["PG": conninfo]) { a, _ in a })
        }
        func hubDigest() -> String { centre(home, "digest --json").out }

        // The PG hub has no children of its own: home brings Mina, school joins afterwards and gets her.
        #expect(home.sh("$S init --child Mina --template morning").status == 0)
        let homeCode = try #require(SyncProcessTests.code(centre(home, "invite --json")))
        let joined = home.sh("$S sync join \(url) --code \(homeCode) --fingerprint \(fingerprint) --name home")
        #expect(joined.status == 0, "\(joined.err)")
        // School brings Joon and is given Mina; home then joins again and is given both.
        #expect(school.sh("$S init --child Joon --template school").status == 0)
        let invite = centre(school, "invite --child Mina --json")
        let schoolCode = try #require(SyncProcessTests.code(invite), "\(invite.err)")
        #expect(invite.out.contains("\"name\" : \"Mina\"") || invite.out.contains("\"name\":\"Mina\""), "\(invite.out)")
        let schoolJoined = school.sh("$S sync join \(url) --code \(schoolCode) --fingerprint \(fingerprint) --name school")
        #expect(schoolJoined.status == 0, "\(schoolJoined.err)")
        #expect(home.sh("$S sync leave").status == 0)
        #expect(centre(home, "remove home").status == 0)
        let again = try #require(SyncProcessTests.code(centre(home, "invite --json")))
        let rejoined = home.sh("$S sync join \(url) --code \(again) --fingerprint \(fingerprint) --name home")
        #expect(rejoined.status == 0, "\(rejoined.err)")
        try home.start()
        try school.start()
        #expect(SyncProcessTests.converge([home, school]) != nil,
                "digests \([home, school].map { $0.digest() }) hub \(hubDigest()) home \(home.sh("$S sync status").out) school \(school.sh("$S sync status").out) \(school.log) hub log \(hubLog())")
        #expect(school.sh("$S children list").out.contains("Mina"))

        // Presses and edits on both sides at once.
        #expect(home.sh("$S complete --child Mina").status == 0)
        #expect(school.sh("$S profile set --child Mina --pitch 70").status == 0)
        let routine = home.h.query("SELECT id FROM routines ORDER BY sort_order DESC LIMIT 1")
        #expect(home.sh("$S routine edit \(routine) --title-en 'Shoes on'").status == 0)
        #expect(school.sh("$S routine move \(routine) --to 1").status == 0)
        let last = Date()
        let took = try #require(SyncProcessTests.converge([home, school]), "digests: \([home, school].map { $0.digest() })")
        let sinceLast = Date().timeIntervalSince(last)
        #expect(sinceLast < 2, "converged \(sinceLast) s after the last change (\(took) s of polling)")
        #expect(home.tables() == school.tables())
        #expect(school.h.query("SELECT pitch FROM children WHERE display_name = 'Mina'") == "70")
        // The hub's own digest is the devices' (each holds every child).
        #expect(hubDigest() == home.digest(), "hub \(hubDigest()) device \(home.digest())")
        let devices = centre(home, "devices --json")
        #expect(devices.out.contains("\"home\"") && devices.out.contains("\"school\""), "\(devices.out)")
        // A removed device's credential is refused at once.
        #expect(centre(home, "remove school").status == 0)
        #expect(school.sh("$S sync now").err.contains("does not know this device"))
        print("centre hub: two services converged \(String(format: "%.3f", sinceLast)) s after the last change")
    }

    /// The deployment's way to the database (docs/centre.md, "Running hubs"): a libpq service in a
    /// service file names the host; the session libpq made is checked once made (a socket here:
    /// kept). A connection string naming another machine without TLS that checks its
    /// certificate is refused before anything is sent, with the catalog sentence and exit 1.
    @Test func theHubReachesItsDatabaseThroughAServiceFileAndNeverInPlainTextToAnotherMachine() throws {
        let base = try #require(ProcessInfo.processInfo.environment["STEPPIE_TEST_POSTGRES"])
        let (conninfo, drop) = try Self.schema()
        defer { drop() }
        let h = BinaryHarness()
        let path = try #require(conninfo.firstRange(of: "search_path=")).upperBound
        let schema = conninfo[path...].prefix { $0 != "'" }
        let lines = base.split(separator: " ").map(String.init) + ["options=-csearch_path=\(schema)"]
        try ("[steppie-hub]\n" + lines.joined(separator: "\n") + "\n").write(toFile: h.directory + "/pg_service.conf", atomically: true, encoding: .utf8)
        let service = ["PGSERVICEFILE": h.directory + "/pg_service.conf"]
        // Before any hub ran on it, the other commands say what to do (not "relation does not exist").
        for command in ["hub invite", "hub devices", "hub staff list"] {
            let r = h.sh("\"$S\" \(command) --postgres service=steppie-hub", env: service)
            #expect(r.status == 1 && r.err == "steppie: this database holds no Steppie hub yet: start `steppie hub --postgres CONNINFO "
                    + "--listen ADDR:PORT` once first (it makes the hub's tables and its HTTPS certificate)\n", "\(command): \(r.err)")
        }
        // The hub as the unit runs it (`--postgres service=steppie-hub`): it migrates and makes its identity.
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "en_US.UTF-8"
        environment["PGSERVICEFILE"] = service["PGSERVICEFILE"]
        let log = h.directory + "/hub.log"
        let hub = try SpawnedProcess(CLIHarness.binary, ["hub", "--postgres", "service=steppie-hub", "--listen", "127.0.0.1:0"],
                                     environment: environment, stdoutPath: log, stderrPath: log)
        defer { hub.stop(SIGTERM); _ = hub.wait(timeout: 20) }
        #expect(waitUntil(timeout: 20) { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("sync hub on https://") },
                "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        let invite = h.sh("\"$S\" hub invite --postgres service=steppie-hub --json", env: service)
        #expect(invite.status == 0, "\(invite.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(invite.out.utf8)) as? [String: Any])
        #expect((json["code"] as? String)?.filter(\.isNumber).count == 8, "\(json)")
        // The invite went into the service's schema.
        #expect(try PostgresConnection(conninfo: conninfo).queryFirst("SELECT count(*) FROM invites") { try $0.int(0) } == 1)
        for (given, host) in [("host=192.0.2.1 dbname=steppie", "192.0.2.1"),
                              ("postgresql://hub@db.centre.example/steppie?sslmode=require", "db.centre.example")] {
            let r = h.sh("\"$S\" hub invite --postgres '\(given)'")
            #expect(r.status == 1 && r.out.isEmpty, "\(given): \(r.err)")
            #expect(r.err == "steppie: the database at \(host) is on another machine and the connection string does not ask for TLS that "
                    + "checks its certificate; add sslmode=verify-full and sslrootcert=FILE (docs/centre.md, “Roles and least privilege”). "
                    + "No statement was sent to it.\n", "\(given)")
        }
    }
}
