import Foundation

/// One line of a weekly schedule: on these weekdays, from this local time on, this set is active.
public struct ScheduleEntry: Hashable, Sendable {
    public var weekdays: Set<Weekday>
    public var start: LocalTime
    public var routineSetId: UUID

    public init(weekdays: Set<Weekday>, start: LocalTime, routineSetId: UUID) {
        self.weekdays = weekdays
        self.start = start
        self.routineSetId = routineSetId
    }

    /// The entry split into one slot per weekday.
    public var slots: [ScheduleSlot] {
        weekdays.sorted().map { ScheduleSlot(weekday: $0, start: start, routineSetId: routineSetId) }
    }
}

/// One weekday and start time of a schedule, as the store keeps it (one row each).
public struct ScheduleSlot: Hashable, Sendable, Comparable {
    public var weekday: Weekday
    public var start: LocalTime
    public var routineSetId: UUID

    public init(weekday: Weekday, start: LocalTime, routineSetId: UUID) {
        self.weekday = weekday
        self.start = start
        self.routineSetId = routineSetId
    }

    /// Week order: by weekday, then start time.
    public static func < (a: ScheduleSlot, b: ScheduleSlot) -> Bool {
        (a.weekday.rawValue, a.start.minutesSinceMidnight) < (b.weekday.rawValue, b.start.minutesSinceMidnight)
    }
}
