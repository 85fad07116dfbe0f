import Foundation
import SteppieTestSupport
import Testing

/// One `steppie serve` with its own database, socket and log: a hub (`--hub 127.0.0.1:0`) or a
/// device. Commands run against it through `sh` (its database and socket in the environment).
final class SyncNode {
    let h = BinaryHarness()
    var service: SpawnedProcess?
    var log: String { (try? String(contentsOfFile: h.directory + "/serve.log", encoding: .utf8)) ?? "" }
    var env: [String: String] { ["STEPPIE_SOCKET": h.directory + "/run/s.sock", "XDG_RUNTIME_DIR": h.directory + "/run"] }

    @discardableResult
    func sh(_ script: String) -> BinaryHarness.Result { h.sh(script, env: env) }

    /// Starts the service and waits until it answers on its socket.
    func start(_ extra: [String] = []) throws {
        try FileManager.default.createDirectory(atPath: h.directory + "/run", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in env { environment[k] = v }
        environment["STEPPIE_DB"] = h.db
        environment["STEPPIE_NOW"] = nil
        environment["LANG"] = "en_US.UTF-8"
        service = try SpawnedProcess(CLIHarness.binary, ["serve", "--output", "null", "--http", "none", "--locale", "en"] + extra,
                                     environment: environment, stdoutPath: h.directory + "/serve.log", stderrPath: h.directory + "/serve.log")
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, sh("$S service status").status != 0 { usleep(50_000) }
    }

    func stop() { service?.stop(SIGTERM) }

    /// The hub's address and fingerprint, from its log.
    func hubAddress() -> (url: String, fingerprint: String)? {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let line = log.split(separator: "\n").first(where: { $0.contains("sync hub on https://") }),
               let url = line.split(separator: " ").first(where: { $0.hasPrefix("https://") }),
               let fp = line.split(separator: " ").last?.dropLast() {
                return (String(url), String(fp))
            }
            usleep(50_000)
        }
        return nil
    }

    func digest() -> String { sh("$S sync digest --json").out }

    /// What the contract's tables show of the synced data (no row ids a device makes for itself).
    func tables() -> String {
        h.sh("""
            sqlite3 -readonly "$STEPPIE_DB" "SELECT 'c', id, display_name, feedback_intensity, pitch, archived_at IS NULL FROM children ORDER BY id;
            SELECT 's', id, child_id, name, is_active, deleted_at IS NULL FROM routine_sets ORDER BY id;
            SELECT 'r', id, routine_set_id, title, icon, color_token, CASE WHEN is_active = 1 AND deleted_at IS NULL THEN sort_order END,
                is_active, deleted_at IS NULL FROM routines ORDER BY id;
            SELECT 'l', date, routine_id, status, completed_at FROM daily_logs ORDER BY date, routine_id;
            SELECT 'k', child_id, weekday, start_time, routine_set_id FROM set_schedules ORDER BY 2, 3, 4;"
            """).out
    }
}

@Suite(.serialized) struct SyncProcessTests {
    /// Waits until every node prints the same digest; the seconds it took.
    static func converge(_ nodes: [SyncNode], timeout: Double = 10) -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < timeout {
            let digests = nodes.map { $0.digest() }
            if Set(digests).count == 1, !digests[0].isEmpty { return Date().timeIntervalSince(start) }
            usleep(20_000)
        }
        return nil
    }

    static func code(_ invite: BinaryHarness.Result) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(invite.out.utf8)) as? [String: Any])?["code"] as? String
    }

    @Test func aHubAndTwoDevicesConvergeWithinTwoSecondsOfTheLastChange() throws {
        let hub = SyncNode(), home = SyncNode(), school = SyncNode()
        defer { [hub, home, school].forEach { $0.stop() } }
        #expect(hub.sh("$S init --child Mina --template morning").status == 0)
        try hub.start(["--hub", "127.0.0.1:0"])
        let (url, fingerprint) = try #require(hub.hubAddress(), "hub log: \(hub.log)")

        // Home joins with a child of its own; school joins afterwards and is given both.
        #expect(home.sh("$S init --child Joon --template school").status == 0)
        let homeCode = try #require(Self.code(hub.sh("$S sync invite --json")))
        let joined = home.sh("$S sync join \(url) --code \(homeCode) --fingerprint \(fingerprint) --name home")
        #expect(joined.status == 0, "\(joined.err)")
        let schoolCode = try #require(Self.code(hub.sh("$S sync invite --json")))
        // A wrong fingerprint is refused before anything is sent, and nothing changes.
        let wrong = school.sh("$S sync join \(url) --code \(schoolCode) --fingerprint \(String(repeating: "AB:", count: 31))AB")
        #expect(wrong.status != 0 && wrong.err.contains("fingerprint"), "\(wrong.err)")
        #expect(school.sh("$S sync join \(url) --code \(schoolCode) --fingerprint \(fingerprint) --name school").status == 0)
        try home.start()
        try school.start()
        #expect(Self.converge([hub, home, school]) != nil)
        #expect(school.sh("$S children list").out.contains("Joon"))

        // Presses and edits on every side at once.
        #expect(home.sh("$S complete --child Mina").status == 0)
        #expect(school.sh("$S complete --child Joon").status == 0)
        #expect(hub.sh("$S complete --child Joon").status == 0)
        #expect(school.sh("$S profile set --child Mina --pitch 70").status == 0)
        #expect(home.sh("$S children rename Joon 'Joon Ho'").status == 0)
        let routine = hub.h.query("SELECT r.id FROM routines r JOIN routine_sets s ON s.id = r.routine_set_id JOIN children c ON c.id = s.child_id WHERE c.display_name = 'Mina' ORDER BY r.sort_order DESC LIMIT 1")
        #expect(hub.sh("$S routine edit \(routine) --title-en 'Shoes on'").status == 0)
        #expect(school.sh("$S routine move \(routine) --to 1").status == 0)
        let last = Date()
        let took = try #require(Self.converge([hub, home, school]), "digests: \([hub, home, school].map { $0.digest() })")
        let sinceLast = Date().timeIntervalSince(last)
        #expect(sinceLast < 2, "converged \(sinceLast) s after the last change (\(took) s of polling)")
        #expect(home.tables() == hub.tables())
        #expect(school.tables() == hub.tables())
        #expect(hub.h.query("SELECT COUNT(*) FROM sync_events") == "3")
        #expect(school.h.query("SELECT pitch FROM children WHERE display_name = 'Mina'") == "70")
        #expect(school.h.query("SELECT json_extract(title, '$.en') || ' ' || sort_order FROM routines WHERE id = '\(routine)'") == "Shoes on 0")
        print("sync: three services converged \(String(format: "%.3f", sinceLast)) s after the last change")
    }
}
