/// The dates of a current and a longest streak (StackDay's rules, see `StatisticsCalculator`):
/// the first and the last completed day of each run; nil when the streak is 0.
public struct StreakSpans: Hashable, Sendable {
    /// The run counted by `currentStreak`, back from the final day.
    public let current: ClosedRange<LocalDay>?
    /// The run counted by `longestStreak`; of several equally long runs, the most recent.
    public let longest: ClosedRange<LocalDay>?

    public init(current: ClosedRange<LocalDay>?, longest: ClosedRange<LocalDay>?) {
        self.current = current
        self.longest = longest
    }

    /// No streak at all.
    public static let none = StreakSpans(current: nil, longest: nil)

    /// The spans of a run of consecutive days starting on `firstDay`, read exactly as
    /// `StatisticsCalculator.statistics(of:)` counts them: untracked days neither count nor break
    /// a run, and a pending last day does not break the current one.
    public init(_ outcomes: [StatisticsCalculator.DayOutcome], firstDay: LocalDay) {
        func day(_ index: Int) -> LocalDay { firstDay.adding(days: index) }
        var longest: ClosedRange<LocalDay>?
        var longestCount = 0
        var runStart: Int?
        var runCount = 0
        for (index, outcome) in outcomes.enumerated() {
            switch outcome {
            case .completed:
                if runStart == nil { runStart = index }
                runCount += 1
                if runCount >= longestCount, let s = runStart {
                    longestCount = runCount
                    longest = day(s)...day(index)
                }
            case .pending, .missed:
                runStart = nil
                runCount = 0
            case .untracked:
                break
            }
        }
        var current: ClosedRange<LocalDay>?
        var index = outcomes.count - 1
        if index >= 0, outcomes[index] == .pending { index -= 1 }
        var last: Int?
        var first: Int?
        scan: while index >= 0 {
            switch outcomes[index] {
            case .completed:
                if last == nil { last = index }
                first = index
            case .untracked: break
            case .pending, .missed: break scan
            }
            index -= 1
        }
        if let first, let last { current = day(first)...day(last) }
        self.init(current: current, longest: longest)
    }
}
