import Foundation
import SteppieTestSupport
import Synchronization
import Testing

/// One `steppie serve` with its own database, socket and log: a hub (`--hub 127.0.0.1:0`) or a
/// device. Commands run against it through `sh` (its database and socket in the environment).
final class SyncNode {
    let h = BinaryHarness()
    var service: SpawnedProcess?
    var log: String { (try? String(contentsOfFile: h.directory + "/serve.log", encoding: .utf8)) ?? "" }
    var env: [String: String] { ["STEPPIE_SOCKET": h.directory + "/run/s.sock", "XDG_RUNTIME_DIR": h.directory + "/run"] }

    @discardableResult
    func sh(_ script: String, now: String? = nil) -> BinaryHarness.Result {
        h.sh(script, env: env.merging(now.map { ["STEPPIE_NOW": $0] } ?? [:]) { a, _ in a })
    }

    /// Starts the service and waits until it answers on its socket.
    func start(_ extra: [String] = [], now: String? = nil) throws {
        try FileManager.default.createDirectory(atPath: h.directory + "/run", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try? FileManager.default.removeItem(atPath: h.directory + "/serve.log")   // a restart's log is its own
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in env { environment[k] = v }
        environment["STEPPIE_DB"] = h.db
        environment["STEPPIE_NOW"] = now
        environment["LANG"] = "en_US.UTF-8"
        service = try SpawnedProcess(CLIHarness.binary, ["serve", "--output", "null", "--http", "none", "--locale", "en"] + extra,
                                     environment: environment, stdoutPath: h.directory + "/serve.log", stderrPath: h.directory + "/serve.log")
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, sh("$S service status").status != 0 { usleep(50_000) }
    }

    func stop() {
        service?.stop(SIGTERM)
        service = nil
    }

    /// The hub's address and fingerprint, from its log.
    func hubAddress() -> (url: String, fingerprint: String)? {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let line = log.split(separator: "\n").last(where: { $0.contains("sync hub on https://") }),
               let url = line.split(separator: " ").first(where: { $0.hasPrefix("https://") }),
               let fp = line.split(separator: " ").last?.dropLast() {
                return (String(url), String(fp))
            }
            usleep(50_000)
        }
        return nil
    }

    func digest() -> String { sh("$S sync digest --json").out }

    /// What the contract's tables show of the synced data (no row ids a device makes for itself;
    /// a visible routine's place as its rank in its set: a delete here leaves a gap in the numbers
    /// that a device applying the same order does not).
    /// The synced tables as text (a failed read, e.g. a reader that met the service's checkpoint,
    /// waits up to 5 s, and is said rather than read as empty tables).
    func tables() -> String {
        let r = h.sh("""
            sqlite3 -readonly -cmd '.timeout 5000' "$STEPPIE_DB" "SELECT 'c', id, display_name, feedback_intensity, pitch, archived_at IS NULL FROM children ORDER BY id;
            SELECT 's', id, child_id, name, is_active, deleted_at IS NULL FROM routine_sets ORDER BY id;
            SELECT 'r', id, routine_set_id, title, icon, color_token, CASE WHEN is_active = 1 AND deleted_at IS NULL THEN
                (SELECT COUNT(*) FROM routines o WHERE o.routine_set_id = r.routine_set_id AND o.is_active = 1 AND o.deleted_at IS NULL
                 AND o.sort_order < r.sort_order) END, is_active, deleted_at IS NULL FROM routines r ORDER BY id;
            SELECT 'l', date, routine_id, status, completed_at FROM daily_logs ORDER BY date, routine_id;
            SELECT 'k', child_id, weekday, start_time, routine_set_id FROM set_schedules ORDER BY 2, 3, 4;"
            """)
        return r.status == 0 ? r.out : "sqlite3 failed (\(r.status)): \(r.err)"
    }
}

