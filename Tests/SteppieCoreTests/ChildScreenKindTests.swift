import Foundation
import Testing
@testable import SteppieCore

/// One classification of the child's screen for every front end (issue 25): the order is empty,
/// waiting, undo, all done, current, whatever else the state holds.
@Suite struct ChildScreenKindTests {
    typealias F = ChildModeFixture

    @Test func eachStateHasOneKindInTheDocumentedOrder() {
        let empty = F.state(DayPlan(day: F.day, set: F.set(), items: []))
        #expect(empty.screenKind(at: F.t0) == .empty)
        // Empty wins over a start time still to come.
        #expect(F.state(DayPlan(day: F.day, set: F.set(start: "08:00"), items: [])).screenKind(at: F.t0) == .empty)

        let waiting = F.state(F.plan(start: "08:00"))
        #expect(waiting.screenKind(at: F.t0) == .waiting)
        #expect(waiting.screenKind(at: F.at(3600)) == .current, "08:00 has come")
        // Something done before the start: no longer waiting.
        #expect(F.state(F.plan(done: [F.r1: F.t0], start: "08:00")).screenKind(at: F.t0) == .current)

        var undo = F.state(F.plan(done: [F.r1: F.t0]))
        undo.undo = ChildModeState.UndoWindow(routineId: F.r1, logId: F.l1, completedAt: F.t0, deadline: F.at(5))
        #expect(undo.screenKind(at: F.t0) == .undo)

        let allDone = F.state(F.plan(done: [F.r1: F.t0, F.r2: F.t0, F.r3: F.t0]))
        #expect(allDone.screenKind(at: F.t0) == .allDone)
        // The last card is celebrated at once: its undo window is open on the all-done screen
        // (it used to show the undo screen, with a "next" to nothing, until the window closed).
        var lastUndo = allDone
        lastUndo.undo = ChildModeState.UndoWindow(routineId: F.r3, logId: F.l3, completedAt: F.t0, deadline: F.at(5))
        #expect(lastUndo.screenKind(at: F.t0) == .allDone)

        #expect(F.state().screenKind(at: F.t0) == .current)
    }
}
