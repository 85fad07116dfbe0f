import Foundation
import SteppieCore

extension Store {
    static let logColumns = "id, date, routine_id, routine_set_id, status, completed_at, created_at, updated_at"
    static let logColumnsOfL = qualified(logColumns, "l")
    /// The log columns and the look a completion showed (`decodeLog(_:offset:withLook: true)`).
    static let logColumnsWithLook = logColumns + ", look_id"
    static let lookColumns = "id, routine_id, title, icon, created_at"
    static let routineColumnsOfR = qualified(routineColumns, "r")

    /// `a, b` → `t.a, t.b`, for joins.
    static func qualified(_ columns: String, _ table: String) -> String {
        columns.split(separator: ",").map { table + "." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")
    }

    /// A child's active routines for `day`, each with its log for that day.
    public func today(childId: UUID, day: LocalDay) throws -> DayPlan {
        try read {
            guard let set = try activeSet(childId: childId) else { return DayPlan(day: day, set: nil, items: []) }
            let items = try db.query("""
                SELECT \(Store.routineColumnsOfR), \(Store.logColumnsOfL) FROM routines r
                LEFT JOIN daily_logs l ON l.routine_id = r.id AND l.date = ?
                WHERE r.routine_set_id = ? AND r.is_active = 1 AND r.deleted_at IS NULL
                ORDER BY r.sort_order
                """, [.text(day.description), .text(set.id.lowercased)]) { row in
                DayPlan.Item(routine: try decodeRoutine(row, offset: 0), log: row.isNull(12) ? nil : try decodeLog(row, offset: 12))
            }
            return DayPlan(day: day, set: set, items: items)
        }
    }

    /// Records the completion of the child's current routine on `day`. When `routineId` is given it
    /// must be the current one: only the current card can be completed.
    @discardableResult
    public func complete(childId: UUID, routineId: UUID? = nil, day: LocalDay, at now: Date) throws -> DailyLog {
        try write {
            let plan = try today(childId: childId, day: day)
            guard plan.set != nil else { throw StoreError.noActiveSet(child: childId.lowercased) }
            guard let current = plan.current else { throw StoreError.allDone }
            if let routineId, routineId != current.routine.id {
                _ = try routine(id: routineId)
                throw StoreError.notCurrent(routine: routineId.lowercased, current: current.routine.id.lowercased)
            }
            let routine = current.routine
            let newId = ids.next()
            let look = try recordLook(routineId: routine.id, at: now)
            try db.run("""
                INSERT INTO daily_logs (\(Store.logColumnsWithLook)) VALUES (?, ?, ?, ?, 'completed', ?, ?, ?, ?)
                ON CONFLICT (date, routine_id) DO UPDATE SET status = 'completed', completed_at = excluded.completed_at,
                    updated_at = excluded.updated_at, look_id = excluded.look_id WHERE status = 'undone'
                """, [.text(newId.lowercased), .text(day.description), .text(routine.id.lowercased), .text(routine.routineSetId.lowercased),
                      stamp(now), stamp(now), stamp(now), .text(look)])
            if db.changes == 1 {
                try logSyncEvent(id: ids.next().lowercased, routineId: routine.id, day: day, kind: "press", at: now, shown: true)
            }
            guard let log = try log(day: day, routineId: routine.id) else {
                throw StoreError.corruptRow(table: "daily_logs", id: newId.lowercased, reason: "vanished after write")
            }
            return log
        }
    }

    /// The look the routine's card shows now (its title and icon), as a `routine_looks` id: the
    /// existing look when one has the same title and icon, else a new one copied from the row.
    /// Runs inside the completion's write; SQL only (no file, no hashing), so a press stays fast.
    func recordLook(routineId: UUID, at now: Date) throws -> String {
        let routine = SQLValue.text(routineId.lowercased)
        let find = """
            SELECT k.id FROM routine_looks k JOIN routines r ON r.id = k.routine_id
            WHERE r.id = ? AND k.title = r.title AND k.icon = r.icon LIMIT 1
            """
        if let id = try db.queryFirst(find, [routine], { $0.text(0) }) { return id }
        let id = ids.next().lowercased
        try db.run("INSERT INTO routine_looks (\(Store.lookColumns)) SELECT ?, id, title, icon, ? FROM routines WHERE id = ?",
                   [.text(id), stamp(now), routine])
        guard db.changes == 1 else { throw StoreError.routineNotFound(routineId.lowercased) }
        return id
    }

    /// Returns the most recent completion of `day` to `undone` (the same row), if it is still inside
    /// the child's undo window and `day` is still the current local day.
    @discardableResult
    public func undo(childId: UUID, day: LocalDay, at now: Date, windowSeconds: Int) throws -> DailyLog {
        try write {
            let plan = try today(childId: childId, day: day)
            guard let log = plan.lastCompleted?.log else { throw StoreError.nothingToUndo }
            return try undoCompletion(logId: log.id, day: day, at: now, windowSeconds: windowSeconds)
        }
    }

    /// Returns one completion to `undone`, keeping its row and id. Refused after the undo window,
    /// or when `now` is no longer on `day` (the local date changed).
    @discardableResult
    public func undoCompletion(logId: UUID, day: LocalDay, at now: Date, windowSeconds: Int) throws -> DailyLog {
        try write {
            guard LocalDay(now, in: timeZone) == day else { throw StoreError.dayChanged }
            guard let log = try db.queryFirst("SELECT \(Store.logColumnsWithLook) FROM daily_logs WHERE id = ?", [.text(logId.lowercased)], {
                try decodeLog($0, offset: 0, withLook: true)
            }), log.date == day, log.status == .completed, let completedAt = log.completedAt else {
                throw StoreError.nothingToUndo
            }
            let age = now.timeIntervalSince(completedAt)
            guard age >= -1, age <= Double(windowSeconds) else { throw StoreError.undoWindowPassed(seconds: windowSeconds) }
            try db.run("UPDATE daily_logs SET status = 'undone', completed_at = NULL, updated_at = ? WHERE id = ? AND status = 'completed'",
                       [stamp(now), .text(logId.lowercased)])
            try logSyncEvent(id: ids.next().lowercased, routineId: log.routineId, day: day, kind: "undo", at: now, shown: false)
            var updated = log
            updated.status = .undone
            updated.completedAt = nil
            updated.updatedAt = now
            return updated
        }
    }

    /// The log of one routine on one day.
    public func log(day: LocalDay, routineId: UUID) throws -> DailyLog? {
        try read {
            try db.queryFirst("SELECT \(Store.logColumnsWithLook) FROM daily_logs WHERE date = ? AND routine_id = ?",
                              [.text(day.description), .text(routineId.lowercased)]) { try decodeLog($0, offset: 0, withLook: true) }
        }
    }

    /// Every log of a child's sets between two days (inclusive), by date then routine order,
    /// with the routine as the child saw it (soft-deleted routines included): a completion that
    /// recorded a look (schema v8) shows that look's title and icon, whatever the routine shows
    /// now; older logs, and logs not completed, show the routine as it is.
    public func history(childId: UUID, from: LocalDay, through: LocalDay) throws -> [DayPlan.Item] {
        try read {
            // Decode each routine once, not once per log: a month has ~30 logs per routine.
            let routines = try db.query("""
                SELECT \(Store.routineColumnsOfR) FROM routine_sets s JOIN routines r ON r.routine_set_id = s.id
                WHERE s.child_id = ?
                """, [.text(childId.lowercased)], decodeRoutine)
            let byId = Dictionary(routines.map { ($0.id.lowercased, $0) }, uniquingKeysWith: { a, _ in a })
            let lookById = Dictionary(try self.looks(childId: childId).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            return try db.query("""
                SELECT \(Store.logColumnsOfL), l.look_id FROM routine_sets s
                JOIN daily_logs l ON l.routine_set_id = s.id AND l.date BETWEEN ? AND ?
                JOIN routines r ON r.id = l.routine_id
                WHERE s.child_id = ?
                ORDER BY l.date, r.sort_order, l.created_at
                """, [.text(from.description), .text(through.description), .text(childId.lowercased)]) { row in
                let log = try decodeLog(row, offset: 0, withLook: true)
                guard let routine = byId[log.routineId.lowercased] else {
                    throw StoreError.corruptRow(table: "daily_logs", id: log.id.lowercased, reason: "routine missing")
                }
                if log.status == .completed, let id = log.lookId, let look = lookById[id], look.routineId == routine.id {
                    return DayPlan.Item(routine: look.applied(to: routine), log: log)
                }
                return DayPlan.Item(routine: routine, log: log)
            }
        }
    }

    func decodeLog(_ r: Row, offset o: Int32, withLook: Bool = false) throws -> DailyLog {
        // Parsed from the column bytes (no string per column): a backup reads a million rows.
        guard let uuid = UUIDText.parse(r.bytes(o)), let day = LocalDay(utf8: r.bytes(o + 1)),
              let routine = UUIDText.parse(r.bytes(o + 2)), let set = UUIDText.parse(r.bytes(o + 3)),
              let status = Self.logStatus(r.bytes(o + 4)) else {
            throw StoreError.corruptRow(table: "daily_logs", id: r.text(o), reason: "bad id, date or status")
        }
        return DailyLog(id: uuid, date: day, routineId: routine, routineSetId: set, status: status,
                        completedAt: r.isNull(o + 5) ? nil : Timestamp.parse(utf8: r.bytes(o + 5)),
                        createdAt: Timestamp.parse(utf8: r.bytes(o + 6)) ?? .distantPast,
                        updatedAt: Timestamp.parse(utf8: r.bytes(o + 7)),
                        lookId: withLook && !r.isNull(o + 8) ? UUIDText.parse(r.bytes(o + 8)) : nil)
    }

    /// `LogStatus(rawValue:)` of a column's bytes.
    static func logStatus(_ u: UnsafeBufferPointer<UInt8>) -> LogStatus? {
        if u.elementsEqual("completed".utf8) { return .completed }
        if u.elementsEqual("undone".utf8) { return .undone }
        return nil
    }
}
