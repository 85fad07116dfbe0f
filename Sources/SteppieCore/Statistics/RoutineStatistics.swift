/// Derived statistics of one routine (or of one child's days), following StackDay's rules.
///
/// Never stored: always recomputed from the tracking period, the completion days and a reference day.
public struct RoutineStatistics: Hashable, Sendable, Codable {
    /// Consecutive completed days counted back from the final day; today not yet done does not break it.
    public let currentStreak: Int
    /// The longest run of consecutive completed days.
    public let longestStreak: Int
    /// Distinct completed days inside the tracking period.
    public let completedDays: Int
    /// Days from the start to the final day inclusive (0 when the start is later).
    public let eligibleDays: Int
    /// `completedDays / eligibleDays`, 0 when nothing is eligible.
    public let completionRate: Double

    /// Creates statistics from their parts; the rate is derived so it always agrees with the counts.
    public init(currentStreak: Int, longestStreak: Int, completedDays: Int, eligibleDays: Int) {
        self.currentStreak = currentStreak
        self.longestStreak = longestStreak
        self.completedDays = completedDays
        self.eligibleDays = eligibleDays
        self.completionRate = eligibleDays > 0 ? Double(completedDays) / Double(eligibleDays) : 0
    }

    /// Nothing tracked yet.
    public static let empty = RoutineStatistics(currentStreak: 0, longestStreak: 0, completedDays: 0, eligibleDays: 0)
}
