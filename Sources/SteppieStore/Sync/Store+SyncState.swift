import Foundation
import SteppieCore
import SteppieSync

/// This database's side of sync as stored in `sync_state` (docs/sync.md).
package struct SyncState: Equatable, Sendable {
    package enum Role: String, Sendable { case device, hub }

    package let role: Role
    package let device: DeviceID
    package let clock: HybridTimestamp
    package let hubURL: String?
    package let hubFingerprint: String?
    package let hubDevice: DeviceID?
    package let credential: String?
    package let cursor: UInt64
    package let copyAfter: String?
    package let clockRefused: Bool
    package let lastRefusal: SyncRefusal?
    /// Milliseconds since 1970 of the last answer from the hub (a device).
    package let lastContact: Int64?
    /// The hub's clock minus this device's, as last measured (a device).
    package let lastOffsetMilliseconds: Int64?
}

extension Store {
    /// Sets the clock the sync triggers stamp with (the routine's clock: `STEPPIE_NOW` moves it,
    /// so a device with a wrong clock can be tested).
    public func setSyncClock(_ now: @escaping () -> Date) {
        db.setSyncClock { SyncProtocol.milliseconds(now()) }
    }

    /// Commits on this connection stop waiting for the disk (`synchronous=NORMAL` in WAL mode): for
    /// the sync agent's own connection only. Everything it writes can be had again from the hub —
    /// an acknowledgement lost to a power cut means entries pushed again, which the hub takes once
    /// by (device, number); entries pulled are committed with their cursor, so they are lost and
    /// pulled again together — and the next commit of a press or an edit (`synchronous=FULL` on
    /// their connections) makes the whole log durable, the agent's writes before it included. A
    /// press that met the agent's commit waited for its fsync as well as its own.
    package func relaxCommitSync() throws {
        try db.execute("PRAGMA synchronous = NORMAL")
    }

    /// This database's side of sync, nil when it never joined nor became a hub.
    package func syncState() throws -> SyncState? {
        try read { try loadSyncState() }
    }

    func loadSyncState() throws -> SyncState? {
        try db.queryFirst("""
            SELECT role, device_id, clock_wall, clock_counter, hub_url, hub_fingerprint, hub_device_id, credential, cursor,
                copy_after, clock_refused, last_refusal, last_contact, last_offset_ms FROM sync_state
            """) { r -> SyncState in
            guard let role = SyncState.Role(rawValue: r.text(0)), let device = DeviceID(r.text(1)) else {
                throw StoreError.corruptRow(table: "sync_state", id: "singleton", reason: "role or device id")
            }
            let refusal = r.optionalText(11).flatMap { try? JSONDecoder().decode(SyncRefusal.self, from: Data($0.utf8)) }
            return SyncState(role: role, device: device,
                             clock: HybridTimestamp(wall: Int64(r.int(2)), counter: UInt32(clamping: r.int(3)), device: device),
                             hubURL: r.optionalText(4), hubFingerprint: r.optionalText(5), hubDevice: r.optionalText(6).flatMap(DeviceID.init),
                             credential: r.optionalText(7), cursor: UInt64(clamping: r.int(8)), copyAfter: r.optionalText(9),
                             clockRefused: r.int(10) == 1, lastRefusal: refusal,
                             lastContact: r.isNull(12) ? nil : Int64(r.int(12)), lastOffsetMilliseconds: r.isNull(13) ? nil : Int64(r.int(13)))
        }
    }

    /// Makes this database the hub of a household: every row becomes a register (the store of
    /// record) and every completion and correction an event, stamped now, in bulk and not in the
    /// feed. Refused when it already syncs.
    package func becomeSyncHub(device: DeviceID, at now: Date) throws {
        try write {
            guard try loadSyncState() == nil else { throw StoreError.syncAlreadyOn }
            try db.run("INSERT INTO sync_state (id, role, device_id, joined_at, clock_offset_ms) VALUES ('singleton', 'hub', ?, ?, ?)",
                       [.text(device.text), stamp(now), .integer(db.syncClockOffset)])
            try logEverythingAsHub(device: device)
        }
    }

