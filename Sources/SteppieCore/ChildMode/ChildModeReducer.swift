import Foundation

/// Child mode as a pure function: (state, event) → (new state, effects). No I/O, no clock reads.
///
/// The rules (SPEC §3): only the current activity can be completed; a press while a save is in
/// flight, a double press or a press on another card does nothing; success feedback starts only
/// after the save succeeded, and a failed save is rolled back with an error cue; the undo window
/// opens after the save and returns the same row to `undone`; undo after the window or after the
/// local date changed is refused; the window's end or "next" advances and announces; all-done
/// after the last activity; reminders at each lead time before a scheduled time, never in quiet
/// hours.
///
/// The event log is derived here too: every step returns its log lines as `.log` effects, first the
/// lines of the step itself (`ChildModeLogEntry.transitions`), then each cue's line right after its
/// `play`, so a runtime executing the effects in order writes them in the order they happened.
public enum ChildModeReducer {
    public static func reduce(_ state: inout ChildModeState, _ event: ChildModeEvent) -> [ChildModeEffect] {
        let before = state
        let effects = step(&state, event)
        return ChildModeLogEntry.transitions(of: event, from: before, to: state).map(ChildModeEffect.log)
            + effects.flatMap { effect -> [ChildModeEffect] in
                guard case .play(let cue) = effect else { return [effect] }
                return [effect, .log(.played(cue))]
            }
    }

    /// The rules: the new state and the effects without the log.
    private static func step(_ state: inout ChildModeState, _ event: ChildModeEvent) -> [ChildModeEffect] {
        let now = event.now
        var effects: [ChildModeEffect] = []
        // A new local day comes first. A press that arrives with it was aimed at yesterday's
        // screen, so it is refused rather than applied to a card the child has not seen.
        if !event.carriesPlan, LocalDay(now, in: state.timeZone) != state.day {
            effects += rollOver(&state, now: now)
            if event.isChildAction {
                if case .undoPressed = event { state.notice = .undoRefused }
                state.lastSeen = max(state.lastSeen, now)
                return effects
            }
        }
        switch event {
        case .started:
            state.focus = state.plan.current?.routine.id
            effects += greet(state, now: now)
        case .pressed(let routineId, _):
            effects += press(&state, routineId: routineId, now: now)
        case .donePressed:
            if let current = state.plan.current?.routine.id, state.undo == nil {
                effects += press(&state, routineId: current, now: now)
            }
        case .undoPressed:
            effects += undo(&state, now: now)
        case .nextPressed:
            if state.saving == nil, state.undo != nil {
                effects.append(.cancelUndoTimer)
                effects += advance(&state)
            }
        case .undoWindowElapsed:
            if state.saving == nil, let undo = state.undo, now >= undo.deadline {
                effects += advance(&state)
            }
        case .tick:
            effects += tick(&state, now: now)
        case .planChanged(let plan, _):
            effects += replacePlan(&state, plan, now: now)
        case .profileChanged(let profile, _):
            // Takes effect from the next press or reminder; a running undo window keeps its end.
            state.undoDurationSeconds = profile.undoDurationSeconds
            state.leadTimes = profile.notificationLeadTimes
            state.quietStart = profile.quietHoursStart
            state.quietEnd = profile.quietHoursEnd
        case .completionSaved(let log, _):
            guard case .completion(let routineId, _)? = state.saving, routineId == log.routineId else { break }
            state.saving = nil
            state.notice = nil
            guard log.date == state.day, let completedAt = log.completedAt else {
                // Saved on a day that has since ended: say nothing about it, greet the new day.
                if state.focus == nil { state.focus = state.plan.current?.routine.id; effects += greet(state, now: now) }
                break
            }
            state.plan = state.plan.applying(log)
            let deadline = completedAt.addingTimeInterval(Double(state.undoDurationSeconds))
            state.undo = .init(routineId: routineId, logId: log.id, completedAt: completedAt, deadline: deadline)
            state.focus = routineId
            // The last one is celebrated at once; its undo window stays open on the all-done screen.
            effects += [.play(state.plan.isAllDone ? .allDone : .completed(routineId: routineId)), .startUndoTimer(fireAt: deadline)]
        case .completionFailed:
            guard case .completion? = state.saving else { break }
            state.saving = nil
            state.notice = .saveFailed
            effects.append(.play(.error))
        case .undoSaved(let log, _):
            guard case .undo(let routineId, _, _)? = state.saving, routineId == log.routineId else { break }
            state.saving = nil
            state.undo = nil
            state.notice = nil
            state.plan = state.plan.applying(log)
            state.focus = state.plan.current?.routine.id
            effects.append(.play(.undone(routineId: routineId)))
        case .undoFailed:
            guard case .undo? = state.saving else { break }
            state.saving = nil
            state.notice = .undoFailed
            effects.append(.play(.error))
            if let undo = state.undo {
                if now < undo.deadline { effects.append(.startUndoTimer(fireAt: undo.deadline)) } else { effects += advance(&state) }
            }
        }
        state.lastSeen = max(state.lastSeen, now)
        return effects
    }

