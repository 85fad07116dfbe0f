import Foundation
import SteppieTestSupport
import Testing

/// A centre's hub and PostgreSQL's own tools (docs/centre.md): last night's `pg_dump` restored
/// over a hub that took more since, and two hub processes on one database through a SIGKILL and a
/// restart of the database.
@Suite(.serialized, .enabled(if: CentreSchema.base != nil,
                             "STEPPIE_TEST_POSTGRES is unset: run under scripts/with-postgres.sh (scripts/test.sh does)"))
struct CentreRestoreProcessTests {
    static var pgBin: String { ProcessInfo.processInfo.environment["STEPPIE_PG_BIN"] ?? "/usr/lib/postgresql/15/bin" }

    /// The test cluster's connection string for another database of it.
    static func database(_ name: String) throws -> String {
        let base = try #require(CentreSchema.base)
        return base.split(separator: " ").map { $0.hasPrefix("dbname=") ? "dbname=\(name)" : String($0) }.joined(separator: " ")
    }

    @Test func lastNightsDumpRestoredOverTheHubLosesNothingTheDevicesMade() throws {
        let hub = try SyncHubUnderTest(.centre), home = SyncNode()
        let office = hub.office
        defer { hub.stop(); home.stop() }
        let schema = try #require(hub.schema)
        let port = try #require(LoopbackPort.one())
        #expect(office.sh("$S init --child Mina --template morning").status == 0)
        try hub.start(port: port)
        let (url, fingerprint) = try #require(hub.address(), "hub log: \(hub.log)")
        let code = try #require(SyncProcessTests.code(hub.invite()))
        #expect(home.sh("$S sync join \(url) --code \(code) --fingerprint \(fingerprint) --name home").status == 0)
        try home.start()
        // Today's routines marked done and not done by a guardian (each change an event), on both devices.
        let routines = office.h.query("SELECT id FROM routines ORDER BY sort_order").split(separator: "\n").map(String.init)
        try #require(routines.count >= 3)
        var presses = 0
        let today = String(SyncProcessTests.instant(0).prefix(10))
        func mark(_ node: SyncNode, _ routine: Int, _ done: Bool) {
            let r = node.sh("$S history set --child Mina --json \(today) \(routines[routine]) \(done ? "done" : "not-done")")
            if r.status == 0 && r.out.contains("\"changed\" : true") { presses += 1 }
        }
        mark(office, 0, true)
        mark(home, 1, true)
        mark(office, 2, true)
        #expect(SyncProcessTests.converge(hub.digestNodes + [home]) != nil)

        // Last night's dump, and the drill: restored into a scratch database, it holds what the hub held.
        let dump = office.h.directory + "/hub.dump"
        let base = try #require(CentreSchema.base)
        let dumped = office.h.sh("\(Self.pgBin)/pg_dump --format=custom --schema=\(schema.name) --file=\(dump) \"$C\"", env: ["C": base])
        try #require(dumped.status == 0, "\(dumped.err)")
        let before = hub.digest()
        let drill = "drill_" + schema.name
        #expect(CentreSchema.psql(base, "CREATE DATABASE \(drill)").status == 0)
        defer { _ = CentreSchema.psql(base, "DROP DATABASE IF EXISTS \(drill)") }
        let drillInfo = try Self.database(drill)
        let restoredDrill = office.h.sh("\(Self.pgBin)/pg_restore --dbname=\"$C\" --no-owner \(dump)", env: ["C": drillInfo])
        #expect(restoredDrill.status == 0, "\(restoredDrill.err)")
        let drillDigest = office.h.sh("$S hub digest --json --postgres \"$C\"", env: ["C": drillInfo + " options='-csearch_path=\(schema.name)'"])
        #expect(drillDigest.status == 0 && drillDigest.out == before, "drill \(drillDigest.out) \(drillDigest.err) live \(before)")

        // The day goes on: the hub takes more from both devices.
        mark(home, 0, false)
        mark(office, 1, false)
        mark(home, 2, false)
        #expect(home.sh("$S profile set --child Mina --pitch 70").status == 0)
        #expect(SyncProcessTests.converge(hub.digestNodes + [home]) != nil)
        #expect(hub.count(.events(kind: nil)) == String(presses))

        // The hub's database is put back to last night's dump.
        hub.stopHub()
        #expect(CentreSchema.psql(base, "DROP SCHEMA \(schema.name) CASCADE").status == 0)
        let restored = office.h.sh("\(Self.pgBin)/pg_restore --dbname=\"$C\" --no-owner \(dump)", env: ["C": base])
        try #require(restored.status == 0, "\(restored.err)")
        #expect(hub.digest() == before)
        try hub.startCentre(port: port)
        // Each device notices at its next change (a gap below what the hub acknowledged before) and
        // sends again what it made; everything converges and every press is on the hub.
        mark(office, 0, true)
        mark(home, 1, true)
        #expect(presses == 8, "each mark an event")
        let took = SyncProcessTests.converge(hub.digestNodes + [home], timeout: 20)
        #expect(took != nil, "digests: \((hub.digestNodes + [home]).map { $0.digest() }) hub log: \(hub.log)")
        #expect(hub.count(.events(kind: nil)) == String(presses), "every day marked, once")
        #expect(home.h.query("SELECT pitch FROM children WHERE display_name = 'Mina'") == "70")
        #expect(hub.query(household: "", centre: "SELECT value FROM registers WHERE entity = 'child' AND field = 'profile.pitch'") == "70")
        #expect(home.tables() == office.tables())
        print("centre restore: converged \(String(format: "%.3f", took ?? -1)) s after the devices' next changes; \(presses) days marked kept")
    }

