import Foundation
import Testing
import SteppieCore
import SteppieStore
@testable import SteppieChildMode

/// The runtime with a manual clock, a temporary database and a recording cue player: every step
/// checks the state, the cues played and the database.
@Suite struct ChildModeRuntimeTests {
    @Test func aPressIsSavedHeardUndoableAndThenTheNextIsAnnounced() throws {
        let f = try RuntimeFixture()
        let r = try f.runtime()
        r.start()
        let plan = try f.store.today(childId: f.child.id, day: LocalDay(f.clock.now(), in: f.zone))
        let first = try #require(plan.current?.routine.id)
        #expect(f.player.played == [.announce(routineId: first)])

        r.done()
        #expect(f.player.played.last == .completed(routineId: first))
        #expect(try f.store.today(childId: f.child.id, day: r.state.day).completedCount == 1)
        #expect(r.state.undo != nil)
        #expect(r.nextDeadline == f.clock.now().addingTimeInterval(Double(f.child.profile.undoDurationSeconds)))

        // Undo inside the window: the database and the screen go back.
        f.clock.advance(by: 2)
        r.undo()
        #expect(f.player.played.last == .undone(routineId: first))
        #expect(try f.store.today(childId: f.child.id, day: r.state.day).completedCount == 0)

        // Done again; the window passes; the next activity is announced by the timer.
        r.done()
        f.clock.advance(by: Double(f.child.profile.undoDurationSeconds) + 0.1)
        r.poll()
        let second = try #require(try f.store.today(childId: f.child.id, day: r.state.day).current?.routine.id)
        #expect(f.player.played.last == .next(routineId: second))
        #expect(r.state.focus == second)
        #expect(r.state.undo == nil)
    }

    @Test func aFailedSaveIsNeverCelebrated() throws {
        let f = try RuntimeFixture()
        let r = try f.runtime()
        var faults: [String] = []
        r.onFault = { faults.append(String(describing: $0)) }
        r.start()
        f.faulty.failSaves = true
        r.done()
        #expect(f.player.played.last == .error)
        #expect(!f.player.played.contains { if case .completed = $0 { true } else { false } })
        #expect(try f.store.today(childId: f.child.id, day: r.state.day).completedCount == 0)
        #expect(r.state.shownCompleted == 0)
        #expect(faults.count == 1)
        f.faulty.failSaves = false
        r.done()
        #expect(try f.store.today(childId: f.child.id, day: r.state.day).completedCount == 1)
    }

    @Test func aGuardianEditInAnotherProcessReachesTheRuntimeThroughTheReducer() throws {
        let f = try RuntimeFixture()
        let r = try f.runtime()
        r.start()
        let other = try f.otherProcess()
        var profile = f.child.profile
        profile.undoDurationSeconds = 10
        try other.updateProfile(childId: f.child.id, profile, at: f.clock.now())
        f.clock.advance(by: 0.3)
        r.poll()
        #expect(r.state.undoDurationSeconds == 10)
        #expect(r.child.profile.undoDurationSeconds == 10)
        r.done()
        #expect(r.nextDeadline == f.clock.now().addingTimeInterval(10))

        // A routine deactivated elsewhere leaves the plan at once.
        let plan = try f.store.today(childId: f.child.id, day: r.state.day)
        let before = r.state.plan.total
        let last = try #require(plan.items.last?.routine)
        _ = try other.setRoutineActive(id: last.id, false, at: f.clock.now())
        r.poll()
        #expect(r.state.plan.total == before - 1)
    }

    @Test func profileChangedIsAReducerEvent() {
        let day = LocalDay(year: 2026, month: 3, day: 2) ?? LocalDay(Date(), in: .current)
        var state = ChildModeState(timeZone: TimeZone(identifier: "Asia/Seoul") ?? .current, profile: FeedbackProfile(),
                                   plan: DayPlan(day: day, set: nil, items: []), now: Date(timeIntervalSince1970: 1_772_400_000))
        var p = FeedbackProfile()
        p.undoDurationSeconds = 3
        p.notificationLeadTimes = [10]
        let effects = ChildModeReducer.reduce(&state, .profileChanged(p, now: Date(timeIntervalSince1970: 1_772_400_001)))
        #expect(effects.isEmpty)
        #expect(state.undoDurationSeconds == 3 && state.leadTimes == [10])
    }
}
