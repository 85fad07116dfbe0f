/// One child's routines for one local day, with what was done. Everything here is derived.
public struct DayPlan: Equatable, Sendable, Codable {
    public struct Item: Equatable, Sendable, Codable {
        public let routine: Routine
        public let log: DailyLog?

        public init(routine: Routine, log: DailyLog?) {
            self.routine = routine
            self.log = log
        }

        public var isCompleted: Bool { log?.status == .completed }
    }

    public let day: LocalDay
    public let set: RoutineSet?
    /// The active, visible routines of the active set, by order.
    public let items: [Item]

    public init(day: LocalDay, set: RoutineSet?, items: [Item]) {
        self.day = day
        self.set = set
        self.items = items.sorted { $0.routine.order < $1.routine.order }
    }

    /// The first routine by order not completed today.
    public var current: Item? { items.first { !$0.isCompleted } }

    public var currentIndex: Int? { items.firstIndex { !$0.isCompleted } }

    public var completedCount: Int { items.count { $0.isCompleted } }

    public var total: Int { items.count }

    public var isAllDone: Bool { !items.isEmpty && current == nil }

    /// The completed item whose completion is the most recent, the one an undo would return.
    public var lastCompleted: Item? {
        items.filter(\.isCompleted).max { ($0.log?.completedAt ?? .distantPast, $0.routine.order) < ($1.log?.completedAt ?? .distantPast, $1.routine.order) }
    }
}