    // MARK: Steps

    private static func press(_ state: inout ChildModeState, routineId: UUID, now: Date) -> [ChildModeEffect] {
        guard state.saving == nil, state.undo == nil, !state.isWaiting(at: now),
              let current = state.plan.current?.routine.id, current == routineId else { return [] }
        state.saving = .completion(routineId: routineId, at: now)
        state.notice = nil
        return [.persistCompletion(routineId: routineId, day: state.day, at: now)]
    }

    private static func undo(_ state: inout ChildModeState, now: Date) -> [ChildModeEffect] {
        guard state.saving == nil else { return [] }
        guard let undo = state.undo, now < undo.deadline else {
            state.notice = .undoRefused
            return []
        }
        state.saving = .undo(routineId: undo.routineId, logId: undo.logId, at: now)
        state.notice = nil
        return [.cancelUndoTimer, .persistUndo(logId: undo.logId, routineId: undo.routineId, day: state.day, at: now)]
    }

    /// Closes the undo window and announces what comes next. After the last activity the
    /// celebration already played with the completion, so the window just closes.
    private static func advance(_ state: inout ChildModeState) -> [ChildModeEffect] {
        state.undo = nil
        state.focus = state.plan.current?.routine.id
        return state.focus.map { [.play(.next(routineId: $0))] } ?? []
    }

    /// What child mode says when it opens or a new day's plan arrives.
    private static func greet(_ state: ChildModeState, now: Date) -> [ChildModeEffect] {
        if state.isWaiting(at: now), let start = state.plan.set?.startTime { return [.play(.setStartsAt(start))] }
        if let current = state.focus { return [.play(.announce(routineId: current))] }
        return state.plan.isAllDone ? [.play(.allDone)] : []
    }

    private static func rollOver(_ state: inout ChildModeState, now: Date) -> [ChildModeEffect] {
        let newDay = LocalDay(now, in: state.timeZone)
        var effects: [ChildModeEffect] = []
        if state.undo != nil { effects.append(.cancelUndoTimer) }
        state.undo = nil
        state.day = newDay
        state.plan = DayPlan(day: newDay, set: state.plan.set, items: state.plan.items.map { .init(routine: $0.routine, log: nil) })
        // Nothing is focused until the new day's plan arrives; then its first card is announced.
        state.focus = nil
        // Just before the new day's first instant, so a reminder due exactly at midnight is crossed.
        state.lastSeen = max(state.lastSeen, newDay.start(in: state.timeZone).addingTimeInterval(-0.001))
        effects.append(.reloadPlan(day: newDay))
        return effects
    }

    private static func tick(_ state: inout ChildModeState, now: Date) -> [ChildModeEffect] {
        var effects: [ChildModeEffect] = []
        if let start = state.plan.set?.startTime, state.plan.completedCount == 0 {
            let startsAt = state.day.instant(at: start, in: state.timeZone)
            if state.lastSeen < startsAt && now >= startsAt, let current = state.plan.current?.routine.id {
                state.focus = current
                effects.append(.play(.announce(routineId: current)))
            }
        }
        effects += Reminders.due(in: state, from: state.lastSeen, to: now).map { .play(.reminder(routineId: $0.routineId, minutes: $0.minutes)) }
        return effects
    }

    private static func replacePlan(_ state: inout ChildModeState, _ plan: DayPlan, now: Date) -> [ChildModeEffect] {
        guard plan.day == LocalDay(now, in: state.timeZone) else { return [] }
        let dayChanged = plan.day != state.day
        let before = state.focus
        let hadWindow = state.undo != nil
        state.day = plan.day
        state.plan = plan
        if dayChanged { state.undo = nil }
        if let undo = state.undo, plan.item(undo.routineId)?.isCompleted != true {
            // The completed card vanished or was undone elsewhere: close the window.
            state.undo = nil
        }
        if state.undo == nil { state.focus = plan.current?.routine.id }
        if dayChanged { return greet(state, now: now) }
        // Announce when the card changed, or when the completed card went back to "not done".
        guard state.undo == nil, state.saving == nil, state.focus != before || hadWindow else { return [] }
        if let focus = state.focus { return [.play(.announce(routineId: focus))] }
        return plan.isAllDone ? [.play(.allDone)] : []
    }
}
