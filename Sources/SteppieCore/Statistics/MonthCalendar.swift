/// A child's month as a heatmap model: for each day, how many counted routines were done out of
/// how many were tracked. Pure; the CLI decides how to draw it.
public struct MonthCalendar: Hashable, Sendable {
    /// One cell of the heatmap.
    public struct Day: Hashable, Sendable {
        public let day: LocalDay
        /// Counted routines completed on the day.
        public let completed: Int
        /// Counted routines tracked on the day (0 before any start, after every end, or in the future).
        public let total: Int
        /// True for days after the reference day (nothing can be judged yet).
        public let isFuture: Bool
        /// True for the reference day itself.
        public let isReference: Bool

        /// `completed / total`, nil when nothing was tracked (draw as empty, not as 0 %).
        public var ratio: Double? { total > 0 ? Double(completed) / Double(total) : nil }

        /// The child day's outcome, nil when nothing was tracked or the day is in the future.
        public var outcome: EntryState? {
            guard total > 0, !isFuture else { return nil }
            if completed == total { return .completed }
            return isReference ? .pending : .missed
        }
    }

    public let month: YearMonth
    /// Every day of the month, first to last.
    public let days: [Day]

    /// Builds the month from the child's tracked routines (only those with `countsForChild`).
    /// Routines need only carry their completion days of this month.
    public init(month: YearMonth, routines: [TrackedRoutine], reference: LocalDay) {
        self.month = month
        let counted = routines.filter(\.countsForChild)
        days = month.days.map { day in
            guard day <= reference else {
                return Day(day: day, completed: 0, total: 0, isFuture: true, isReference: false)
            }
            let tracked = counted.filter { $0.isTracked(on: day, reference: reference) }
            let done = tracked.count { $0.completionDays.contains(day) }
            return Day(day: day, completed: done, total: tracked.count, isFuture: false, isReference: day == reference)
        }
    }
}
