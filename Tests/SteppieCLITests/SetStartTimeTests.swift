import Foundation
import Testing
import SteppieStore
@testable import SteppieCLI

@Suite struct SetStartTimeTests {
    @Test func aSetThatHasNotStartedWaitsAndSaysWhenItStarts() throws {
        let h = CLIHarness(now: "2026-03-02T07:00:00+09:00")
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let sets = try #require(try JSONSerialization.jsonObject(with: Data(h.run(["routines", "--json"]).out.utf8)) as? [[String: Any]])
        let id = try #require(sets.first?["id"] as? String)
        let before = try Store(path: h.db, timeZone: h.zone).dump()
        let bad = h.run(["set", "start-time", id, "25:00"])
        #expect(bad.status == 64 && bad.err.hasPrefix("steppie: TIME does not accept \"25:00\"; allowed: a 24-hour time HH:mm, 00:00…23:59, or none\n"), "\(bad.err)")
        #expect(try Store(path: h.db, timeZone: h.zone).dump() == before)
        #expect(h.run(["set", "start-time", id, "08:00"]).out == "\"Morning routine\" starts each day at 08:00.\n")

        let keys = h.directory.appendingPathComponent("keys.txt")
        try "done\nquit\n".write(to: keys, atomically: true, encoding: .utf8)
        let waiting = h.run(["child", "--output", "null", "--keys-from", keys.path])
        #expect(waiting.out == "Starts at 08:00\n")     // the press before the start does nothing
        h.clock.advance(by: 3600)
        let started = h.run(["child", "--output", "null", "--keys-from", keys.path])
        #expect(started.out == "Now: Wake up\nWake up done. Great job!\n")
        #expect(h.run(["set", "start-time", id, "none"]).status == 0)
    }
}

@Suite struct HistoryJSONTests {
    @Test func historyForScriptsNamesTheDayAndTheCompletions() throws {
        let h = CLIHarness(now: "2026-03-02T07:00:00+09:00")
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        #expect(h.run(["complete"]).status == 0)
        let day = try #require(try JSONSerialization.jsonObject(with: Data(h.run(["history", "--json"]).out.utf8)) as? [String: Any])
        #expect(day["date"] as? String == "2026-03-02")
        let done = try #require(day["completed"] as? [[String: Any]])
        #expect(done.count == 1 && done.first?["completedAt"] as? String == "2026-03-02T07:00:00.000+09:00")
        let month = try #require(try JSONSerialization.jsonObject(with: Data(h.run(["history", "--month", "2026-03", "--json"]).out.utf8)) as? [String: Any])
        let days = try #require(month["days"] as? [[String: Any]])
        #expect(days.count == 31)
        #expect(days.first?["completed"] as? Int == 0 && days[1]["completed"] as? Int == 1 && days[1]["total"] as? Int == 6)
    }
}
