import Foundation
import SteppieCore

/// One routine on one local day as a guardian reviews it: done, or not done (missed, or still
/// pending today), with the correction a guardian last made to it.
public struct DayEntry: Equatable, Sendable {
    public let routine: Routine
    /// The set the routine belongs to.
    public let set: RoutineSet
    /// The day's log row, if any (an `undone` row is not done).
    public let log: DailyLog?
    /// `completed`, `pending` (today, not yet) or `missed`.
    public let state: EntryState
    /// Whether the entry counts for the child's day (a routine of the active set, not deactivated);
    /// completions of other routines are listed too but not counted.
    public let countsForChild: Bool
    /// The most recent guardian correction of this day's entry, if any.
    public let correction: LogCorrection?

    public init(routine: Routine, set: RoutineSet, log: DailyLog?, state: EntryState, countsForChild: Bool,
                correction: LogCorrection?) {
        self.routine = routine
        self.set = set
        self.log = log
        self.state = state
        self.countsForChild = countsForChild
        self.correction = correction
    }
}

/// A change a guardian made to one routine's entry on one past day (`history set`).
public struct LogCorrection: Equatable, Sendable, Identifiable {
    public let id: UUID
    public let date: LocalDay
    public let routineId: UUID
    /// The state set: done (completed) or not done.
    public let done: Bool
    /// The log's status before the change; nil when the day had no log.
    public let previousStatus: LogStatus?
    /// When the change was made.
    public let madeAt: Date

    public init(id: UUID, date: LocalDay, routineId: UUID, done: Bool, previousStatus: LogStatus?, madeAt: Date) {
        self.id = id
        self.date = date
        self.routineId = routineId
        self.done = done
        self.previousStatus = previousStatus
        self.madeAt = madeAt
    }
}

/// What `Store.setDayEntry` did.
public enum DayEntryChange: Equatable, Sendable {
    /// The entry was already in that state: nothing was written or recorded.
    case unchanged
    /// The log was written and the correction recorded.
    case changed(LogCorrection)
}
