import Foundation
import SteppieCore
import SteppieService
import SteppieStore
import SteppieTestSupport
import Testing

/// `steppie serve` as a real process: the socket, single instance, commands as clients, edits from
/// other processes, and the status command.
@Suite(.serialized) struct ServiceTests {
    @Test func statusAnswersOnlyWithAServiceAndTheSocketIsOwnerOnly() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        let none = f.run(["service", "status"])
        #expect(none.status == 1)
        #expect(none.err.contains("No Steppie service answers"), "\(none.err)")
        // Under umask 000 the socket is still 0600 in a 0700 folder.
        try f.start(shell: "umask 000;")
        #expect(f.mode(f.socket) == 0o600)
        #expect(f.mode(f.directory + "/run") == 0o700)
        let status = f.run(["service", "status", "--json"])
        #expect(status.status == 0, "\(status.err)")
        let json = try JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [String: Any]
        #expect(json?["pid"] as? Int == Int(f.process?.pid ?? 0))
        #expect((json?["children"] as? [[String: Any]])?.first?["name"] as? String == "Mina")
        // A second service on the same database is refused, naming the running one.
        let second = f.run(["serve", "--output", "null", "--http", "none"], extra: ["STEPPIE_SOCKET": f.directory + "/other.sock"])
        #expect(second.status == 1)
        #expect(second.err.contains("already runs") && second.err.contains("\(f.process?.pid ?? 0)"), "\(second.err)")
        // SIGTERM: a clean stop, the socket file removed.
        f.process?.stop(SIGTERM)
        #expect(f.process?.exitStatus == 0, "\(f.logText)")
        #expect(!FileManager.default.fileExists(atPath: f.socket))
        #expect(f.run(["service", "status"]).status == 1)
    }

    /// The service's log says a fault in the device's language (issue 25, item 5): on a Korean
    /// system a sound effect that is missing is a Korean line naming the effect and the folder,
    /// never the error's English description or Swift's rendering of the value.
    @Test func aFaultIsLoggedInKoreanOnAKoreanDevice() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        // A data folder with the catalogs but without the sound effects: each is a fault the
        // service logs and goes on without.
        let data = f.directory + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: data + "/Localization",
                                                   withDestinationPath: ServiceFixture.repository.appendingPathComponent("Localization").path)
        try f.start(extra: ["STEPPIE_DATA_DIR": data, "LANG": "ko_KR.UTF-8", "LC_ALL": "ko_KR.UTF-8", "LC_MESSAGES": "ko_KR.UTF-8"])
        defer { f.process?.stop(SIGTERM) }
        // The line that says it listens comes after the socket answers.
        #expect(waitUntil(timeout: 10) { f.logText.contains("\(f.socket)에서 기다려요") }, "the log's other lines are Korean too: \(f.logText)")
        let log = f.logText
        let faults = log.split(separator: "\n").filter { $0.hasPrefix("steppie serve: -: ") }
        #expect(faults.contains { $0.contains("효과음 chime.wav가 없어요: \(data)/Sounds") }, "\(log)")
        for line in faults {
            for tell in ["missingSound(", "Error(", "directory:", "name:", "code:", "is missing in", "make-sounds"] {
                #expect(!line.contains(tell), "\(line)")
            }
        }
    }

    @Test func completeGoesThroughTheServiceAndEveryScreenSeesIt() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        try f.start()
        let screen = try f.client()
        let subscribed = try screen.request(ServiceRequest(.subscribe(child: nil)))
        #expect(subscribed.ok)
        let done = f.run(["complete", "--locale", "en"])
        #expect(done.status == 0, "\(done.err)")
        #expect(done.out.contains("done (1 / 6)"), "\(done.out)")
        var types: [String] = []
        let deadline = Date().addingTimeInterval(5)
        while !types.contains("completed"), let line = try screen.readLine(until: deadline) {
            let obj = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let event = obj?["event"] as? [String: Any], let type = event["type"] as? String { types.append(type) }
        }
        #expect(types.contains("completed"), "events: \(types)")
        let store = try f.store()
        let child = try store.resolveChild("Mina")
        #expect(try store.today(childId: child.id, day: LocalDay(Date(), in: store.timeZone)).completedCount == 1)
        // Undo through the service, inside its window.
        #expect(f.run(["undo"]).status == 0)
        #expect(try store.today(childId: child.id, day: LocalDay(Date(), in: store.timeZone)).completedCount == 0)
        // --no-service works in-process while the service runs.
        #expect(f.run(["complete", "--no-service"]).status == 0)
        #expect(try store.today(childId: child.id, day: LocalDay(Date(), in: store.timeZone)).completedCount == 1)
        // A command on another database never reaches this service.
        let other = f.directory + "/other.db"
        #expect(f.run(["init", "--child", "Eve", "--db", other]).status == 0)
        #expect(f.run(["complete", "--db", other]).status == 0)
        let otherStore = try Store(path: other, timeZone: store.timeZone)
        let eve = try otherStore.resolveChild("Eve")
        #expect(try otherStore.today(childId: eve.id, day: LocalDay(Date(), in: store.timeZone)).completedCount == 1)
    }

    @Test func aGuardianEditInAnotherProcessIsSeenWithinASecond() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        try f.start()
        let screen = try f.client()
        #expect(try screen.request(ServiceRequest(.subscribe(child: nil))).ok)
        let store = try f.store()
        let child = try store.resolveChild("Mina")
        let plan = try store.today(childId: child.id, day: LocalDay(Date(), in: store.timeZone))
        let last = try #require(plan.items.last?.routine.id)
        let edit = f.run(["routine", "deactivate", last.lowercased])
        #expect(edit.status == 0, "\(edit.err)")
        let edited = Date()
        var seen: Date?
        let deadline = Date().addingTimeInterval(3)
        while seen == nil, let line = try screen.readLine(until: deadline) {
            if line.contains("\"planChanged\"") { seen = Date() }
        }
        let delay = try #require(seen).timeIntervalSince(edited)
        #expect(delay < 1, "seen after \(delay) s")
        let status = try screen.request(ServiceRequest(.status))
        #expect(status.status?.children.first?.total == plan.total - 1)
    }

    @Test func sigkillDuringPressesLosesNoAnsweredPressAndTheRestartResumes() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        try f.start()
        let client = try f.client()
        var rng = SystemRandomNumberGenerator()
        let killAt = Int.random(in: 60...180, using: &rng)
        var answered: [PressResult] = []
        for i in 0..<200 {
            let op = ["done", "done", "done", "undo", "next"][Int.random(in: 0..<5, using: &rng)]
            if i == killAt {
                try client.sendLine("{\"id\":\(i),\"op\":\"\(op)\"}")
                f.process?.stop(SIGKILL)
                break
            }
            let action: PressAction = op == "done" ? .done : op == "undo" ? .undo : .next
            let reply = try client.request(ServiceRequest(.press(action, child: nil, locale: "en")))
            if let press = reply.press { answered.append(press) }
            // After the last card, undo keeps the run going.
            if reply.press?.completed == reply.press?.total { _ = try client.request(ServiceRequest(.press(.undo, child: nil))) }
        }
        let last = try #require(answered.last)
        let store = try f.store()
        let child = try store.resolveChild("Mina")
        let inDatabase = try store.today(childId: child.id, day: LocalDay(Date(), in: store.timeZone))
        // The press in flight may or may not have been saved; every answered one was.
        #expect(abs(inDatabase.completedCount - last.completed) <= 1, "db \(inDatabase.completedCount), last answer \(last.completed)")
        // Restarted, the service resumes at the database's current activity.
        try f.start()
        let status = try f.client().request(ServiceRequest(.status))
        let restarted = try #require(status.status?.children.first)
        #expect(restarted.completed == inDatabase.completedCount)
        #expect(restarted.focus == inDatabase.current?.routine.id.lowercased)
        #expect(try store.integrityProblems().isEmpty)
    }

    @Test func hostileSocketInputNeverCrashesOrChangesTheDatabase() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        try f.start()
        let store = try f.store()
        let before = try store.dump()
        // 5,000 seeded hostile lines: broken JSON, wrong types, unknown ops, bad ids, huge numbers.
        var seed: UInt64 = 0x5EED
        func next() -> UInt64 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return seed >> 33 }
        let pieces = ["{", "}", "\"op\"", ":", "\"done\"x", "\"press\"", "\"routineId\":\"nope\"", "[", "]", "null", "1e999", "\u{0}",
                      "\"id\":-1", "\"child\":\"\u{1B}[2J\"", ",", "\"say\"", "\"text\":\"\"", "\"rate\":99", "\\", "\"database\":\"/etc/passwd\""]
        let fuzz = try f.client()
        var replies = 0
        for _ in 0..<5_000 {
            var line = ""
            for _ in 0..<(1 + next() % 8) { line += pieces[Int(next() % UInt64(pieces.count))] }
            try fuzz.sendLine(line)
            if let reply = try fuzz.readLine(until: Date().addingTimeInterval(5)) {
                replies += 1
                let obj = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any]
                #expect(obj?["ok"] as? Bool == false, "accepted: \(line.debugDescription) → \(reply)")
            }
        }
        #expect(replies >= 4_900, "\(replies) replies")
        // A 1 MiB line: refused and the connection closed.
        let big = try f.client()
        // The service stops reading after 64 KiB, so the rest of the send may meet a closed socket.
        try? big.sendRaw(Array(repeating: UInt8(ascii: "a"), count: 1 << 20) + [0x0A])
        let bigReply = (try? big.readLine(until: Date().addingTimeInterval(5))) ?? nil
        #expect(bigReply?.contains("lineTooLong") == true, "\(String(describing: bigReply?.prefix(200)))")
        #expect(big.isClosed(within: 3))
        // A half-written line does not stop the service from serving others.
        let half = try f.client()
        try half.sendRaw(Array("{\"op\":\"sta".utf8))
        // 200 connections at once: the service stays up and answers.
        var many: [ServiceClient] = []
        for _ in 0..<200 { if let c = ServiceClient.connect(path: f.socket) { many.append(c) } }
        #expect(many.count == 200)
        let answer = try f.client().request(ServiceRequest(.status))
        // One more, whose `busy` the service has written and closed before the request is sent:
        // the request meets a broken pipe, and the reply is still the service's `busy`.
        let late = try f.client()
        #expect(late.peerClosed(within: 5))
        #expect(try late.request(ServiceRequest(.status)).error?.code == .busy)
        many.removeAll()
        #expect(answer.ok || answer.error?.code == .busy)
        // Once the 200 have hung up, every new connection is served again.
        #expect(waitUntil(timeout: 5) { (try? f.client().request(ServiceRequest(.status)))?.ok == true })
        #expect(f.process?.running == true)
        let rss = f.residentKB
        #expect(rss > 0 && rss < 100_000, "RSS \(rss) kB")
        #expect(try store.dump() == before)
        _ = half
    }
}
