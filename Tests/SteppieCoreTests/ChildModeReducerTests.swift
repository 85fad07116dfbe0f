import Foundation
import Testing
@testable import SteppieCore

/// Every transition of child mode, valid and invalid: the whole new state and the whole effect list.
@Suite struct ChildModeReducerTests {
    typealias F = ChildModeFixture

    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let given: @Sendable () -> ChildModeState
        let event: ChildModeEvent
        /// Changes from the given state (lastSeen advances to the event's time automatically).
        let expect: @Sendable (inout ChildModeState) -> Void
        let effects: [ChildModeEffect]
        var description: String { name }
    }

    static let windowOn1: ChildModeState.UndoWindow = .init(routineId: F.r1, logId: F.l1, completedAt: F.at(0), deadline: F.at(5))
    static func afterCompletingR1() -> ChildModeState {
        var s = F.state(F.plan(done: [F.r1: F.at(0)]))
        s.undo = windowOn1
        s.focus = F.r1
        return s
    }
    static func savingR1() -> ChildModeState {
        var s = F.state()
        s.saving = .completion(routineId: F.r1, at: F.at(0))
        return s
    }
    static func undoingR1() -> ChildModeState {
        var s = afterCompletingR1()
        s.saving = .undo(routineId: F.r1, logId: F.l1, at: F.at(2))
        return s
    }
    static let everyDone: [UUID: Date] = [F.r1: F.at(-20), F.r2: F.at(-10), F.r3: F.at(0)]

    /// An event-log line of the step itself (these come before the step's other effects).
    static func line(_ kind: ChildModeLogEntry.Kind, _ routineId: UUID? = nil) -> ChildModeEffect {
        .log(ChildModeLogEntry(kind, routineId: routineId))
    }
    /// The event-log line of a cue, right after its `play`.
    static func cue(_ name: String, _ routineId: UUID? = nil, minutes: Int? = nil) -> ChildModeEffect {
        .log(ChildModeLogEntry(.cue, routineId: routineId, cue: name, minutes: minutes))
    }

    static let cases: [Case] = [
        // Opening
        Case(name: "start announces the current activity", given: { var s = F.state(); s.focus = nil; return s }, event: .started(now: F.at(0)),
             expect: { $0.focus = F.r1 }, effects: [line(.focus, F.r1), .play(.announce(routineId: F.r1)), cue("announce", F.r1)]),
        Case(name: "start before the set's start time says when it starts", given: { var s = F.state(F.plan(start: "08:00")); s.focus = nil; return s },
             event: .started(now: F.at(0)), expect: { $0.focus = F.r1 }, effects: [line(.focus, F.r1), .play(.setStartsAt(LocalTime("08:00") ?? LocalTime(hour: 8, minute: 0)!)), cue("setStartsAt")]),
        Case(name: "start when everything is done celebrates", given: { var s = F.state(F.plan(done: everyDone)); s.focus = nil; return s },
             event: .started(now: F.at(1)), expect: { _ in }, effects: [.play(.allDone), cue("allDone")]),
        Case(name: "start with no routines is silent",
             given: { F.state(DayPlan(day: F.day, set: F.set(), items: [])) }, event: .started(now: F.at(0)), expect: { _ in }, effects: []),

        // Presses
        Case(name: "press on the current card saves first", given: { F.state() }, event: .pressed(routineId: F.r1, now: F.at(0)),
             expect: { $0.saving = .completion(routineId: F.r1, at: F.at(0)) }, effects: [.persistCompletion(routineId: F.r1, day: F.day, at: F.at(0))]),
        Case(name: "done means the current card", given: { F.state() }, event: .donePressed(now: F.at(0)),
             expect: { $0.saving = .completion(routineId: F.r1, at: F.at(0)) }, effects: [.persistCompletion(routineId: F.r1, day: F.day, at: F.at(0))]),
        Case(name: "press on another card does nothing", given: { F.state() }, event: .pressed(routineId: F.r3, now: F.at(0)),
             expect: { _ in }, effects: []),
        Case(name: "press while a save is in flight does nothing", given: { savingR1() }, event: .pressed(routineId: F.r1, now: F.at(0.1)),
             expect: { _ in }, effects: []),
        Case(name: "done while a save is in flight does nothing", given: { savingR1() }, event: .donePressed(now: F.at(0.1)),
             expect: { _ in }, effects: []),
        Case(name: "double press in the undo window does nothing", given: { afterCompletingR1() }, event: .pressed(routineId: F.r1, now: F.at(1)),
             expect: { _ in }, effects: []),
        Case(name: "press on the next card in the undo window does nothing", given: { afterCompletingR1() }, event: .pressed(routineId: F.r2, now: F.at(1)),
             expect: { _ in }, effects: []),
        Case(name: "press before the start time does nothing", given: { F.state(F.plan(start: "08:00")) }, event: .pressed(routineId: F.r1, now: F.at(0)),
             expect: { _ in }, effects: []),

        // Save results
        Case(name: "saved completion plays the cue and opens the undo window", given: { savingR1() },
             event: .completionSaved(F.log(F.l1, F.r1, completedAt: F.at(0)), now: F.at(0.01)),
             expect: { $0.saving = nil; $0.plan = F.plan(done: [F.r1: F.at(0)]); $0.undo = windowOn1; $0.focus = F.r1 },
             effects: [line(.completed, F.r1), .play(.completed(routineId: F.r1)), cue("completed", F.r1), .startUndoTimer(fireAt: F.at(5))]),
        Case(name: "saving the last one celebrates at once and keeps the window", given: {
                var s = F.state(F.plan(done: [F.r1: F.at(-20), F.r2: F.at(-10)])); s.saving = .completion(routineId: F.r3, at: F.at(0)); return s },
             event: .completionSaved(F.log(F.l3, F.r3, completedAt: F.at(0)), now: F.at(0.01)),
             expect: { $0.saving = nil; $0.plan = F.plan(done: everyDone); $0.focus = F.r3
                 $0.undo = .init(routineId: F.r3, logId: F.l3, completedAt: F.at(0), deadline: F.at(5)) },
             // The save result is its own line only: no `allDone` line (the `allDone` cue's line says it).
             effects: [line(.completed, F.r3), .play(.allDone), cue("allDone"), .startUndoTimer(fireAt: F.at(5))]),
        Case(name: "failed save rolls back and claims nothing", given: { savingR1() }, event: .completionFailed(now: F.at(0.01)),
             expect: { $0.saving = nil; $0.notice = .saveFailed }, effects: [line(.saveFailed, F.r1), .play(.error), cue("error")]),
        Case(name: "a save result for another routine is ignored", given: { savingR1() },
             event: .completionSaved(F.log(F.l3, F.r3, completedAt: F.at(0)), now: F.at(0.01)), expect: { _ in }, effects: []),
        Case(name: "a failure with nothing in flight is ignored", given: { F.state() }, event: .completionFailed(now: F.at(0.01)),
             expect: { _ in }, effects: []),

        // Undo
        Case(name: "undo inside the window saves the same row", given: { afterCompletingR1() }, event: .undoPressed(now: F.at(2)),
             expect: { $0.saving = .undo(routineId: F.r1, logId: F.l1, at: F.at(2)) },
             effects: [.cancelUndoTimer, .persistUndo(logId: F.l1, routineId: F.r1, day: F.day, at: F.at(2))]),
        Case(name: "undo at the deadline is refused", given: { afterCompletingR1() }, event: .undoPressed(now: F.at(5)),
             expect: { $0.notice = .undoRefused }, effects: [line(.undoRefused, F.r1)]),
        Case(name: "undo with no window is refused", given: { F.state(F.plan(done: [F.r1: F.at(-60)])) }, event: .undoPressed(now: F.at(0)),
             expect: { $0.notice = .undoRefused }, effects: [line(.undoRefused, F.r2)]),
        Case(name: "a second refused undo in a row is logged again", given: { var s = F.state(F.plan(done: [F.r1: F.at(-60)])); s.notice = .undoRefused; return s },
             event: .undoPressed(now: F.at(1)), expect: { _ in }, effects: [line(.undoRefused, F.r2)]),
        Case(name: "undo while saving does nothing", given: { undoingR1() }, event: .undoPressed(now: F.at(2.1)), expect: { _ in }, effects: []),
        Case(name: "saved undo refocuses and speaks the title", given: { undoingR1() },
             event: .undoSaved(F.log(F.l1, F.r1, completedAt: nil), now: F.at(2.01)),
             expect: { $0.saving = nil; $0.undo = nil; $0.plan = F.plan().applying(F.log(F.l1, F.r1, completedAt: nil)); $0.focus = F.r1 },
             effects: [line(.undone, F.r1), .play(.undone(routineId: F.r1)), cue("undone", F.r1)]),
        Case(name: "failed undo keeps the completion and its window", given: { undoingR1() }, event: .undoFailed(now: F.at(2.01)),
             expect: { $0.saving = nil; $0.notice = .undoFailed }, effects: [line(.undoFailed, F.r1), .play(.error), cue("error"), .startUndoTimer(fireAt: F.at(5))]),
        Case(name: "failed undo after the deadline advances", given: { undoingR1() }, event: .undoFailed(now: F.at(6)),
             expect: { $0.saving = nil; $0.notice = .undoFailed; $0.undo = nil; $0.focus = F.r2 },
             // The save result's line names the focus after the step: the next card.
             effects: [line(.undoFailed, F.r2), .play(.error), cue("error"), .play(.next(routineId: F.r2)), cue("next", F.r2)]),
        Case(name: "undo of the last one from all-done goes back to it", given: {
                var s = F.state(F.plan(done: everyDone)); s.focus = F.r3
                s.undo = .init(routineId: F.r3, logId: F.l3, completedAt: F.at(0), deadline: F.at(5)); return s },
             event: .undoPressed(now: F.at(1)), expect: { $0.saving = .undo(routineId: F.r3, logId: F.l3, at: F.at(1)) },
             effects: [.cancelUndoTimer, .persistUndo(logId: F.l3, routineId: F.r3, day: F.day, at: F.at(1))]),

        // Advancing
        Case(name: "next in the window advances at once", given: { afterCompletingR1() }, event: .nextPressed(now: F.at(1)),
             expect: { $0.undo = nil; $0.focus = F.r2 }, effects: [line(.focus, F.r2), .cancelUndoTimer, .play(.next(routineId: F.r2)), cue("next", F.r2)]),
        Case(name: "next without a window does nothing", given: { F.state() }, event: .nextPressed(now: F.at(1)), expect: { _ in }, effects: []),
        Case(name: "next while an undo is saving does nothing", given: { undoingR1() }, event: .nextPressed(now: F.at(2.1)), expect: { _ in }, effects: []),
        Case(name: "window end announces the next activity", given: { afterCompletingR1() }, event: .undoWindowElapsed(now: F.at(5)),
             expect: { $0.undo = nil; $0.focus = F.r2 }, effects: [line(.focus, F.r2), .play(.next(routineId: F.r2)), cue("next", F.r2)]),
        Case(name: "an early timer is ignored", given: { afterCompletingR1() }, event: .undoWindowElapsed(now: F.at(4)), expect: { _ in }, effects: []),
        Case(name: "window end after the last one closes quietly", given: {
                var s = F.state(F.plan(done: everyDone)); s.focus = F.r3
                s.undo = .init(routineId: F.r3, logId: F.l3, completedAt: F.at(0), deadline: F.at(5)); return s },
             event: .undoWindowElapsed(now: F.at(5)), expect: { $0.undo = nil; $0.focus = nil }, effects: []),

        // Days, reminders, start time
        Case(name: "midnight closes the window and reloads the new day", given: {
                var s = afterCompletingR1(); s.lastSeen = F.at(0); return s },
             event: .tick(now: Timestamp.parse("2026-03-03T00:00:01+09:00") ?? F.t0),
             expect: { $0.undo = nil; $0.day = F.day.adding(days: 1); $0.plan = F.plan(day: F.day.adding(days: 1)); $0.focus = nil },
             // Nothing is focused until the new day's plan arrives: a new day, no focus line.
             effects: [line(.dayChanged), .cancelUndoTimer, .reloadPlan(day: F.day.adding(days: 1))]),
        Case(name: "a press that arrives after midnight is refused", given: { F.state(F.plan(done: [F.r1: F.at(-60)])) },
             event: .pressed(routineId: F.r2, now: Timestamp.parse("2026-03-03T00:00:01+09:00") ?? F.t0),
             expect: { $0.day = F.day.adding(days: 1); $0.plan = F.plan(day: F.day.adding(days: 1)); $0.focus = nil },
             effects: [line(.dayChanged), .reloadPlan(day: F.day.adding(days: 1))]),
        Case(name: "undo after the date changed is refused", given: { afterCompletingR1() },
             event: .undoPressed(now: Timestamp.parse("2026-03-03T00:00:01+09:00") ?? F.t0),
             expect: { $0.undo = nil; $0.day = F.day.adding(days: 1); $0.plan = F.plan(day: F.day.adding(days: 1)); $0.focus = nil; $0.notice = .undoRefused },
             effects: [line(.undoRefused), line(.dayChanged), .cancelUndoTimer, .reloadPlan(day: F.day.adding(days: 1))]),
        Case(name: "the new day's plan is announced", given: { var s = F.state(F.plan(day: F.day.adding(days: 1))); s.day = F.day.adding(days: 1); s.focus = nil; return s },
             event: .planChanged(F.plan(day: F.day.adding(days: 1)), now: Timestamp.parse("2026-03-03T00:00:02+09:00") ?? F.t0),
             expect: { $0.focus = F.r1 }, effects: [line(.focus, F.r1), .play(.announce(routineId: F.r1)), cue("announce", F.r1)]),
        Case(name: "the same plan again is not a plan change", given: { F.state() }, event: .planChanged(F.plan(), now: F.at(1)),
             expect: { _ in }, effects: []),
        Case(name: "a plan for another day is ignored", given: { F.state() }, event: .planChanged(F.plan(day: F.day.adding(days: -1)), now: F.at(1)),
             expect: { _ in }, effects: []),
        Case(name: "an edit that changes the current card announces it", given: { F.state() },
             event: .planChanged(F.plan(done: [F.r1: F.at(-5)]), now: F.at(1)),
             expect: { $0.plan = F.plan(done: [F.r1: F.at(-5)]); $0.focus = F.r2 }, effects: [line(.planChanged, F.r2), line(.focus, F.r2), .play(.announce(routineId: F.r2)), cue("announce", F.r2)]),
        Case(name: "an edit that keeps the current card is silent", given: { F.state() },
             event: .planChanged(F.plan(times: [F.r3: "09:00"]), now: F.at(1)),
             expect: { $0.plan = F.plan(times: [F.r3: "09:00"]) }, effects: [line(.planChanged, F.r1)]),
        Case(name: "an undo elsewhere closes the window", given: { afterCompletingR1() }, event: .planChanged(F.plan(), now: F.at(1)),
             expect: { $0.plan = F.plan(); $0.undo = nil; $0.focus = F.r1 }, effects: [line(.planChanged, F.r1), .play(.announce(routineId: F.r1)), cue("announce", F.r1)]),
        Case(name: "an edit that empties the plan says so and focuses nothing", given: { F.state() },
             event: .planChanged(DayPlan(day: F.day, set: F.set(), items: []), now: F.at(1)),
             expect: { $0.plan = DayPlan(day: F.day, set: F.set(), items: []); $0.focus = nil }, effects: [line(.planChanged)]),
        Case(name: "a reminder at each lead time", given: { F.state(F.plan(times: [F.r2: "07:11"])) }, event: .tick(now: F.at(60)),
             expect: { _ in }, effects: [.play(.reminder(routineId: F.r2, minutes: 10)), cue("reminder", F.r2, minutes: 10)]),
        Case(name: "the second lead time", given: { var s = F.state(F.plan(times: [F.r2: "07:10"])); s.lastSeen = F.at(299); return s },
             event: .tick(now: F.at(300)), expect: { _ in }, effects: [.play(.reminder(routineId: F.r2, minutes: 5)), cue("reminder", F.r2, minutes: 5)]),
        Case(name: "no reminder inside quiet hours", given: {
                var p = FeedbackProfile(); p.quietHoursStart = LocalTime("21:00"); p.quietHoursEnd = LocalTime("07:05")
                return F.state(F.plan(times: [F.r2: "07:11"]), profile: p) },
             event: .tick(now: F.at(60)), expect: { _ in }, effects: []),
        Case(name: "no reminder for a completed routine", given: { F.state(F.plan(done: [F.r1: F.at(-9), F.r2: F.at(-5)], times: [F.r2: "07:11"])) },
             event: .tick(now: F.at(60)), expect: { _ in }, effects: []),
        Case(name: "crossing the start time announces the first activity", given: {
                var s = F.state(F.plan(start: "07:00")); s.lastSeen = F.at(-1); return s },
             event: .tick(now: F.at(0)), expect: { _ in }, effects: [.play(.announce(routineId: F.r1)), cue("announce", F.r1)]),
        Case(name: "a completion saved after midnight belongs to yesterday and is not claimed", given: {
                var s = F.state(F.plan(day: F.day.adding(days: 1))); s.day = F.day.adding(days: 1); s.focus = nil
                s.saving = .completion(routineId: F.r1, at: F.at(0)); return s },
             event: .completionSaved(F.log(F.l1, F.r1, completedAt: F.at(0)), now: Timestamp.parse("2026-03-03T00:00:01+09:00") ?? F.t0),
             expect: { $0.saving = nil; $0.focus = F.r1 }, effects: [line(.completed, F.r1), .play(.announce(routineId: F.r1)), cue("announce", F.r1)]),
        Case(name: "the reloaded plan after midnight announces the first card", given: {
                var s = F.state(F.plan(day: F.day.adding(days: 1))); s.day = F.day.adding(days: 1); s.focus = nil; return s },
             event: .planChanged(F.plan(day: F.day.adding(days: 1)), now: Timestamp.parse("2026-03-03T00:00:01+09:00") ?? F.t0),
             expect: { $0.focus = F.r1 }, effects: [line(.focus, F.r1), .play(.announce(routineId: F.r1)), cue("announce", F.r1)]),
    ]

    @Test(arguments: cases)
    func transition(_ c: Case) {
        var state = c.given()
        var expected = state
        expected.lastSeen = max(expected.lastSeen, c.event.now)
        c.expect(&expected)
        let effects = ChildModeReducer.reduce(&state, c.event)
        #expect(effects == c.effects)
        #expect(state == expected)
    }

    /// The step's own lines, in the order the runtime wrote them before they came from the reducer:
    /// new day, new focus (only with its card), all done. No consistent step through `reduce` is
    /// told `allDone` (the completion that ends the day is told as `completed`, with the `allDone`
    /// cue), so that line is checked on the derivation itself.
    @Test func aStepIsToldNewDayThenFocusThenAllDone() {
        let before = F.state()
        var after = F.state(F.plan(done: Self.everyDone, day: F.day.adding(days: 1)))
        after.day = F.day.adding(days: 1)
        after.focus = F.r2
        #expect(ChildModeLogEntry.transitions(of: .tick(now: F.at(1)), from: before, to: after)
                == [.init(.dayChanged, routineId: F.r2), .init(.focus, routineId: F.r2), .init(.allDone)])
        // A focus whose card is not in the plan is not told; all done is told once, when it begins.
        var gone = after
        gone.focus = UUID(uuidString: "00000000-0000-4000-8000-0000000000ff")
        #expect(ChildModeLogEntry.transitions(of: .tick(now: F.at(1)), from: after, to: gone) == [])
        #expect(ChildModeLogEntry.transitions(of: .tick(now: F.at(1)), from: before, to: gone)
                == [.init(.dayChanged, routineId: gone.focus), .init(.allDone)])
    }

    /// Every cue's line names it as the docs' table does, with its routine and a reminder's minutes.
    @Test func everyCueHasItsLine() {
        let start = LocalTime("08:00") ?? LocalTime(hour: 8, minute: 0)!
        let lines: [(ChildCue, ChildModeLogEntry)] = [
            (.announce(routineId: F.r1), .init(.cue, routineId: F.r1, cue: "announce")),
            (.completed(routineId: F.r1), .init(.cue, routineId: F.r1, cue: "completed")),
            (.undone(routineId: F.r2), .init(.cue, routineId: F.r2, cue: "undone")),
            (.next(routineId: F.r3), .init(.cue, routineId: F.r3, cue: "next")),
            (.allDone, .init(.cue, cue: "allDone")),
            (.reminder(routineId: F.r2, minutes: 10), .init(.cue, routineId: F.r2, cue: "reminder", minutes: 10)),
            (.setStartsAt(start), .init(.cue, cue: "setStartsAt")),
            (.error, .init(.cue, cue: "error")),
        ]
        for (cue, line) in lines { #expect(ChildModeLogEntry.played(cue) == line, "\(cue)") }
    }
}
