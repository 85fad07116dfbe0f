import Foundation

/// What happened, as seen by child mode. Every event carries the instant it happened at.
public enum ChildModeEvent: Equatable, Sendable {
    /// Child mode opened with the day's plan from the database.
    case started(now: Date)
    /// The child pressed an activity card ("done").
    case pressed(routineId: UUID, now: Date)
    /// The child pressed "done" on whatever card is current.
    case donePressed(now: Date)
    case undoPressed(now: Date)
    case nextPressed(now: Date)
    /// The undo timer fired.
    case undoWindowElapsed(now: Date)
    /// The clock moved on (about once a second).
    case tick(now: Date)
    /// The database changed (another process, a reload after a new day): here is the plan now.
    case planChanged(DayPlan, now: Date)
    case completionSaved(DailyLog, now: Date)
    case completionFailed(now: Date)
    case undoSaved(DailyLog, now: Date)
    case undoFailed(now: Date)
    /// A guardian changed the child's feedback profile (undo window, reminders, quiet hours).
    case profileChanged(FeedbackProfile, now: Date)

    /// The child pressed something.
    public var isChildAction: Bool {
        switch self {
        case .pressed, .donePressed, .undoPressed, .nextPressed: true
        default: false
        }
    }

    var carriesPlan: Bool {
        switch self {
        case .planChanged, .profileChanged: true
        default: false
        }
    }

    public var now: Date {
        switch self {
        case .started(let n), .pressed(_, let n), .donePressed(let n), .undoPressed(let n), .nextPressed(let n),
             .undoWindowElapsed(let n), .tick(let n), .planChanged(_, let n), .completionSaved(_, let n),
             .completionFailed(let n), .undoSaved(_, let n), .undoFailed(let n), .profileChanged(_, let n):
            return n
        }
    }
}

/// Feedback child mode asks for; the runtime turns it into a cue of the feedback engine.
public enum ChildCue: Equatable, Sendable {
    case announce(routineId: UUID)
    case completed(routineId: UUID)
    case undone(routineId: UUID)
    case next(routineId: UUID)
    case allDone
    case reminder(routineId: UUID, minutes: Int)
    case setStartsAt(LocalTime)
    case error
}

/// What child mode wants done, as data. The runtime executes effects; the reducer never does I/O.
public enum ChildModeEffect: Equatable, Sendable {
    case persistCompletion(routineId: UUID, day: LocalDay, at: Date)
    case persistUndo(logId: UUID, routineId: UUID, day: LocalDay, at: Date)
    case play(ChildCue)
    case startUndoTimer(fireAt: Date)
    case cancelUndoTimer
    /// Load the plan of `day` and send it back as `planChanged`.
    case reloadPlan(day: LocalDay)
    /// Write one line of the event log (when there is one), after the effects before it ran.
    case log(ChildModeLogEntry)
}