@Suite(.serialized) struct SyncProcessTests {
    /// Waits until every node prints the same digest; the seconds it took.
    static func converge(_ nodes: [any SyncDigesting], timeout: Double = 10) -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < timeout {
            // All nodes at once: under load, one after another would add their command starts
            // to the time measured.
            let found = Mutex<[Int: String]>([:])
            // Each node is read by one thread only (its own digest command).
            nonisolated(unsafe) let each = nodes
            DispatchQueue.concurrentPerform(iterations: nodes.count) { i in
                let digest = each[i].digest()
                found.withLock { $0[i] = digest }
            }
            let digests = found.withLock { all in nodes.indices.map { all[$0] ?? "" } }
            if Set(digests).count == 1, !digests[0].isEmpty { return Date().timeIntervalSince(start) }
            usleep(20_000)
        }
        return nil
    }

    static func code(_ invite: BinaryHarness.Result) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(invite.out.utf8)) as? [String: Any])?["code"] as? String
    }

    @Test(arguments: HubKind.available)
    func aHubAndTwoDevicesConvergeWithinTwoSecondsOfTheLastChange(_ kind: HubKind) throws {
        let hub = try SyncHubUnderTest(kind), home = SyncNode(), school = SyncNode()
        let office = hub.office
        defer { hub.stop(); [home, school].forEach { $0.stop() } }
        #expect(office.sh("$S init --child Mina --template morning").status == 0)
        try hub.start()
        let (url, fingerprint) = try #require(hub.address(), "hub log: \(hub.log)")

        // Home joins with a child of its own; school joins afterwards and is given both.
        #expect(home.sh("$S init --child Joon --template school").status == 0)
        let homeCode = try #require(Self.code(hub.invite()))
        let joined = home.sh("$S sync join \(url) --code \(homeCode) --fingerprint \(fingerprint) --name home")
        #expect(joined.status == 0, "\(joined.err)")
        try hub.deviceJoined()
        let schoolCode = try #require(Self.code(hub.invite()))
        // A wrong fingerprint is refused before anything is sent, and nothing changes.
        let wrong = school.sh("$S sync join \(url) --code \(schoolCode) --fingerprint \(String(repeating: "AB:", count: 31))AB")
        #expect(wrong.status != 0 && wrong.err.contains("fingerprint"), "\(wrong.err)")
        #expect(school.sh("$S sync join \(url) --code \(schoolCode) --fingerprint \(fingerprint) --name school").status == 0)
        try home.start()
        try school.start()
        let everyone: [any SyncDigesting] = hub.digestNodes + [home, school]
        #expect(Self.converge(everyone) != nil)
        #expect(school.sh("$S children list").out.contains("Joon"))

        // Presses and edits on every side at once.
        for (node, child) in [(home, "Mina"), (school, "Joon"), (office, "Joon")] {
            let pressed = node.sh("$S complete --child \(child)")
            #expect(pressed.status == 0, "\(pressed.out) \(pressed.err)")
        }
        #expect(school.sh("$S profile set --child Mina --pitch 70").status == 0)
        #expect(home.sh("$S children rename Joon 'Joon Ho'").status == 0)
        let routine = office.h.query("SELECT r.id FROM routines r JOIN routine_sets s ON s.id = r.routine_set_id JOIN children c ON c.id = s.child_id WHERE c.display_name = 'Mina' ORDER BY r.sort_order DESC LIMIT 1")
        #expect(office.sh("$S routine edit \(routine) --title-en 'Shoes on'").status == 0)
        #expect(school.sh("$S routine move \(routine) --to 1").status == 0)
        let last = Date()
        let took = try #require(Self.converge(everyone), "digests: \(everyone.map { $0.digest() })")
        let sinceLast = Date().timeIntervalSince(last)
        #expect(sinceLast < 2, "converged \(sinceLast) s after the last change (\(took) s of polling)")
        #expect(home.tables() == office.tables())
        #expect(school.tables() == office.tables())
        #expect(hub.count(.events(kind: nil)) == "3")
        #expect(school.h.query("SELECT pitch FROM children WHERE display_name = 'Mina'") == "70")
        #expect(school.h.query("SELECT json_extract(title, '$.en') || ' ' || sort_order FROM routines WHERE id = '\(routine)'") == "Shoes on 0")
        print("sync (\(kind)): three services converged \(String(format: "%.3f", sinceLast)) s after the last change")
    }

    /// POSTs `body` to the hub with `curl` (certificate not checked: a hostile peer) and returns
    /// the HTTP status and body.
    static func post(_ node: SyncNode, _ url: String, _ path: String, body: String, credential: String?) -> (status: Int, body: String) {
        let file = node.h.directory + "/body-\(UUID().uuidString).json"
        FileManager.default.createFile(atPath: file, contents: Data(body.utf8))
        let auth = credential.map { "-H 'Authorization: Bearer \($0)'" } ?? ""
        let r = node.h.sh("curl -sk -o $D/answer -w '%{http_code}' -X POST -H 'Content-Type: application/json' \(auth) --data-binary @\(file) \(url)\(path); echo; cat $D/answer")
        let lines = r.out.split(separator: "\n", maxSplits: 1).map(String.init)
        return (Int(lines.first ?? "") ?? -1, lines.count > 1 ? lines[1] : "")
    }

    @Test(arguments: HubKind.available)
    func hostilePeersAreRefusedWithTheHubsDataUnchanged(_ kind: HubKind) throws {
        let hub = try SyncHubUnderTest(kind), home = SyncNode(), school = SyncNode()
        let office = hub.office
        defer { hub.stop(); [home, school].forEach { $0.stop() } }
        #expect(office.sh("$S init --child Mina --template morning").status == 0)
        #expect(office.sh("$S children add Joon").status == 0)
        try hub.start()
        let (url, fingerprint) = try #require(hub.address(), "hub log: \(hub.log)")
        let code = try #require(Self.code(hub.invite(["Mina"])))
        #expect(home.sh("$S init --child Sora --template bedtime").status == 0)
        #expect(home.sh("$S sync join \(url) --code \(code) --fingerprint \(fingerprint) --name home").status == 0)
        let device = home.h.query("SELECT device_id FROM sync_state")
        let credential = home.h.query("SELECT credential FROM sync_state")
        let joon = office.h.query("SELECT id FROM children WHERE display_name = 'Joon'")
        let acked = Int(hub.count(.acknowledged(device: device))) ?? -1
        #expect(acked > 0)
        let before = hub.snapshot()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        func change(_ seq: Int, child: String, value: String) -> String {
            """
            {"protocolVersion":1,"device":"\(device)","sentAt":\(now),"entries":[{"seq":\(seq),"entry":{"change":{"child":"\(child)",
            "entity":"child","field":"name","record":"\(child)","stamp":"\(String(format: "%015lld", now))-00000000-\(device)","value":"\(value)"}}}]}
            """
        }
        // A wrong credential, and none.
        #expect(Self.post(office, url, "/sync/v1/push", body: change(acked + 1, child: joon, value: "X"), credential: String(repeating: "0", count: 64)).status == 401)
        #expect(Self.post(office, url, "/sync/v1/pull", body: "{}", credential: nil).status == 401)
        // A child the device was not given.
        let notGiven = Self.post(office, url, "/sync/v1/push", body: change(acked + 1, child: joon, value: "X"), credential: credential)
        #expect(notGiven.status == 409 && notGiven.body.contains("childNotGiven"), "\(notGiven)")
        // A replayed push (numbers already acknowledged): acknowledged again, nothing applied.
        let replay = Self.post(office, url, "/sync/v1/push", body: change(1, child: joon, value: "X"), credential: credential)
        #expect(replay.status == 200 && replay.body.contains("\"acknowledged\":\(acked)"), "\(replay)")
        // A gap, malformed JSON, an oversized batch.
        #expect(Self.post(office, url, "/sync/v1/push", body: change(acked + 5, child: joon, value: "X"), credential: credential).body.contains("gap"))
        #expect(Self.post(office, url, "/sync/v1/push", body: "{\"protocolVersion\":1,\"entries\":[", credential: credential).status == 409)
        #expect(Self.post(office, url, "/sync/v1/push", body: String(repeating: " ", count: 3_000_000), credential: credential).status == 413)
        // Codes guessed: after ten wrong ones even the right code waits.
        let right = try #require(Self.code(hub.invite()))
        for guess in 0..<10 {
            let r = Self.post(office, url, "/sync/v1/join", body: """
                {"protocolVersion":1,"code":"0000-00\(String(format: "%02d", guess))","deviceName":"x","device":"\(UUID().uuidString.lowercased())"}
                """, credential: nil)
            #expect(r.status == 401 || r.status == 409, "\(r)")
        }
        let locked = school.sh("$S sync join \(url) --code \(right) --fingerprint \(fingerprint)")
        #expect(locked.status != 0 && locked.err.contains("too many wrong joining codes"), "\(locked.err)")
        #expect(hub.snapshot() == before)
        // A removed device's credential stops working at once.
        #expect(hub.remove("home").status == 0)
        #expect(home.sh("$S sync now").err.contains("does not know this device"))
    }

    /// An instant as `STEPPIE_NOW` takes it, `seconds` from now.
    static func instant(_ seconds: Double, from base: Date = Date()) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(identifier: "Asia/Seoul")
        return f.string(from: base.addingTimeInterval(seconds))
    }

    @Test(arguments: HubKind.available)
    func aDeviceTenMinutesAheadIsRefusedAndLosesNothingOnceItsClockIsRight(_ kind: HubKind) throws {
        let hub = try SyncHubUnderTest(kind), device = SyncNode()
        let office = hub.office
        defer { hub.stop() }
        #expect(office.sh("$S init --child Mina --template morning").status == 0)
        try hub.start()
        let (url, fingerprint) = try #require(hub.address(), "hub log: \(hub.log)")
        let code = try #require(Self.code(hub.invite()))
        let ahead = Self.instant(600)
        #expect(device.sh("$S init --child Sora --template bedtime", now: ahead).status == 0)
        let joined = device.sh("$S sync join \(url) --code \(code) --fingerprint \(fingerprint)", now: ahead)
        #expect(joined.status == 0 && joined.err.contains("ahead of the hub"), "\(joined.err)")
        #expect(device.sh("$S complete --child Sora --no-service", now: ahead).status == 0)
        let status = device.sh("$S sync status", now: ahead).out
        #expect(status.contains("ahead of the hub") && !status.contains(": 0 changes waiting"), "\(status)")
        #expect(hub.query(household: "SELECT COUNT(*) FROM sync_registers WHERE entity = 'child' AND field = 'name' AND value = '\"Sora\"'",
                          centre: "SELECT COUNT(*) FROM registers WHERE entity = 'child' AND field = 'name' AND value = '\"Sora\"'") == "0")
        // The clock put right: everything goes, stamped again, none of it in the future.
        let now = device.sh("$S sync now --json")
        #expect(now.status == 0, "\(now.err)")
        try hub.deviceJoined()
        #expect(device.h.query("SELECT COUNT(*) FROM sync_outbox") == "0")
        #expect(hub.count(.events(kind: "press")) == "1")
        #expect(Self.converge(hub.digestNodes + [device]) != nil)
        #expect(office.h.query("SELECT COUNT(*) FROM children WHERE display_name = 'Sora'") == "1")
        let newest = hub.query(household: "SELECT MAX(substr(stamp, 1, 15)) FROM sync_registers",
                               centre: "SELECT MAX(substr(stamp, 1, 15)) FROM registers")
        #expect((Int64(newest) ?? .max) <= Int64(Date().timeIntervalSince1970 * 1000) + 60_000, "newest stamp \(newest)")
    }

    @Test(arguments: HubKind.available)
    func aDeviceAway200DaysGetsAFreshCopyAndNothingDeletedComesBack(_ kind: HubKind) throws {
        let hub = try SyncHubUnderTest(kind), device = SyncNode()
        let office = hub.office
        defer { hub.stop() }
        let start = Date().addingTimeInterval(-201 * 86_400)
        let t0 = Self.instant(0, from: start), t1 = Self.instant(86_400, from: start), later = Self.instant(200 * 86_400, from: start)
        // The hub keeps its port across its restart 200 days on.
        let port = try #require(LoopbackPort.one())
        #expect(office.sh("$S init --child Mina --template morning", now: t0).status == 0)
        try hub.start(port: port, now: t0)
        let (url, fingerprint) = try #require(hub.address(), "hub log: \(hub.log)")
        let code = try #require(Self.code(hub.invite(now: t0)))
        #expect(device.sh("$S sync join \(url) --code \(code) --fingerprint \(fingerprint)", now: t0).status == 0)
        let floss = office.h.query("SELECT id FROM routines WHERE json_extract(title, '$.en') LIKE 'Brush%'")
        #expect(!floss.isEmpty)
        // The device renames it while away; the hub's side deletes it a day later; 200 days pass.
        #expect(device.sh("$S routine edit \(floss) --title-en 'Teeth'", now: Self.instant(3_600, from: start)).status == 0)
        #expect(office.sh("$S routine delete \(floss)", now: t1).status == 0)
        #expect(office.sh("$S routine add --child Mina --title-en 'Stretch' --title-ko '스트레칭'", now: t1).status == 0)
        hub.stop()
        try hub.start(port: port, now: later)
        // A centre's office pushes its edits now (stamped a day after the hub's clock of then, they
        // waited); the household hub made them itself.
        #expect(SyncProcessTests.eventually { office.h.query("SELECT COUNT(*) FROM sync_outbox") == "0" })
        let back = device.sh("$S sync now --json", now: later)
        #expect(back.status == 0, "\(back.err)")
        // The feed forgot those days: the device got a fresh copy; the delete holds everywhere.
        #expect(Int(hub.count(.forgottenThrough)) ?? 0 > 0)
        #expect(Self.converge(hub.digestNodes + [device]) != nil)
        for node in [office, device] {
            #expect(node.h.query("SELECT deleted_at IS NOT NULL FROM routines WHERE id = '\(floss)'") == "1")
            #expect(node.h.query("SELECT COUNT(*) FROM routines WHERE json_extract(title, '$.en') = 'Stretch'") == "1")
        }
        #expect(device.tables() == office.tables())
    }

    @Test(arguments: HubKind.available)
    func aDeviceKilledDuringAPushOrAPullAppliesNothingTwiceAndMissesNothing(_ kind: HubKind) throws {
        let hub = try SyncHubUnderTest(kind), home = SyncNode(), school = SyncNode()
        let office = hub.office
        defer { hub.stop() }
        #expect(office.sh("$S init --child Mina --template morning").status == 0)
        try hub.start()
        let (url, fingerprint) = try #require(hub.address(), "hub log: \(hub.log)")
        // Home has five years of history: 6,000 entries and more, four pushes of at most 2,000.
        #expect(home.sh("$S init --child Sora --template bedtime").status == 0)
        #expect(home.h.sh("""
            sqlite3 "$STEPPIE_DB" "WITH RECURSIVE d(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM d WHERE n < 2000)
            INSERT INTO daily_logs (id, date, routine_id, routine_set_id, status, completed_at, created_at, updated_at)
            SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a'
                || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), date('2023-01-01', '+' || n || ' days'), r.id,
                r.routine_set_id, 'completed', date('2023-01-01', '+' || n || ' days') || 'T20:00:00+09:00',
                '2023-01-01T20:00:00+09:00', '2023-01-01T20:00:00+09:00' FROM d, routines r"
            """).status == 0)
        let logs = Int(home.h.query("SELECT COUNT(*) FROM daily_logs")) ?? 0
        #expect(logs > 5_000)
        let code = try #require(Self.code(hub.invite()))
        // Killed when the hub has taken the second push and before home has recorded that.
        let killed = home.h.sh("$S sync join \(url) --code \(code) --fingerprint \(fingerprint)",
                               env: home.env.merging(["STEPPIE_TEST_KILL_SYNC_AT": "push-answered", "STEPPIE_TEST_KILL_SYNC_AFTER": "2"]) { a, _ in a })
        #expect(killed.status == 137, "\(killed.status) \(killed.err)")
        let device = home.h.query("SELECT device_id FROM sync_state")
        #expect(hub.count(.acknowledged(device: device)) == "4000")
        #expect(home.h.query("SELECT MIN(seq) FROM sync_outbox") == "2001")   // home recorded the first push only
        #expect(home.sh("$S sync now").status == 0)
        try hub.deviceJoined()
        let made = home.h.query("SELECT next_seq - 1 FROM sync_state")
        #expect(hub.count(.acknowledged(device: device)) == made)
        // Each of home's entries is in the hub's feed exactly once: resent, never applied twice.
        #expect(hub.count(.feed(origin: device)) == made)
        #expect(hub.count(.events(kind: nil)) == String(logs))

        // School's first copy comes in pages from the centre, killed with the second page in hand,
        // not applied; as one file from the household hub, killed with the file fetched, not taken.
        let schoolCode = try #require(Self.code(hub.invite()))
        let point = kind == .household ? ("copy-piece", "1") : ("pull-answered", "2")
        let cut = school.h.sh("$S sync join \(url) --code \(schoolCode) --fingerprint \(fingerprint)",
                              env: school.env.merging(["STEPPIE_TEST_KILL_SYNC_AT": point.0, "STEPPIE_TEST_KILL_SYNC_AFTER": point.1]) { a, _ in a })
        #expect(cut.status == 137, "\(cut.status) \(cut.err)")
        let partial = Int(school.h.query("SELECT COUNT(*) FROM sync_registers")) ?? 0
        if kind == .household {
            let mark = school.h.query("SELECT copy_after FROM sync_state")
            #expect(partial == 0 && mark.hasPrefix("=") && mark.count == 33, "\(partial) \(mark)")
            // The file is still there, whole, waiting to be taken (and is taken, not fetched again).
            #expect(school.h.sh("test -s \"$STEPPIE_DB.copy-\(mark.dropFirst())\"").status == 0)
        } else {
            #expect(partial > 0 && school.h.query("SELECT copy_after IS NOT NULL FROM sync_state") == "1")
        }
        #expect(school.sh("$S sync now").status == 0)
        #expect(school.h.sh("ls \"$STEPPIE_DB\".copy-* 2>/dev/null | wc -l").out.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(school.h.query("SELECT COUNT(*) FROM sync_events") == String(logs))
        #expect(Self.converge(hub.digestNodes + [school]) != nil)
        #expect(school.tables() == office.tables())

        // Camp is killed with the copy's first answer in hand (the hub has counted it given): its
        // next round still asks for the copy from the start, and nothing of the office's is missed.
        let camp = SyncNode()
        let campCode = try #require(Self.code(hub.invite()))
        let lost = camp.h.sh("$S sync join \(url) --code \(campCode) --fingerprint \(fingerprint)",
                             env: camp.env.merging(["STEPPIE_TEST_KILL_SYNC_AT": "pull-answered", "STEPPIE_TEST_KILL_SYNC_AFTER": "1"]) { a, _ in a })
        #expect(lost.status == 137, "\(lost.status) \(lost.err)")
        #expect(camp.h.query("SELECT quote(copy_after) FROM sync_state") == "''")
        #expect(camp.sh("$S sync now").status == 0)
        #expect(Self.converge(hub.digestNodes + [camp]) != nil)
        #expect(camp.tables() == office.tables())
    }
}
