import SteppieCore

/// A routine as the statistics see it: the routine itself (for its title) and its tracking period
/// and completion days as local days of the device.
public struct RoutineHistory: Equatable, Sendable {
    public let routine: Routine
    /// Whether the routine's set is the child's active set.
    public let inActiveSet: Bool
    public let tracked: TrackedRoutine

    public init(routine: Routine, inActiveSet: Bool, tracked: TrackedRoutine) {
        self.routine = routine
        self.inActiveSet = inActiveSet
        self.tracked = tracked
    }
}
