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

    /// Another device's press of the current activity arrives (through sync: another connection's
    /// commit) between two polls; the next press here completes the activity after it, not the
    /// one already done (which the store would refuse as no longer current: "not saved").
    @Test func aPressAfterAnotherDevicesPressOfTheSameActivityCompletesTheNextOne() throws {
        let f = try RuntimeFixture()
        let r = try f.runtime()
        r.start()
        let day = LocalDay(f.clock.now(), in: f.zone)
        let plan = try f.store.today(childId: f.child.id, day: day)
        let first = try #require(plan.current?.routine.id)
        let other = try f.otherProcess()
        _ = try other.complete(childId: f.child.id, routineId: first, day: day, at: f.clock.now())
        #expect(r.state.focus == first)   // no poll yet: the screen still shows the first
        r.done()
        #expect(r.state.notice == nil)
        #expect(!f.player.played.contains(.error))
        let after = try f.store.today(childId: f.child.id, day: day)
        #expect(after.completedCount == 2)
        #expect(after.items.prefix(2).filter(\.isCompleted).count == 2)
    }

    /// The reducer's `.log` effects become the event log's lines in the order they ran: the step's
    /// own lines at the event's instant, each cue's line once the player returned (here a player
    /// that takes a quarter of a second), with the routine's id and title from the plan.
    @Test func theLogEffectsAreWrittenAsTheyRun() throws {
        let f = try RuntimeFixture()
        let path = f.directory.appendingPathComponent("events.jsonl").path
        let r = try ChildModeRuntime(store: f.faulty, child: f.child, clock: f.clock, player: SlowCuePlayer(f.clock),
                                     events: try EventLog.open(path, zone: f.zone, locale: "en"))
        let t0 = f.clock.now()
        r.start()
        r.done()
        r.undo()
        r.undo()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(EventLogRecord.self, from: Data($0.utf8)) }
        let first = try #require(r.state.plan.current?.routine.id.uuidString.lowercased())
        let seen = lines.map { [$0.type.rawValue, $0.cue ?? "-", $0.activityId == first ? "first" : "?", $0.title ?? "-",
                                "\($0.progress.completed)", $0.time] }
        func at(_ s: Double) -> String { Timestamp.format(t0.addingTimeInterval(s), in: f.zone) }
        #expect(seen == [
            ["focus", "-", "first", "Wake up", "0", at(0)],
            ["cue", "announce", "first", "Wake up", "0", at(0.25)],
            ["completed", "-", "first", "Wake up", "1", at(0.25)],
            ["cue", "completed", "first", "Wake up", "1", at(0.5)],
            ["undone", "-", "first", "Wake up", "0", at(0.5)],
            ["cue", "undone", "first", "Wake up", "0", at(0.75)],
            ["undoRefused", "-", "first", "Wake up", "0", at(0.75)],
        ], "\(seen)")
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

/// A player whose every cue takes a quarter of a second of the manual clock.
private final class SlowCuePlayer: CuePlayer {
    let clock: ManualWallClock
    init(_ clock: ManualWallClock) { self.clock = clock }
    func play(_ cue: ChildCue, plan: DayPlan, child: Child) { clock.advance(by: 0.25) }
    func update(child: Child) {}
    func dataChanged() {}
}