    /// Joins a hub as a device: every row of this device becomes a register and waits in the
    /// outbox (its children go to the hub with the first push). Refused when it already syncs.
    /// Its pulls ask for a fresh copy from the start (`copy_after` `''`) until one is taken whole,
    /// so a first answer lost on the way (a kill, a dropped connection) never leaves it reading the
    /// feed without the copy.
    package func joinSyncHub(device: DeviceID, hubURL: String, fingerprint: String, hubDevice: DeviceID, credential: String,
                             at now: Date) throws {
        try write {
            guard try loadSyncState() == nil else { throw StoreError.syncAlreadyOn }
            try db.run("""
                INSERT INTO sync_state (id, role, device_id, hub_url, hub_fingerprint, hub_device_id, credential, joined_at, clock_offset_ms,
                    copy_after)
                VALUES ('singleton', 'device', ?, ?, ?, ?, ?, ?, ?, '')
                """, [.text(device.text), .text(hubURL), .text(fingerprint), .text(hubDevice.text), .text(credential), stamp(now),
                      .integer(db.syncClockOffset)])
            try logEverything()
        }
    }

    /// Leaves sync: the data stays as it is, the sync metadata goes (a new join starts afresh).
    package func leaveSync() throws {
        try write {
            try db.execute("""
                DELETE FROM sync_outbox; DELETE FROM sync_event_log; DELETE FROM sync_event_targets; DELETE FROM sync_event_looks;
                DELETE FROM sync_event_origins; DELETE FROM sync_registers; DELETE FROM sync_feed;
                DELETE FROM sync_devices; DELETE FROM sync_invites; DELETE FROM sync_join_attempts; DELETE FROM sync_conflicts;
                DELETE FROM sync_state;
                """)
        }
        // A fresh copy's file this device was fetching is of no use now.
        Store.removeCopyFiles(databasePath: path)
    }

