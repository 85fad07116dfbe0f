import SteppieCore

/// A child's month for a printed report: the statistics (`MonthReport`), the routines it lists
/// and the guardian's corrections of the month's days, with when each was made.
public struct ChildMonthReport: Equatable, Sendable {
    public let report: MonthReport
    /// Every routine of the child (soft-deleted ones and other sets' too), in set and card order:
    /// the titles of the routines the corrections name.
    public let histories: [RoutineHistory]
    /// The corrections of the month's days, oldest change first.
    public let corrections: [LogCorrection]

    public init(report: MonthReport, histories: [RoutineHistory], corrections: [LogCorrection]) {
        self.report = report
        self.histories = histories
        self.corrections = corrections
    }

    /// The routines the report lists, in card order: those counted for the child (as the history
    /// page's statistics) that were part of a day of the month.
    public var routines: [RoutineHistory] {
        histories.filter { $0.tracked.countsForChild && report.covers($0.tracked.id) }
    }
}
