import Foundation

/// A child's weekly schedule: which routine set is active by weekday and local time, wrapping
/// around the week (the iOS app's daily routine assignments).
///
/// The set in force at an instant is the one of the latest entry that has taken effect: on the
/// same weekday the latest start at or before the local time, else the last one of the previous
/// days. An entry takes effect at `LocalDay.firstInstant(atOrAfter:in:)`, so it is DST safe (a
/// start inside a spring-forward gap takes effect right after the gap; a start that happens twice
/// on a fall-back night takes effect once, the first time) and midnight safe.
public struct WeeklySchedule: Hashable, Sendable {
    /// One slot per weekday and start, in week order.
    public private(set) var slots: [ScheduleSlot]

    public init(slots: [ScheduleSlot] = []) {
        self.slots = slots.sorted()
    }

    /// A schedule from entries; a later entry's weekday and start replace an earlier one's.
    public init(entries: [ScheduleEntry]) {
        var schedule = WeeklySchedule()
        for entry in entries { schedule.set(entry) }
        self = schedule
    }

    public var isEmpty: Bool { slots.isEmpty }

    /// The slots grouped back into entries: one per start time and set, with all its weekdays,
    /// ordered by start time and then first weekday.
    public var entries: [ScheduleEntry] {
        var byKey: [Key: Set<Weekday>] = [:]
        for slot in slots { byKey[Key(start: slot.start, routineSetId: slot.routineSetId), default: []].insert(slot.weekday) }
        return byKey.map { ScheduleEntry(weekdays: $0.value, start: $0.key.start, routineSetId: $0.key.routineSetId) }
            .sorted { a, b in
                let first = (a.weekdays.min()?.rawValue ?? 0, b.weekdays.min()?.rawValue ?? 0)
                if a.start != b.start { return a.start < b.start }
                if first.0 != first.1 { return first.0 < first.1 }
                return a.routineSetId.lowercased < b.routineSetId.lowercased
            }
    }

    private struct Key: Hashable {
        let start: LocalTime
        let routineSetId: UUID
    }

    /// Adds `entry`, replacing the set of any slot with the same weekday and start.
    public mutating func set(_ entry: ScheduleEntry) {
        slots.removeAll { entry.weekdays.contains($0.weekday) && $0.start == entry.start }
        slots = (slots + entry.slots).sorted()
    }

    /// Removes every slot on `weekdays` (every slot when nil); returns how many were removed.
    @discardableResult
    public mutating func clear(weekdays: Set<Weekday>? = nil) -> Int {
        let before = slots.count
        slots.removeAll { weekdays?.contains($0.weekday) ?? true }
        return before - slots.count
    }

    /// The ids of the sets the schedule names.
    public var routineSetIds: Set<UUID> { Set(slots.map(\.routineSetId)) }

    // MARK: Time

    /// One slot on one calendar day, with the instant it takes effect.
    struct Occurrence {
        let effective: Date
        let day: LocalDay
        let slot: ScheduleSlot

        /// Order of taking effect; two starts inside one DST gap take effect at the same instant,
        /// and the later start wins, as it would on an ordinary day.
        static func precedes(_ a: Occurrence, _ b: Occurrence) -> Bool {
            if a.effective != b.effective { return a.effective < b.effective }
            if a.day != b.day { return a.day < b.day }
            return a.slot.start < b.slot.start
        }
    }

    /// The occurrences of every slot on the local days `from`…`through`, in order of taking effect.
    func occurrences(from: LocalDay, through: LocalDay, in timeZone: TimeZone) -> [Occurrence] {
        var found: [Occurrence] = []
        var day = from
        while day <= through {
            let weekday = Weekday(day)
            for slot in slots where slot.weekday == weekday {
                found.append(Occurrence(effective: day.firstInstant(atOrAfter: slot.start, in: timeZone), day: day, slot: slot))
            }
            day = day.adding(days: 1)
        }
        return found.sorted(by: Occurrence.precedes)
    }

    /// The set the schedule makes active at `instant`; nil only when the schedule is empty.
    public func activeSet(at instant: Date, in timeZone: TimeZone) -> UUID? {
        guard !slots.isEmpty else { return nil }
        let today = LocalDay(instant, in: timeZone)
        // Every weekday comes round within the 7 days before today, so something has taken effect.
        return occurrences(from: today.adding(days: -8), through: today.adding(days: 1), in: timeZone)
            .last { $0.effective <= instant }?.slot.routineSetId
    }

    /// The next instant after `instant` at which the scheduled set changes, and the set it
    /// changes to; nil when the schedule is empty or names only one set. Starts that keep the
    /// same set are no switch. For a service's timer: at that instant, call
    /// `Store.applySchedule(childId:at:)`.
    public func nextSwitch(after instant: Date, in timeZone: TimeZone) -> (at: Date, routineSetId: UUID)? {
        guard var current = activeSet(at: instant, in: timeZone), routineSetIds.count > 1 else { return nil }
        let today = LocalDay(instant, in: timeZone)
        let ahead = occurrences(from: today.adding(days: -1), through: today.adding(days: 9), in: timeZone)
            .filter { $0.effective > instant }
        var index = 0
        while index < ahead.count {
            // Occurrences taking effect at the same instant count as one switch: the last one wins.
            var last = index
            while last + 1 < ahead.count, ahead[last + 1].effective == ahead[index].effective { last += 1 }
            let set = ahead[last].slot.routineSetId
            if set != current { return (ahead[index].effective, set) }
            current = set
            index = last + 1
        }
        return nil
    }
}
