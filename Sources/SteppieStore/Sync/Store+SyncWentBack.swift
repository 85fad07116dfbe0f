import Foundation
import SteppieCore
import SteppieSync

/// A hub restored from a backup older than what this device holds (docs/sync.md, "A hub put back
/// in time"): it acknowledges less than it once did, or its feed ends before this device's cursor.
/// The device sends everything it made again (a hub takes only a device's own stamps from it;
/// every device sends its own), each register and event with its stamp, so the hub takes back what it lost; what it kept it takes as a replay (`SyncDevice.hubWentBack`
/// is the reference).
extension Store {
    /// The highest sequence number the hub acknowledged, as this device knows it: entries leave
    /// the outbox when acknowledged, and numbers are handed out in order, so it is one below the
    /// oldest numbered entry still waiting (or below the next number when none waits).
    func syncKnownAcknowledged() throws -> UInt64 {
        UInt64(clamping: try db.queryFirst("""
            SELECT COALESCE((SELECT MIN(seq) FROM sync_outbox WHERE seq IS NOT NULL), next_seq) - 1 FROM sync_state
            """) { $0.int(0) } ?? 0)
    }

    /// Inside the caller's write transaction: every register and event this device made waits in
    /// the outbox again (after what already waits: a child's own fields first, then the rest by
    /// stamp). With the hub's number (`acknowledged`), every waiting entry is numbered again after
    /// it, a child's own fields first (the hub takes a child's entries only once the child is
    /// given, and the child it lost may be named by entries that wait), the rest as made; without
    /// (only the feed showed it), the next push's gap gives it. The feed is read again from its start.
    func syncHubWentBack(acknowledged: UInt64?) throws {
        try db.run("""
            INSERT OR IGNORE INTO sync_outbox (entity, record, field, child, value, stamp)
            SELECT entity, record, field, child, value, stamp FROM sync_registers r
            WHERE substr(stamp, -36) = (SELECT device_id FROM sync_state) AND NOT EXISTS (SELECT 1 FROM sync_outbox o WHERE o.event_id IS NULL AND o.entity = r.entity AND o.record = r.record
                              AND o.field = r.field AND o.stamp = r.stamp)
            ORDER BY entity = 'child' DESC, stamp
            """)
        try db.run("""
            INSERT INTO sync_outbox (child, stamp, event_id, event_target, event_day)
            SELECT child, stamp, id, target, day FROM sync_events e
            WHERE substr(stamp, -36) = (SELECT device_id FROM sync_state) AND NOT EXISTS (SELECT 1 FROM sync_outbox o WHERE o.event_id = e.id)
            ORDER BY stamp
            """)
        // Positions after the backup's are handed out again: this device may have seen other
        // entries at them. It reads the feed again from its start (what it has, it keeps).
        try db.run("UPDATE sync_state SET cursor = 0, copy_after = NULL")
        if let acknowledged {
            // Numbered here, in one pass (the numbers are unique, and an entry sent but not
            // acknowledged may wait beside a newer unsent edit of the same field, so nothing is
            // set back to unnumbered): first out of the way, then in their new order.
            let after = Int64(clamping: acknowledged)
            try db.run("UPDATE sync_outbox SET seq = -id")
            try db.run("""
                UPDATE sync_outbox SET seq = ?1 + o.n
                FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY entity IS 'child' DESC, id) AS n FROM sync_outbox) AS o
                WHERE o.id = sync_outbox.id
                """, [.integer(after)])
            try db.run("UPDATE sync_state SET next_seq = ?1 + 1 + (SELECT COUNT(*) FROM sync_outbox)", [.integer(after)])
        }
    }
}
