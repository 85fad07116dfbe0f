import Foundation
import SteppieCore

/// A guardian's review of past days: what was done and what was not, one routine's month, and
/// corrections of a day's entry recorded with when they were made (docs/guardian.md, "History").
extension Store {
    static let correctionColumns = "id, date, routine_id, done, previous_status, made_at"

    /// Sets one routine's entry on `day` to done or not done, as a guardian corrects a past day,
    /// in one transaction: the `(day, routine)` log is written (done: `completed` with
    /// `completedAt` = `now`, the moment it was recorded; not done: `undone`) and the change is
    /// recorded in `log_corrections` with the state before and `now`.
    ///
    /// Refused, with nothing written: a day after the local day of `now`
    /// (`GuardianEditError.dayInFuture`); a routine of another child (`routineOfAnotherChild`);
    /// a day the routine was not part of the child's day — before it was created, after it or its
    /// set was deleted, or while it was deleted (`dayNotTracked`). Setting the state the entry
    /// already has changes nothing and records nothing (`.unchanged`).
    @discardableResult
    public func setDayEntry(childId: UUID, routineId: UUID, day: LocalDay, done: Bool, at now: Date) throws -> DayEntryChange {
        try write {
            let today = LocalDay(now, in: timeZone)
            guard day <= today else { throw GuardianEditError.dayInFuture(day: day, today: today) }
            let child = try child(id: childId)
            guard let history = try routineHistories(childId: childId, completionsFrom: day, through: day)
                .first(where: { $0.routine.id == routineId }) else {
                _ = try routine(id: routineId)
                throw GuardianEditError.routineOfAnotherChild(routineId: routineId, child: child.displayName)
            }
            guard history.tracked.isTracked(on: day, reference: today) else {
                throw GuardianEditError.dayNotTracked(routineId: routineId, day: day)
            }
            let existing = try log(day: day, routineId: routineId)
            switch (done, existing?.status) {
            case (true, .completed?), (false, .undone?), (false, nil):
                return .unchanged
            case (true, .undone?):
                // Marked done: the entry records what the routine's card shows now (its look).
                let look = try recordLook(routineId: routineId, at: now)
                try db.run("UPDATE daily_logs SET status = 'completed', completed_at = ?, updated_at = ?, look_id = ? WHERE date = ? AND routine_id = ?",
                           [stamp(now), stamp(now), .text(look), .text(day.description), .text(routineId.lowercased)])
            case (true, nil):
                let look = try recordLook(routineId: routineId, at: now)
                try db.run("INSERT INTO daily_logs (\(Store.logColumnsWithLook)) VALUES (?, ?, ?, ?, 'completed', ?, ?, ?, ?)",
                           [.text(ids.next().lowercased), .text(day.description), .text(routineId.lowercased),
                            .text(history.routine.routineSetId.lowercased), stamp(now), stamp(now), stamp(now), .text(look)])
            case (false, .completed?):
                try db.run("UPDATE daily_logs SET status = 'undone', completed_at = NULL, updated_at = ? WHERE date = ? AND routine_id = ?",
                           [stamp(now), .text(day.description), .text(routineId.lowercased)])
            }
            let correction = LogCorrection(id: ids.next(), date: day, routineId: routineId, done: done,
                                           previousStatus: existing?.status, madeAt: now)
            try db.run("INSERT INTO log_corrections (\(Store.correctionColumns)) VALUES (?, ?, ?, ?, ?, ?)",
                       [.text(correction.id.lowercased), .text(day.description), .text(routineId.lowercased), .bool(done),
                        .optionalText(existing?.status.rawValue), stamp(now)])
            try logSyncEvent(id: correction.id.lowercased, routineId: routineId, day: day,
                             kind: done ? "correctDone" : "correctUndone", at: now, shown: done)
            return .changed(correction)
        }
    }

