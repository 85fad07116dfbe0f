import Foundation
import Testing
import SteppieCore
@testable import SteppieStore
@testable import SteppieChildMode

/// 10,000+ random presses, timer firings, hours passing and failed saves through the real
/// runtime (reducer + store + timers) on a real SQLite file, with invariants checked after every
/// step.
@Suite struct ChildModeRandomizedTests {
    /// A tiny deterministic generator (SplitMix64) so a failing seed can be replayed.
    struct Rng {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E3779B97F4A7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
            z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func chance(_ p: Double) -> Bool { Double(next() % 10_000) / 10_000 < p }
    }

    @Test(arguments: [("Asia/Seoul", "2026-03-02T06:50:00+09:00", UInt64(1)),
                      ("America/New_York", "2026-03-07T22:00:00-05:00", UInt64(2)),
                      ("America/New_York", "2026-10-31T22:00:00-04:00", UInt64(3))])
    func randomEventsKeepTheInvariants(zone: String, start: String, seed: UInt64) throws {
        let f = try RuntimeFixture(zone: zone, now: start)
        let routines = try f.store.routines(setId: try #require(try f.store.activeSet(childId: f.child.id)).id)
        // Reminders get something to do.
        var r = routines[3]
        r.scheduledTime = LocalTime("07:30")
        try f.store.updateRoutine(r, at: f.clock.now())

        var rng = Rng(state: seed)
        let runtime = try f.runtime()
        var steps = 0, failedSaves = 0, midnights = 0
        var lastDay = runtime.state.day
        runtime.start()

        while steps < 10_000 {
            steps += 1
            let before = f.player.played.count
            f.faulty.failSaves = rng.chance(0.1)
            let completedBefore = try f.store.today(childId: f.child.id, day: runtime.state.day).completedCount
            let roll = rng.below(100)
            switch roll {
            case 0..<30: runtime.done()
            case 30..<40: runtime.press(routines[rng.below(routines.count)].id)
            case 40..<55: runtime.undo()
            case 55..<65: runtime.next()
            case 65..<98:
                f.clock.advance(by: Double(rng.below(4000)) / 1000)
                runtime.poll()
            default:
                f.clock.advance(by: Double(3600 * (1 + rng.below(8))))   // hours pass, often across midnight
                runtime.poll()
            }
            let played = f.player.played[before...]
            if f.faulty.failSaves, roll < 55 {
                let completedAfter = try f.store.today(childId: f.child.id, day: runtime.state.day).completedCount
                if played.contains(.error) { failedSaves += 1 }
                // A failed save is never celebrated and never changes the database.
                #expect(!played.contains { if case .completed = $0 { true } else if case .allDone = $0 { true } else { false } },
                        "a success cue after a failed save at step \(steps)")
                if runtime.state.day == lastDay { #expect(completedAfter == completedBefore, "step \(steps)") }
            }
            if runtime.state.day != lastDay { midnights += 1; lastDay = runtime.state.day }
            // Invariants with nothing in flight: the screen is the database.
            let dbPlan = try f.store.today(childId: f.child.id, day: runtime.state.day)
            #expect(runtime.state.plan.completedCount == dbPlan.completedCount, "progress differs from the database at step \(steps)")
            #expect(runtime.state.plan.current?.routine.id == dbPlan.current?.routine.id)
            #expect(runtime.state.saving == nil)
            if let w = runtime.state.undo {
                #expect(w.deadline.timeIntervalSince(w.completedAt) == Double(runtime.state.undoDurationSeconds))
                #expect(runtime.nextDeadline == w.deadline)
            }
        }
        let dup = try f.store.db.queryFirst("SELECT count(*) FROM (SELECT date, routine_id FROM daily_logs GROUP BY 1, 2 HAVING count(*) > 1)") { $0.int(0) }
        #expect(dup == 0)
        #expect(try f.store.integrityProblems().isEmpty)
        let completions = f.player.played.filter { if case .completed = $0 { true } else { false } }.count
        let undos = f.player.played.filter { if case .undone = $0 { true } else { false } }.count
        let reminders = f.player.played.filter { if case .reminder = $0 { true } else { false } }.count
        #expect(completions > 100 && undos > 20 && failedSaves > 20 && midnights > 5,
                "c\(completions) u\(undos) f\(failedSaves) m\(midnights) r\(reminders)")
    }
}