    /// Deletes the fresh copies' files fetched beside a database (`<database>.copy-<name>`), but
    /// the one at `keeping`.
    package static func removeCopyFiles(databasePath: String, keeping: String? = nil) {
        let url = URL(fileURLWithPath: databasePath)
        let prefix = url.lastPathComponent + ".copy-"
        let folder = url.deletingLastPathComponent().path
        let kept = keeping.map { URL(fileURLWithPath: $0).lastPathComponent }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(prefix) && name != kept {
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }

    /// Every row of the synced tables as register writes `(entity, record, child, field, value)`,
    /// each a SELECT, in the order the rows were made (the join's and the hub's baseline).
    private static var baselineWrites: [String] {
        var selects: [String] = []
        for table in SyncColumns.tables {
            for field in table.fields {
                selects.append("""
                    SELECT '\(table.entity.rawValue)', R.id, \(table.child("R")), '\(field.name)', \(field.json("R"))
                    FROM \(table.table) AS R ORDER BY R.created_at, R.id
                    """)
            }
        }
        // Recordings with a content hash (schema v11), every field.
        for (field, json) in [("routine", "json_quote(R.routine_id)"), ("locale", "json_quote(R.locale)"), ("sha256", "json_quote(R.sha256)"),
                              ("durationMs", "json_quote(R.duration_ms)"), ("deleted", "'false'")] {
            selects.append("""
                SELECT 'recording', R.routine_id || '/' || R.locale,
                    (SELECT s.child_id FROM routines r JOIN routine_sets s ON s.id = r.routine_set_id WHERE r.id = R.routine_id),
                    '\(field)', \(json) FROM routine_recordings AS R WHERE R.sha256 IS NOT NULL ORDER BY R.rowid
                """)
        }
        selects.append("SELECT 'routineSet', S.id, S.child_id, 'order', \(SyncColumns.order(set: "S.id")) FROM routine_sets AS S")
        selects.append("SELECT 'child', S.child_id, S.child_id, 'activeSet', json_quote(S.id) FROM routine_sets AS S WHERE S.is_active = 1")
        selects.append("""
            SELECT DISTINCT 'schedule', C.child_id, C.child_id, 'slots', \(SyncColumns.schedule(child: "C.child_id")) FROM set_schedules AS C
            """)
        return selects
    }

    /// Every completion and correction as an event (`id, child, routine, set_id, date, kind, at,
    /// shown_title, shown_icon`, and `t`, the instant they are ordered by).
    private static let baselineEvents = """
        SELECT l.id, s.child_id AS child, l.routine_id AS routine, l.routine_set_id AS set_id, l.date, 'press' AS kind,
            l.completed_at AS at, COALESCE(k.title, r.title) AS shown_title, COALESCE(k.icon, r.icon) AS shown_icon, l.completed_at AS t
        FROM daily_logs l JOIN routines r ON r.id = l.routine_id JOIN routine_sets s ON s.id = l.routine_set_id
        LEFT JOIN routine_looks k ON k.id = l.look_id
        WHERE l.status = 'completed'
        UNION ALL
        SELECT c.id, s.child_id, c.routine_id, r.routine_set_id, c.date, CASE c.done WHEN 1 THEN 'correctDone' ELSE 'correctUndone' END,
            c.made_at, NULL, NULL, c.made_at
        FROM log_corrections c JOIN routines r ON r.id = c.routine_id JOIN routine_sets s ON s.id = r.routine_set_id
        """

    /// A joining device's baseline: every row logged as if it had just been written, then every
    /// completion and correction as an event, oldest first, through the views the triggers use (so
    /// each waits in the outbox, stamped in order).
    private func logEverything() throws {
        for select in Store.baselineWrites {
            try db.execute("INSERT INTO sync_local_writes \(select)")
        }
        try db.execute("""
            INSERT INTO sync_local_events (id, child, routine, set_id, date, kind, at, shown_title, shown_icon)
            SELECT id, child, routine, set_id, date, kind, at, shown_title, shown_icon FROM (\(Store.baselineEvents)) ORDER BY t, id;
            """)
    }

    /// The hub's baseline: the same registers and events written straight, in bulk, and not to the
    /// feed (a device that joins gets a fresh copy from the registers; nothing would ever read
    /// those feed entries). Every register takes the stamp `(now, 0, hub)`, the events
    /// `(now, 1…n, hub)` in their order (the counter carries into the milliseconds past 16,777,215),
    /// and the hub's clock continues after the last.
    private func logEverythingAsHub(device: DeviceID) throws {
        let wall = db.syncMilliseconds
        let hub = SQLValue.text(device.text)
        for select in Store.baselineWrites {
            try db.run("""
                INSERT INTO sync_registers (entity, record, child, field, value, stamp)
                SELECT *, printf('%015d-%08x-%s', ?, 0, ?) FROM (\(select)) WHERE true
                ON CONFLICT (entity, record, field) DO UPDATE SET value = excluded.value, child = excluded.child
                """, [.integer(wall), hub])
        }
        for statement in Store.hubBaselineEvents {
            try db.run(statement, [.integer(wall), hub])
        }
        let events = Int64(try db.queryFirst("SELECT count(*) FROM sync_event_log") { $0.int(0) } ?? 0)
        try db.run("UPDATE sync_state SET clock_wall = ?, clock_counter = ?",
                   [.integer(wall + events / 16_777_216), .integer(events % 16_777_216)])
    }

    /// The hub's baseline events, stamped `(?1 + n / 16777216, n % 16777216, ?2)` in their order.
    private static let hubBaselineEvents = SyncEventSQL.insert(from: """
        SELECT id, child, routine, set_id, date, kind, at, json(shown_title) AS shown_title, json(shown_icon) AS shown_icon,
            ?1 + n / 16777216 AS w, n % 16777216 AS c, ?2 AS d
        FROM (SELECT *, row_number() OVER (ORDER BY t, id) AS n FROM (\(baselineEvents)))
        """, dictionary: """
        SELECT routine, set_id, child, json(shown_title) AS shown_title, json(shown_icon) AS shown_icon, ?2 AS d FROM (\(baselineEvents))
        """)

    /// Logs a press, an undo or a correction made here (inside the edit's own transaction; nothing
    /// when this database does not sync). What the card showed is the routine's look now.
    func logSyncEvent(id: String, routineId: UUID, day: LocalDay, kind: String, at now: Date, shown: Bool) throws {
        try db.run("""
            INSERT INTO sync_local_events (id, child, routine, set_id, date, kind, at, shown_title, shown_icon)
            SELECT ?, s.child_id, r.id, r.routine_set_id, ?, ?, ?, CASE WHEN ? THEN r.title END, CASE WHEN ? THEN r.icon END
            FROM routines r JOIN routine_sets s ON s.id = r.routine_set_id WHERE r.id = ?
            """, [.text(id), .text(day.description), .text(kind), stamp(now), .bool(shown), .bool(shown), .text(routineId.lowercased)])
    }
}