    /// The child's day for a guardian: every routine completed that day (of any set), then every
    /// routine that counted for the child that day and was not completed (`missed`, or `pending`
    /// on `reference`), in set and card order, each with its latest correction. Routines that were
    /// not part of the day (not yet created, deleted, or away between a delete and a restore) are
    /// left out. The counted entries are exactly the day's cell of the month heatmap.
    public func dayEntries(childId: UUID, day: LocalDay, reference: LocalDay) throws -> [DayEntry] {
        try read {
            let histories = try routineHistories(childId: childId, completionsFrom: day, through: day)
            let sets = Dictionary(try sets(childId: childId, includeDeleted: true).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            var logs: [UUID: DailyLog] = [:]
            var shown: [UUID: Routine] = [:]   // a completion shows what the child saw then
            for item in try history(childId: childId, from: day, through: day) {
                if let log = item.log { logs[item.routine.id] = log; shown[item.routine.id] = item.routine }
            }
            var latest: [UUID: LogCorrection] = [:]
            for c in try corrections(childId: childId, from: day, through: day) { latest[c.routineId] = c }
            return histories.compactMap { h -> DayEntry? in
                guard let set = sets[h.routine.routineSetId] else { return nil }
                let log = logs[h.routine.id]
                let state: EntryState
                if log?.status == .completed {
                    state = .completed
                } else if h.tracked.countsForChild, h.tracked.isTracked(on: day, reference: reference) {
                    state = day == reference ? .pending : .missed
                } else {
                    return nil
                }
                return DayEntry(routine: state == .completed ? shown[h.routine.id] ?? h.routine : h.routine, set: set, log: log, state: state, countsForChild: h.tracked.countsForChild,
                                correction: latest[h.routine.id])
            }
        }
    }

    /// Guardian corrections of the child's entries between two days (inclusive), oldest change first.
    public func corrections(childId: UUID, from: LocalDay, through: LocalDay) throws -> [LogCorrection] {
        try read {
            try db.query("""
                SELECT \(Store.qualified(Store.correctionColumns, "c")) FROM log_corrections c
                JOIN routines r ON r.id = c.routine_id JOIN routine_sets s ON s.id = r.routine_set_id
                WHERE s.child_id = ? AND c.date BETWEEN ? AND ?
                ORDER BY c.rowid
                """, [.text(childId.lowercased), .text(from.description), .text(through.description)], decodeCorrection)
        }
    }

    /// One routine of the child over a month: each day's entry state, absences and future days
    /// (`RoutineMonth`), with the routine's history. A routine of another child is
    /// `GuardianEditError.routineOfAnotherChild`.
    public func routineMonth(childId: UUID, routineId: UUID, month: YearMonth, reference: LocalDay) throws -> (history: RoutineHistory, month: RoutineMonth) {
        try read {
            let child = try child(id: childId)
            guard let history = try routineHistories(childId: childId, completionsFrom: month.firstDay, through: month.lastDay)
                .first(where: { $0.routine.id == routineId }) else {
                _ = try routine(id: routineId)
                throw GuardianEditError.routineOfAnotherChild(routineId: routineId, child: child.displayName)
            }
            return (history, RoutineMonth(month: month, routine: history.tracked, reference: reference))
        }
    }

    /// The days each of the child's routines was away between a delete and a restore, by routine id.
    func absences(childId: UUID) throws -> [UUID: [ClosedRange<LocalDay>]] {
        var out: [UUID: [ClosedRange<LocalDay>]] = [:]
        let rows = try db.query("""
            SELECT a.routine_id, a.deleted_at, a.restored_at FROM routine_absences a
            JOIN routines r ON r.id = a.routine_id JOIN routine_sets s ON s.id = r.routine_set_id
            WHERE s.child_id = ? ORDER BY a.deleted_at
            """, [.text(childId.lowercased)]) { ($0.text(0), Timestamp.parse($0.text(1)), Timestamp.parse($0.text(2))) }
        for (id, deleted, restored) in rows {
            guard let uuid = UUID(uuidString: id), let deleted, let restored else {
                throw StoreError.corruptRow(table: "routine_absences", id: id, reason: "bad id or timestamp")
            }
            if let range = TrackedRoutine.absence(deletedAt: deleted, restoredAt: restored, in: timeZone) {
                out[uuid, default: []].append(range)
            }
        }
        return out
    }

    /// Records that a routine deleted at `deletedAt` came back at `now` (called by `restoreRoutine`).
    func recordAbsence(routineId: UUID, deletedAt: Date, restoredAt now: Date) throws {
        try db.run("INSERT OR IGNORE INTO routine_absences (routine_id, deleted_at, restored_at) VALUES (?, ?, ?)",
                   [.text(routineId.lowercased), stamp(deletedAt), stamp(now)])
    }

    func decodeCorrection(_ r: Row) throws -> LogCorrection {
        let id = r.text(0)
        guard let uuid = UUID(uuidString: id), let day = LocalDay(r.text(1)), let routine = UUID(uuidString: r.text(2)),
              let made = Timestamp.parse(r.text(5)) else {
            throw StoreError.corruptRow(table: "log_corrections", id: id, reason: "bad id, date or timestamp")
        }
        return LogCorrection(id: uuid, date: day, routineId: routine, done: r.bool(3),
                             previousStatus: r.optionalText(4).flatMap(LogStatus.init(rawValue:)), madeAt: made)
    }
}

/// Guardian records that are not part of snapshots (corrections, absences), kept across a restore
/// for the routines that are there again afterwards (`Store.replaceAll`).
struct GuardianRecords {
    let corrections: [[SQLValue]]
    let absences: [[SQLValue]]
}

extension Store {
    /// Reads the corrections and absences and deletes them (they point at routines).
    func takeGuardianRecords() throws -> GuardianRecords {
        let corrections = try db.query("SELECT \(Store.correctionColumns) FROM log_corrections ORDER BY rowid") { row in
            (0..<6).map { row.value(Int32($0)) }
        }
        let absences = try db.query("SELECT routine_id, deleted_at, restored_at FROM routine_absences ORDER BY rowid") { row in
            (0..<3).map { row.value(Int32($0)) }
        }
        try db.execute("DELETE FROM log_corrections; DELETE FROM routine_absences;")
        return GuardianRecords(corrections: corrections, absences: absences)
    }

    /// Puts back the records whose routine is among `routines`.
    func putBack(_ records: GuardianRecords, routines: Set<UUID>) throws {
        let kept = Set(routines.map(\.lowercased))
        for row in records.corrections {
            guard case .text(let routine) = row[2], kept.contains(routine) else { continue }
            try db.run("INSERT INTO log_corrections (\(Store.correctionColumns)) VALUES (?, ?, ?, ?, ?, ?)", row)
        }
        for row in records.absences {
            guard case .text(let routine) = row[0], kept.contains(routine) else { continue }
            try db.run("INSERT OR IGNORE INTO routine_absences (routine_id, deleted_at, restored_at) VALUES (?, ?, ?)", row)
        }
    }
}
