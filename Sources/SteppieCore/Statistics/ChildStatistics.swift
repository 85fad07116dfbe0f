/// Statistics of one child across their routines.
///
/// Definition (see docs/guardian.md):
/// - Only routines with `countsForChild` take part (the store marks the routines of the child's
///   active set that are not deactivated; soft-deleted ones count up to their deletion day).
/// - A *child day* is a day on which at least one counted routine is tracked. It is **completed**
///   when every counted routine tracked that day was completed that day; on the reference day it is
///   **pending** until then; otherwise **missed**.
/// - `days` applies StackDay's rules to child days from the earliest start to the final day
///   (`min(reference, last end of tracking)`): a day with nothing tracked is neither eligible nor
///   breaking the streak.
/// - Routine-day totals add up every counted routine's completed and eligible days.
public struct ChildStatistics: Hashable, Sendable {
    /// Streaks and counts over child days (every counted routine of the day done).
    public let days: RoutineStatistics
    /// Sum of completed days over counted routines.
    public let completedRoutineDays: Int
    /// Sum of eligible days over counted routines.
    public let eligibleRoutineDays: Int
    /// `completedRoutineDays / eligibleRoutineDays`, 0 when nothing is eligible.
    public let routineDayRate: Double
    /// Per-routine statistics of every routine given, counted or not, by routine id.
    public let perRoutine: [TrackedRoutine.ID: RoutineStatistics]
    /// The dates of each routine's current and longest streak, by routine id.
    public let perRoutineStreaks: [TrackedRoutine.ID: StreakSpans]
    /// The dates of the child-day streaks counted in `days`.
    public let dayStreaks: StreakSpans

    /// Computes the aggregate of `routines` on `reference`.
    public init(routines: [TrackedRoutine], reference: LocalDay) {
        var perRoutine: [TrackedRoutine.ID: RoutineStatistics] = [:]
        var perRoutineStreaks: [TrackedRoutine.ID: StreakSpans] = [:]
        for routine in routines {
            let outcomes = StatisticsCalculator.outcomes(for: routine, reference: reference)
            perRoutine[routine.id] = StatisticsCalculator.statistics(of: outcomes)
            perRoutineStreaks[routine.id] = StreakSpans(outcomes, firstDay: routine.start)
        }
        self.perRoutine = perRoutine
        self.perRoutineStreaks = perRoutineStreaks
        let counted = routines.filter(\.countsForChild)
        completedRoutineDays = counted.reduce(0) { $0 + (perRoutine[$1.id]?.completedDays ?? 0) }
        eligibleRoutineDays = counted.reduce(0) { $0 + (perRoutine[$1.id]?.eligibleDays ?? 0) }
        routineDayRate = eligibleRoutineDays > 0 ? Double(completedRoutineDays) / Double(eligibleRoutineDays) : 0
        let (first, outcomes) = ChildStatistics.dayOutcomes(counted, reference: reference)
        days = outcomes.isEmpty ? .empty : StatisticsCalculator.statistics(of: outcomes)
        dayStreaks = first.map { StreakSpans(outcomes, firstDay: $0) } ?? .none
    }

    /// The child day outcome of `day`: `.untracked` when no counted routine is tracked then.
    public static func outcome(of routines: [TrackedRoutine], on day: LocalDay,
                               reference: LocalDay) -> StatisticsCalculator.DayOutcome {
        let tracked = routines.filter { $0.countsForChild && $0.isTracked(on: day, reference: reference) }
        if tracked.isEmpty { return .untracked }
        if tracked.allSatisfy({ $0.completionDays.contains(day) }) { return .completed }
        return day == reference ? .pending : .missed
    }

    /// The child-day outcomes from the earliest start to the latest final day, with the first day.
    private static func dayOutcomes(_ counted: [TrackedRoutine], reference: LocalDay)
        -> (first: LocalDay?, outcomes: [StatisticsCalculator.DayOutcome]) {
        guard let start = counted.map(\.start).min() else { return (nil, []) }
        let finalDay = counted.map { $0.finalDay(reference: reference) }.max() ?? reference
        guard start <= finalDay else { return (nil, []) }
        let outcomes = (start.dayNumber...finalDay.dayNumber).map {
            outcome(of: counted, on: LocalDay(dayNumber: $0), reference: reference)
        }
        return (start, outcomes)
    }
}
