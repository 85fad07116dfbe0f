import Foundation

/// One line of child mode's event log (docs/child-mode.md, "For other front ends"), as data. The
/// reducer returns it as `ChildModeEffect.log`; the runtime writes it, adding the time, the day and
/// the progress from the state, and the routine's id and title from the plan.
public struct ChildModeLogEntry: Equatable, Sendable {
    /// The `type` of a line; `ServiceWireTests` checks docs/child-mode.md's table against it.
    public enum Kind: String, Codable, CaseIterable, Sendable {
        case completed, saveFailed, undone, undoFailed, undoRefused, planChanged, focus, dayChanged, allDone, cue
    }

    public var kind: Kind
    /// The routine the line is about (looked up in the plan when written), or nil.
    public var routineId: UUID?
    /// For `cue`: the cue's name (`ChildCue.name`).
    public var cue: String?
    /// For a reminder cue: its lead time.
    public var minutes: Int?

    public init(_ kind: Kind, routineId: UUID? = nil, cue: String? = nil, minutes: Int? = nil) {
        self.kind = kind
        self.routineId = routineId
        self.cue = cue
        self.minutes = minutes
    }

    /// The line of a cue that played.
    public static func played(_ cue: ChildCue) -> ChildModeLogEntry {
        switch cue {
        case .announce(let id), .completed(let id), .undone(let id), .next(let id):
            ChildModeLogEntry(.cue, routineId: id, cue: cue.name)
        case .reminder(let id, let minutes):
            ChildModeLogEntry(.cue, routineId: id, cue: cue.name, minutes: minutes)
        case .allDone, .error, .setStartsAt:
            ChildModeLogEntry(.cue, cue: cue.name)
        }
    }

    /// The lines one event's step from `before` to `after` is told by, in order (the cues' lines
    /// follow their `play` effects instead).
    ///
    /// A save result is told by its own line only. Every refused undo press is told, the second in
    /// a row too (the notice was already showing). A changed plan is told once, with the new focus.
    /// Otherwise: a new day, a new focus, all done. A focus is told only with its card: at midnight
    /// nothing is focused until the new day's plan arrives, and then its first card is the focus.
    static func transitions(of event: ChildModeEvent, from before: ChildModeState, to after: ChildModeState) -> [ChildModeLogEntry] {
        let focus = after.focus
        // The new focus, when it changed and its card is in the plan.
        var newFocus: [ChildModeLogEntry] {
            guard after.focus != before.focus, let focus, after.plan.item(focus) != nil else { return [] }
            return [ChildModeLogEntry(.focus, routineId: focus)]
        }
        var changes: [ChildModeLogEntry] {
            (after.day != before.day ? [ChildModeLogEntry(.dayChanged, routineId: focus)] : []) + newFocus
                + (after.isAllDone && !before.isAllDone ? [ChildModeLogEntry(.allDone)] : [])
        }
        switch event {
        case .completionSaved where before.saving != nil && after.saving == nil:
            return [ChildModeLogEntry(.completed, routineId: before.saving?.routineId)]
        case .completionFailed where before.saving != nil:
            return [ChildModeLogEntry(.saveFailed, routineId: before.saving?.routineId)]
        case .undoSaved where before.saving != nil:
            return [ChildModeLogEntry(.undone, routineId: focus)]
        case .undoFailed where before.saving != nil:
            return [ChildModeLogEntry(.undoFailed, routineId: focus)]
        case .undoPressed:
            let refused = before.saving == nil && after.saving == nil && after.notice == .undoRefused
            return (refused ? [ChildModeLogEntry(.undoRefused, routineId: focus)] : []) + changes
        case .planChanged where after.plan != before.plan:
            return [ChildModeLogEntry(.planChanged, routineId: focus)] + newFocus
        default:
            return changes
        }
    }
}

extension ChildCue {
    /// The cue's name in the event log.
    public var name: String {
        switch self {
        case .announce: "announce"
        case .completed: "completed"
        case .undone: "undone"
        case .next: "next"
        case .allDone: "allDone"
        case .reminder: "reminder"
        case .setStartsAt: "setStartsAt"
        case .error: "error"
        }
    }
}
