/// One routine's month: for each day, its entry state (StackDay's rules) or why it has none.
/// Pure; the command line and the guardian pages decide how to draw it.
public struct RoutineMonth: Hashable, Sendable {
    /// One day of the routine's month.
    public struct Day: Hashable, Sendable {
        public let day: LocalDay
        /// Completed, pending (the reference day) or missed; nil when the day is not tracked.
        public let state: EntryState?
        /// The routine was deleted the whole day and later restored (not tracked, not missed).
        public let isAbsent: Bool
        /// After the reference day.
        public let isFuture: Bool
    }

    public let month: YearMonth
    public let routine: TrackedRoutine
    /// Every day of the month, first to last.
    public let days: [Day]

    public init(month: YearMonth, routine: TrackedRoutine, reference: LocalDay) {
        self.month = month
        self.routine = routine
        days = month.days.map { day in
            Day(day: day, state: StatisticsCalculator.entryState(of: routine, on: day, reference: reference),
                isAbsent: day >= routine.start && day <= routine.finalDay(reference: reference) && routine.isAbsent(on: day),
                isFuture: day > reference)
        }
    }

    /// Days of the month with a completion.
    public var completedDays: Int { days.count { $0.state == .completed } }
    /// Days of the month that were tracked and are over or today (completed, pending or missed).
    public var trackedDays: Int { days.count { $0.state != nil } }
}
