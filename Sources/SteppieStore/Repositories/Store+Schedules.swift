import Foundation
import SteppieCore

/// Weekly schedules (docs/data-contract.md, "Weekly schedules"): which set is active by weekday
/// and time. Every change validates the whole resulting schedule and runs in one transaction.
extension Store {
    /// The child's weekly schedule (empty when none is set).
    public func schedule(childId: UUID) throws -> WeeklySchedule {
        try read { try loadSchedule(childId: childId) }
    }

    /// Replaces the child's whole schedule with `entries`.
    public func setSchedule(childId: UUID, entries: [ScheduleEntry], at now: Date) throws {
        try write {
            _ = try child(id: childId)
            try validate { try Validator.schedule(entries, childId: childId, sets: try sets(childId: childId, includeDeleted: true)) }
            try replaceSchedule(childId: childId, with: WeeklySchedule(entries: entries), at: now)
        }
    }

    /// Adds `entry` to the child's schedule, replacing the set of any slot with the same weekday
    /// and start; returns the new schedule.
    @discardableResult
    public func setScheduleEntry(childId: UUID, _ entry: ScheduleEntry, at now: Date) throws -> WeeklySchedule {
        try write {
            _ = try child(id: childId)
            let sets = try sets(childId: childId, includeDeleted: true)
            var schedule = try loadSchedule(childId: childId)
            schedule.set(entry)
            try validate {
                try Validator.schedule([entry], childId: childId, sets: sets)
                try Validator.schedule(schedule.entries, childId: childId, sets: sets)
            }
            try replaceSchedule(childId: childId, with: schedule, at: now)
            return schedule
        }
    }

    /// Removes the child's schedule on `weekdays` (all of it when nil); returns how many weekday
    /// start times were removed.
    @discardableResult
    public func clearSchedule(childId: UUID, weekdays: Set<Weekday>? = nil, at now: Date) throws -> Int {
        try write {
            _ = try child(id: childId)
            var schedule = try loadSchedule(childId: childId)
            let removed = schedule.clear(weekdays: weekdays)
            if removed > 0 { try replaceSchedule(childId: childId, with: schedule, at: now) }
            return removed
        }
    }

    /// Makes the set the schedule names for `now` the child's one active set, in one transaction;
    /// returns true when the active set changed. Nothing changes (false) when the child has no
    /// schedule, is archived, or the scheduled set is already active or no longer usable (deleted, or
    /// without a visible routine).
    @discardableResult
    public func applySchedule(childId: UUID, at now: Date) throws -> Bool {
        try write {
            let child = try child(id: childId)
            guard child.archivedAt == nil,
                  let target = try loadSchedule(childId: childId).activeSet(at: now, in: timeZone) else { return false }
            let set = try db.queryFirst("SELECT \(Store.setColumns) FROM routine_sets WHERE id = ?", [.text(target.lowercased)], decodeSet)
            guard let set, set.childId == childId, set.deletedAt == nil, !set.isActive,
                  try hasVisibleRoutines(setId: set.id) else { return false }
            try activateSet(target, at: now)
            return true
        }
    }

    /// The child's set named by `selector`: its id, or a name (in any language, compared as child
    /// names are) that exactly one of the child's visible sets has.
    public func resolveSet(childId: UUID, _ selector: String) throws -> RoutineSet {
        let visible = try sets(childId: childId)
        if let id = UUID(uuidString: selector) {
            guard let set = visible.first(where: { $0.id == id }) else { throw StoreError.setNotFound(selector) }
            return set
        }
        let folded = Validator.foldedName(selector)
        let matches = visible.filter { set in set.name.values.values.contains { Validator.foldedName($0) == folded } }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw StoreError.setNotFound(selector)
        default: throw StoreError.setNameAmbiguous(name: selector, sets: matches.map(\.id.lowercased))
        }
    }

    // MARK: Rows

    func loadSchedule(childId: UUID) throws -> WeeklySchedule {
        let slots = try db.query("SELECT weekday, start_time, routine_set_id FROM set_schedules WHERE child_id = ? ORDER BY weekday, start_time",
                                 [.text(childId.lowercased)]) { row -> ScheduleSlot in
            guard let day = Weekday(rawValue: row.int(0)), let start = LocalTime(row.text(1)),
                  let set = UUID(uuidString: row.text(2)) else {
                throw StoreError.corruptRow(table: "set_schedules", id: childId.lowercased, reason: "bad weekday, time or set")
            }
            return ScheduleSlot(weekday: day, start: start, routineSetId: set)
        }
        return WeeklySchedule(slots: slots)
    }

    /// Writes `schedule` as the child's rows, keeping the creation time of slots that stay.
    private func replaceSchedule(childId: UUID, with schedule: WeeklySchedule, at now: Date) throws {
        let old = try db.query("SELECT weekday, start_time, routine_set_id, created_at, updated_at FROM set_schedules WHERE child_id = ?",
                               [.text(childId.lowercased)]) { row in
            ("\(row.int(0)) \(row.text(1))", (set: row.text(2), created: row.text(3), updated: row.text(4)))
        }
        let previous = Dictionary(old, uniquingKeysWith: { a, _ in a })
        try db.run("DELETE FROM set_schedules WHERE child_id = ?", [.text(childId.lowercased)])
        for slot in schedule.slots {
            let kept = previous["\(slot.weekday.rawValue) \(slot.start)"]
            let created: SQLValue = kept.map { .text($0.created) } ?? stamp(now)
            let unchanged = kept.flatMap { $0.set == slot.routineSetId.lowercased ? $0.updated : nil }
            let updated: SQLValue = unchanged.map { .text($0) } ?? stamp(now)
            try db.run("""
                INSERT INTO set_schedules (child_id, weekday, start_time, routine_set_id, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """, [.text(childId.lowercased), .int(slot.weekday.rawValue), .text(slot.start.description),
                      .text(slot.routineSetId.lowercased), created, updated])
        }
    }
}
