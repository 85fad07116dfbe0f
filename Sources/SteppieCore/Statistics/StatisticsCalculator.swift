/// Computes `RoutineStatistics` with StackDay's rules. Pure: days in, numbers out.
///
/// - Completion days are distinct local days; days before the start or after the reference day are ignored.
/// - `finalDay = min(reference, end of tracking)`; eligible days run from the start to `finalDay`
///   inclusive (0 when the start is later); completed days are the completion days in that range;
///   `rate = completed / eligible` (0 when eligible is 0).
/// - Streaks are strict and daily. The longest streak is the longest run of consecutive completed days;
///   the current streak counts back from `finalDay`, starting from the day before when `finalDay`
///   is the reference day and it is not completed yet (today not done does not break the streak).
public enum StatisticsCalculator {
    /// Statistics of one tracking period on `reference`.
    public static func statistics(start: LocalDay, end: LocalDay?, completions: some Sequence<LocalDay>,
                                  reference: LocalDay) -> RoutineStatistics {
        statistics(of: outcomes(start: start, end: end, completions: completions, absences: [], reference: reference))
    }

    /// Statistics of one tracked routine on `reference` (days of an absence without a completion
    /// are untracked: neither eligible nor breaking a streak).
    public static func statistics(for routine: TrackedRoutine, reference: LocalDay) -> RoutineStatistics {
        statistics(of: outcomes(for: routine, reference: reference))
    }

    /// The dates of a tracked routine's current and longest streaks on `reference`.
    public static func streakSpans(for routine: TrackedRoutine, reference: LocalDay) -> StreakSpans {
        StreakSpans(outcomes(for: routine, reference: reference), firstDay: routine.start)
    }

    /// One outcome per day from the routine's start to its final day (empty when the start is later).
    public static func outcomes(for routine: TrackedRoutine, reference: LocalDay) -> [DayOutcome] {
        outcomes(start: routine.start, end: routine.end, completions: routine.completionDays, absences: routine.absences,
                 reference: reference)
    }

    static func outcomes(start: LocalDay, end: LocalDay?, completions: some Sequence<LocalDay>,
                         absences: [ClosedRange<LocalDay>], reference: LocalDay) -> [DayOutcome] {
        let finalDay = end.map { min($0, reference) } ?? reference
        guard start <= finalDay else { return [] }
        let done = Set(completions.lazy.filter { $0 >= start && $0 <= finalDay }.map(\.dayNumber))
        return (start.dayNumber...finalDay.dayNumber).map { number -> DayOutcome in
            if done.contains(number) { return .completed }
            if absences.contains(where: { $0.contains(LocalDay(dayNumber: number)) }) { return .untracked }
            return number == reference.dayNumber ? .pending : .missed
        }
    }

    /// StackDay's entry state of `day`: completed if a completion exists, pending if it is the reference
    /// day, otherwise missed. Nil when the day is outside the tracking period or after the reference day.
    public static func entryState(of routine: TrackedRoutine, on day: LocalDay, reference: LocalDay) -> EntryState? {
        guard routine.isTracked(on: day, reference: reference) else { return nil }
        if routine.completionDays.contains(day) { return .completed }
        return day == reference ? .pending : .missed
    }

    /// What happened on one day of a run of days, oldest first.
    public enum DayOutcome: Hashable, Sendable {
        case completed
        /// Not done yet on the reference day; only meaningful as the last day.
        case pending
        case missed
        /// Nothing was tracked that day: neither eligible nor breaking a streak (child aggregate gaps).
        case untracked
    }

    /// Streaks and counts of a run of consecutive days ending on the final day.
    public static func statistics(of outcomes: [DayOutcome]) -> RoutineStatistics {
        var longest = 0
        var run = 0
        var completed = 0
        var eligible = 0
        for outcome in outcomes {
            switch outcome {
            case .completed:
                run += 1
                completed += 1
                eligible += 1
                longest = max(longest, run)
            case .pending, .missed:
                run = 0
                eligible += 1
            case .untracked:
                break
            }
        }
        var current = 0
        var index = outcomes.count - 1
        // Today not done yet: count from the day before.
        if index >= 0, outcomes[index] == .pending { index -= 1 }
        scan: while index >= 0 {
            switch outcomes[index] {
            case .completed: current += 1
            case .untracked: break
            case .pending, .missed: break scan
            }
            index -= 1
        }
        return RoutineStatistics(currentStreak: current, longestStreak: longest, completedDays: completed, eligibleDays: eligible)
    }
}
