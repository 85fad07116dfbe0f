import Foundation
import Testing
import SteppieCore
@testable import SteppieStore

/// 10,000+ random events through the real reducer and a real SQLite store, with invariants
/// checked after every step.
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
        let f = try StoreFixture(zone: zone, now: start)
        let child = try f.store.addChild(name: "Mina", at: f.now)
        let set = try f.store.createSet(childId: child.id, template: .morning, at: f.now)
        let routines = try f.store.routines(setId: set.id)
        // Reminders get something to do.
        var r = routines[3]
        r.scheduledTime = LocalTime("07:30")
        try f.store.updateRoutine(r, at: f.now)

        var rng = Rng(state: seed)
        var now = f.now
        var state = ChildModeState(timeZone: f.zone, profile: child.profile,
                                   plan: try f.store.today(childId: child.id, day: LocalDay(now, in: f.zone)), now: now)
        var timer: Date?
        var queue: [ChildModeEvent] = [.started(now: now)]
        var steps = 0, completions = 0, undos = 0, failures = 0, midnights = 0

        func run(_ event: ChildModeEvent) throws {
            let lastFailed: Bool
            if case .completionFailed = event { lastFailed = true } else { lastFailed = false }
            let window = state.undo
            let effects = ChildModeReducer.reduce(&state, event)
            steps += 1
            if lastFailed {
                #expect(!effects.contains { if case .play(.completed) = $0 { return true }; if case .play(.allDone) = $0 { return true }; return false },
                        "a success cue after a failed save")
            }
            for effect in effects {
                switch effect {
                case .persistCompletion(let routineId, let day, let at):
                    if rng.chance(0.1) {
                        failures += 1
                        queue.append(.completionFailed(now: at))
                    } else {
                        let log = try f.store.complete(childId: child.id, routineId: routineId, day: day, at: at)
                        completions += 1
                        queue.append(.completionSaved(log, now: at))
                    }
                case .persistUndo(let logId, _, let day, let at):
                    // Undo only inside the window, on the same day.
                    let w = try #require(window)
                    #expect(at < w.deadline && LocalDay(at, in: f.zone) == day && w.logId == logId)
                    if rng.chance(0.1) {
                        failures += 1
                        queue.append(.undoFailed(now: at))
                    } else {
                        let log = try f.store.undoCompletion(logId: logId, day: day, at: at, windowSeconds: state.undoDurationSeconds)
                        undos += 1
                        queue.append(.undoSaved(log, now: at))
                    }
                case .reloadPlan(let day):
                    midnights += 1
                    queue.append(.planChanged(try f.store.today(childId: child.id, day: day), now: now))
                case .startUndoTimer(let at): timer = at
                case .cancelUndoTimer: timer = nil
                case .play: break
                }
            }
        }

        while steps < 10_000 {
            while !queue.isEmpty { try run(queue.removeFirst()) }
            // Invariants with nothing in flight.
            let dbPlan = try f.store.today(childId: child.id, day: state.day)
            #expect(state.plan.completedCount == dbPlan.completedCount, "progress differs from the database at step \(steps)")
            #expect(state.plan.current?.routine.id == dbPlan.current?.routine.id)
            #expect(state.saving == nil)
            if let w = state.undo { #expect(w.deadline.timeIntervalSince(w.completedAt) == Double(state.undoDurationSeconds)) }

            // Next event.
            let roll = rng.below(100)
            switch roll {
            case 0..<30: queue.append(.donePressed(now: now))
            case 30..<40: queue.append(.pressed(routineId: routines[rng.below(routines.count)].id, now: now))
            case 40..<55: queue.append(.undoPressed(now: now))
            case 55..<65: queue.append(.nextPressed(now: now))
            case 65..<98:
                now = now.addingTimeInterval(Double(rng.below(4000)) / 1000)
                if let t = timer, now >= t { timer = nil; queue.append(.undoWindowElapsed(now: now)) }
                queue.append(.tick(now: now))
            default:
                now = now.addingTimeInterval(Double(3600 * (1 + rng.below(8))))   // hours pass, often across midnight
                queue.append(.tick(now: now))
            }
        }
        let dup = try f.store.db.queryFirst("SELECT count(*) FROM (SELECT date, routine_id FROM daily_logs GROUP BY 1, 2 HAVING count(*) > 1)") { $0.int(0) }
        #expect(dup == 0)
        #expect(try f.store.integrityProblems().isEmpty)
        #expect(completions > 100 && undos > 20 && failures > 20 && midnights > 5, "c\(completions) u\(undos) f\(failures) m\(midnights)")
    }
}