    /// A second `steppie hub` on the same database: its address and fingerprint from its log.
    static func startHub(_ schema: CentreSchema, port: UInt16, log: String) throws -> (SpawnedProcess, String, String)? {
        try? FileManager.default.removeItem(atPath: log)
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "en_US.UTF-8"
        let process = try SpawnedProcess(CLIHarness.binary, ["hub", "--postgres", schema.conninfo, "--listen", "127.0.0.1:\(port)"],
                                         environment: environment, stdoutPath: log, stderrPath: log)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").last(where: { $0.contains("sync hub on https://") }),
               let url = line.split(separator: " ").first(where: { $0.hasPrefix("https://") }),
               let fp = line.split(separator: " ").last?.dropLast() {
                return (process, String(url), String(fp))
            }
            usleep(50_000)
        }
        process.stop(SIGKILL)
        return nil
    }

    /// Issue 28: two hub processes on one database, the devices spread over both; one hub SIGKILLed
    /// while the devices push, the database restarted once (its own test phase: a restart breaks
    /// every other test's connections). Every change arrives exactly once and everything converges.
    @Test func twoHubProcessesThroughASIGKILLAndAServerRestartLoseAndRepeatNothing() throws {
        let pgctl = try #require(ProcessInfo.processInfo.environment["STEPPIE_TEST_POSTGRES_PGCTL"])
        let hub = try SyncHubUnderTest(.centre), home = SyncNode(), school = SyncNode()
        let office = hub.office
        let schema = try #require(hub.schema)
        let ports = try #require(LoopbackPort.free(count: 2))
        let (portA, portB) = (ports[0], ports[1])
        let logB = office.h.directory + "/hub-b.log"
        #expect(office.sh("$S init --child Mina --template morning").status == 0)
        try hub.start(port: portA)
        var (b, urlB, fingerprintB) = try #require(try Self.startHub(schema, port: portB, log: logB), "hub B did not start")
        defer { hub.stop(); b.stop(SIGTERM); home.stop(); school.stop() }
        let (urlA, fingerprintA) = try #require(hub.address())
        #expect(fingerprintA == fingerprintB, "every process of a centre presents the same certificate")
        // Home joins through hub B, school through hub A; office is on A.
        for (node, url, name) in [(home, urlB, "home"), (school, urlA, "school")] {
            let code = try #require(SyncProcessTests.code(hub.invite()))
            let joined = node.sh("$S sync join \(url) --code \(code) --fingerprint \(fingerprintA) --name \(name)")
            #expect(joined.status == 0, "\(joined.err)")
            try node.start()
        }
        let devices = [office, home, school]
        #expect(SyncProcessTests.converge(hub.digestNodes + [home, school], timeout: 20) != nil)
        let routines = office.h.query("SELECT id FROM routines ORDER BY sort_order").split(separator: "\n").map(String.init)
        try #require(routines.count >= 3)
        let today = String(SyncProcessTests.instant(0).prefix(10))
        var marks = 0
        func round(_ done: Bool) {
            for (n, node) in devices.enumerated() {
                let r = node.sh("$S history set --child Mina --json \(today) \(routines[n]) \(done ? "done" : "not-done")")
                if r.status == 0 && r.out.contains("\"changed\" : true") { marks += 1 }
                _ = node.sh("$S profile set --child Mina --pitch \(40 + marks)")
            }
        }
        round(true)
        // Hub A killed while the devices push what they just made.
        hub.stopHub(SIGKILL)
        round(false)
        // The database restarted once: both hubs' sessions break; they answer "try again" meanwhile.
        #expect(SpawnedProcess.run(pgctl, ["restart", "-m", "fast", "-w", "-t", "30"], timeout: 60) == 0)
        round(true)
        try hub.startCentre(port: portA)
        round(false)
        let took = SyncProcessTests.converge(hub.digestNodes + [home, school], timeout: 30)
        #expect(took != nil, "digests: \((hub.digestNodes + [home, school]).map { $0.digest() })")
        #expect(marks == 12, "each mark a change")
        #expect(hub.count(.events(kind: nil)) == String(marks), "every event once")
        // Exactly once: each device's entries are in the feed as many times as the hub acknowledged them.
        let rows = schema.query("""
            SELECT d.name, d.acknowledged, (SELECT COUNT(*) FROM feed f WHERE f.origin = d.id) FROM devices d ORDER BY d.name
            """).split(separator: "\n")
        #expect(rows.count == 3)
        for row in rows {
            let f = row.split(separator: "|")
            #expect(f.count == 3 && f[1] == f[2], "device \(row): acknowledged vs entries in the feed")
        }
        #expect(home.tables() == office.tables() && school.tables() == office.tables())
        // Hub B is still the same hub: it serves a fresh device too.
        b.stop(SIGTERM)
        (b, urlB, fingerprintB) = try #require(try Self.startHub(schema, port: portB, log: logB), "hub B did not start again")
        #expect(fingerprintB == fingerprintA)
        print("centre: two hubs, a SIGKILL and a server restart; \(marks) marks once each, converged in \(String(format: "%.3f", took ?? -1)) s")
    }
}
