/// A child's month as a report for a therapist or a teacher, by the statistics' own rules
/// (`ChildStatistics`, StackDay's): the month's days only for the counts, the rates and the
/// longest streaks, and everything up to the month's last judged day for the streaks still
/// running then (a run that began in the month before is counted whole). Pure; the pages
/// decide how to print it.
public struct MonthReport: Hashable, Sendable {
    public let month: YearMonth
    /// The last day judged: the month's last day, or the reference day when it is in the month;
    /// nil when the month is after the reference day (nothing to judge yet).
    public let through: LocalDay?
    /// The month's days only: done and scheduled days, rates, the longest streaks in the month.
    public let inMonth: ChildStatistics
    /// Every day up to `through`: the streaks running on that day.
    public let atEnd: ChildStatistics

    /// The report of `month` from the child's tracked routines (with their completion days up to
    /// the month's end at least), as seen on `reference` (normally today).
    public init(month: YearMonth, routines: [TrackedRoutine], reference: LocalDay) {
        self.month = month
        let through = month.firstDay <= reference ? min(month.lastDay, reference) : nil
        self.through = through
        guard let through else {
            inMonth = ChildStatistics(routines: [], reference: reference)
            atEnd = inMonth
            return
        }
        inMonth = ChildStatistics(routines: routines.map { $0.clipped(to: month.firstDay...through) }, reference: through)
        atEnd = ChildStatistics(routines: routines, reference: through)
    }

    /// Whether `routine` was part of the child's days in the month (a day scheduled or a day done).
    public func covers(_ routine: TrackedRoutine.ID) -> Bool {
        guard let s = inMonth.perRoutine[routine] else { return false }
        return s.eligibleDays > 0 || s.completedDays > 0
    }
}

extension TrackedRoutine {
    /// The same routine tracked only within `days`: what the statistics count of that window
    /// (a start or end outside it moves to its edge; completions outside it are left out).
    public func clipped(to days: ClosedRange<LocalDay>) -> TrackedRoutine {
        let end = Swift.min(self.end ?? days.upperBound, days.upperBound)
        return TrackedRoutine(id: id, start: Swift.max(start, days.lowerBound), end: end,
                              completionDays: completionDays.filter { days.contains($0) }, countsForChild: countsForChild,
                              absences: absences)
    }
}
