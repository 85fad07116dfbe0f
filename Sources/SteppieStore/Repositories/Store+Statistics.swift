import Foundation
import SteppieCore

/// What the statistics calculators need, loaded in two queries per call.
extension Store {
    /// Every routine of the child's sets, soft-deleted ones included, with its completion days
    /// (optionally only those in `from...through`), ordered by set creation then routine order.
    ///
    /// Tracking starts on the local day of the routine's `createdAt` and ends on the local day of the
    /// earlier of its own and its set's `deletedAt`, both read in the store's time zone. Completion
    /// days are the logs' stored local `date`s (never derived from timestamps). A routine counts for
    /// the child aggregate when it is in the active set and not deactivated. The whole days between a
    /// soft delete and its restore are absences (`TrackedRoutine.absences`): not counted as missed.
    public func routineHistories(childId: UUID, completionsFrom from: LocalDay? = nil,
                                 through: LocalDay? = nil) throws -> [RoutineHistory] {
        try read {
            _ = try child(id: childId)
            let rows = try db.query("""
                SELECT \(Store.routineColumnsOfR), s.is_active, s.deleted_at FROM routine_sets s
                JOIN routines r ON r.routine_set_id = s.id
                WHERE s.child_id = ? ORDER BY s.created_at, s.rowid, r.sort_order, r.created_at
                """, [.text(childId.lowercased)]) { row in
                (routine: try decodeRoutine(row, offset: 0), setActive: row.bool(12),
                 setDeletedAt: row.optionalText(13).flatMap(Timestamp.parse))
            }
            var days: [String: [LocalDay]] = [:]
            let range = (from ?? LocalDay(dayNumber: -719_162), through ?? LocalDay(dayNumber: 2_932_896))   // 0001-01-01 … 9999-12-31
            for (routineId, day) in try db.query("""
                SELECT l.routine_id, l.date FROM routine_sets s JOIN daily_logs l ON l.routine_set_id = s.id
                WHERE s.child_id = ? AND l.status = 'completed' AND l.date BETWEEN ? AND ?
                """, [.text(childId.lowercased), .text(range.0.description), .text(range.1.description)], { ($0.text(0), LocalDay($0.text(1))) }) {
                guard let day else { throw StoreError.corruptRow(table: "daily_logs", id: routineId, reason: "bad date") }
                days[routineId, default: []].append(day)
            }
            let absences = try absences(childId: childId)
            return rows.map { row in
                let ends = [row.routine.deletedAt, row.setDeletedAt].compactMap { $0 }
                let tracked = TrackedRoutine(
                    id: row.routine.id, start: LocalDay(row.routine.createdAt, in: timeZone),
                    end: ends.min().map { LocalDay($0, in: timeZone) },
                    completionDays: days[row.routine.id.lowercased] ?? [],
                    countsForChild: row.setActive && row.routine.isActive, absences: absences[row.routine.id] ?? [])
                return RoutineHistory(routine: row.routine, inActiveSet: row.setActive, tracked: tracked)
            }
        }
    }

    /// Per-routine and per-child statistics of a child on `reference` (normally today's local day).
    public func childStatistics(childId: UUID, reference: LocalDay) throws -> ChildStatistics {
        ChildStatistics(routines: try routineHistories(childId: childId, through: reference).map(\.tracked), reference: reference)
    }

    /// The child's month heatmap: for each day, counted routines completed out of those tracked.
    public func monthCalendar(childId: UUID, month: YearMonth, reference: LocalDay) throws -> MonthCalendar {
        let histories = try routineHistories(childId: childId, completionsFrom: month.firstDay, through: month.lastDay)
        return MonthCalendar(month: month, routines: histories.map(\.tracked), reference: reference)
    }

    /// The child's month for a report (`MonthReport`, by the same rules as `childStatistics`), with
    /// the corrections of the month's days, as seen on `reference` (normally today).
    public func monthReport(childId: UUID, month: YearMonth, reference: LocalDay) throws -> ChildMonthReport {
        try read {
            let through = min(month.lastDay, reference)
            let histories = try routineHistories(childId: childId, through: through)
            return ChildMonthReport(report: MonthReport(month: month, routines: histories.map(\.tracked), reference: reference),
                                    histories: histories,
                                    corrections: try corrections(childId: childId, from: month.firstDay, through: month.lastDay))
        }
    }
}
