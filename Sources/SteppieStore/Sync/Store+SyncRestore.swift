import Foundation
import SteppieSync

/// A restore on the hub, a change like any other (docs/sync.md, "A restore on the hub"): the
/// replacement's rows are logged by the triggers as they go in (every field stamped now, so the
/// backup's values win over what the devices had); then, in the same transaction, what the
/// backup does not have is deleted (a child archived) with this moment's stamp, and no completion
/// is lost: the backup's presses that are not events yet become events, and every day that an
/// event of the store of record decides otherwise is decided again from all its events.
extension Store {
    /// The synced rows' ids by entity, read before a restore on the hub replaces them; nil when
    /// this database is not a hub. A joined device refuses the restore (`restoreWhileJoined`).
    func syncRowsBeforeRestore() throws -> [SyncEntity: Set<String>]? {
        guard let sync = try loadSyncState() else { return nil }
        guard sync.role == .hub else { throw StoreError.restoreWhileJoined }
        var rows: [SyncEntity: Set<String>] = [:]
        for table in SyncColumns.tables {
            rows[table.entity] = Set(try db.query("SELECT id FROM \(table.table)") { $0.text(0) })
        }
        return rows
    }

    /// Settles a restore on the hub inside its write transaction; `before` is what
    /// `syncRowsBeforeRestore` read. Returns what it logged and decided again.
    @discardableResult
    func settleRestoreOnHub(before: [SyncEntity: Set<String>]) throws -> SyncRestoreSettled {
        var settled = SyncRestoreSettled()
        var touched = Touched()
        // What was there and the backup lacks: a tombstone stamped now (a child is archived: a
        // child is never deleted).
        for table in SyncColumns.tables {
            let field = table.entity == .child ? "archived" : "deleted"
            let now = Set(try db.query("SELECT id FROM \(table.table)") { $0.text(0) })
            for record in (before[table.entity] ?? []).subtracting(now).sorted() {
                guard let child = try db.queryFirst("SELECT child FROM sync_registers WHERE entity = ? AND record = ? LIMIT 1",
                                                    [.text(table.entity.rawValue), .text(record)], { $0.text(0) }) else { continue }
                try db.run("INSERT INTO sync_local_writes (entity, record, child, field, value) VALUES (?, ?, ?, ?, 'true')",
                           [.text(table.entity.rawValue), .text(record), .text(child), .text(field)])
                touched.records[table.entity, default: []].insert(record)
                settled.tombstones += 1
            }
        }
        // The backup's completions that no event tells yet (a press at the log's instant; an event
        // id names one routine's day, so a log's id is looked for on its own day).
        let eventsBefore = try db.queryFirst("SELECT count(*) FROM sync_event_log") { $0.int(0) } ?? 0
        try db.run("""
            INSERT INTO sync_local_events (id, child, routine, set_id, date, kind, at, shown_title, shown_icon)
            SELECT l.id, s.child_id, l.routine_id, l.routine_set_id, l.date, 'press', l.completed_at,
                COALESCE(k.title, r.title), COALESCE(k.icon, r.icon)
            FROM daily_logs l JOIN routines r ON r.id = l.routine_id JOIN routine_sets s ON s.id = l.routine_set_id
            LEFT JOIN routine_looks k ON k.id = l.look_id
            WHERE l.status = 'completed' AND l.completed_at IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM sync_events e WHERE e.routine = l.routine_id AND e.day = \(SyncEventSQL.day("l.date"))
                    AND e.kind IN ('press', 'correctDone') AND e.at = l.completed_at)
                AND NOT EXISTS (SELECT 1 FROM sync_events e WHERE e.routine = l.routine_id AND e.day = \(SyncEventSQL.day("l.date"))
                    AND e.hi = \(SyncEventSQL.hi("l.id")) AND e.lo = \(SyncEventSQL.lo("l.id")))
            ORDER BY l.completed_at, l.id
            """)
        settled.eventsAdded = (try db.queryFirst("SELECT count(*) FROM sync_event_log") { $0.int(0) } ?? 0) - eventsBefore
        // Days an event decides otherwise than the restored log shows (a press after the backup, an
        // undo, a correction): decided again from every event of the day.
        let days = try db.query("""
            SELECT DISTINCT e.routine, e.date FROM sync_events e
            WHERE NOT EXISTS (SELECT 1 FROM daily_logs l WHERE l.routine_id = e.routine AND l.date = e.date
                AND l.status = 'completed' AND l.completed_at = e.at)
            """) { SyncView.DayKey(routine: $0.text(0), date: $0.text(1)) }
        touched.days.formUnion(days)
        settled.daysDecided = days.count
        let physical = db.syncMilliseconds
        try db.run("UPDATE sync_state SET applying = 1")
        (settled.conflicts, _) = try materialize(touched, physical: physical)
        try db.run("UPDATE sync_state SET applying = 0")
        return settled
    }
}

/// What settling a restore on the hub did.
struct SyncRestoreSettled: Equatable {
    /// Records the backup lacked, now deleted (children archived).
    var tombstones = 0
    /// The backup's completions logged as events.
    var eventsAdded = 0
    /// Days decided again from their events.
    var daysDecided = 0
    /// Records the tables could not take (`sync_conflicts`).
    var conflicts = 0
}
