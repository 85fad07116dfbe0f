import Foundation
import SteppieCore
import SteppieSync

/// A device's outbox (docs/sync.md, "The protocol"): entries made here wait in `sync_outbox`
/// until the hub acknowledges them; each gets its sequence number when first sent, in the order
/// the entries were made, so a resent push is the same push.
extension Store {
    /// Entries waiting for the hub's acknowledgement.
    package func syncPendingCount() throws -> Int {
        try read { try db.queryFirst("SELECT COUNT(*) FROM sync_outbox") { $0.int(0) } ?? 0 }
    }

    /// The next push (nil when nothing waits): numbers the entries not sent yet, then takes the
    /// oldest `limit`. After the hub refused this device's clock, entries stamped further ahead
    /// of the (now right) clock than the hub allows are stamped again first, in their order.
    package func syncPushRequest(physical: Int64, limit: Int = SyncProtocol.maxBatchEntries) throws -> PushRequest? {
        // Nothing waiting is the usual answer (the service looks every 250 ms): found with a read,
        // so the look takes no write lock and commits nothing (a press never waits behind it).
        let waiting = try read {
            guard let state = try loadSyncState(), state.role == .device else { throw StoreError.syncOff }
            return try db.queryFirst("SELECT EXISTS (SELECT 1 FROM sync_outbox)") { $0.int(0) == 1 } ?? false
        }
        guard waiting else { return nil }
        return try write {
            guard let state = try loadSyncState(), state.role == .device else { throw StoreError.syncOff }
            let unsent = try db.query("SELECT id FROM sync_outbox WHERE seq IS NULL ORDER BY id") { Int64($0.int(0)) }
            if !unsent.isEmpty {
                var next = Int64(try db.queryFirst("SELECT next_seq FROM sync_state") { $0.int(0) } ?? 1)
                for id in unsent {
                    try db.run("UPDATE sync_outbox SET seq = ? WHERE id = ?", [.integer(next), .integer(id)])
                    next += 1
                }
                try db.run("UPDATE sync_state SET next_seq = ?", [.integer(next)])
            }
            let limitAhead = physical + SyncProtocol.maxClockOffsetMilliseconds
            if state.clockRefused, let newest = try db.queryFirst("SELECT MAX(stamp) FROM sync_outbox", [], { $0.optionalText(0) }) ?? nil,
               let stamp = HybridTimestamp(newest), stamp.wall > limitAhead {
                try restampOutbox(device: state.device, physical: physical)
            }
            let entries = try pendingEntries(limit: limit)
            guard !entries.isEmpty else { return nil }
            return PushRequest(device: state.device, sentAt: physical, entries: entries)
        }
    }

    /// The numbered entries waiting, oldest first.
    private func pendingEntries(limit: Int) throws -> [NumberedEntry] {
        try db.query("""
            SELECT o.seq, o.entity, o.record, o.field, o.child, o.value, o.stamp, \(SyncEventSQL.columns())
            FROM sync_outbox o LEFT JOIN sync_event_log e ON e.target = o.event_target AND e.day = o.event_day
                AND e.hi = \(SyncEventSQL.hi("o.event_id")) AND e.lo = \(SyncEventSQL.lo("o.event_id"))
                LEFT JOIN sync_event_targets t ON t.id = e.target LEFT JOIN sync_event_origins g ON g.id = e.origin
                LEFT JOIN sync_event_looks k ON k.id = e.look
            WHERE o.seq IS NOT NULL ORDER BY o.seq LIMIT ?
            """, [.int(limit)]) { r in
            let seq = UInt64(clamping: r.int(0))
            guard let stamp = HybridTimestamp(r.text(6)) else {
                throw StoreError.corruptRow(table: "sync_outbox", id: String(seq), reason: "stamp")
            }
            if r.isNull(7) {
                guard let entity = SyncEntity(rawValue: r.text(1)), let value = SyncJSON.value(r.text(5)) else {
                    throw StoreError.corruptRow(table: "sync_outbox", id: String(seq), reason: "entity or value")
                }
                return NumberedEntry(seq: seq, entry: .change(FieldChange(entity: entity, record: r.text(2), child: r.text(4),
                                                                          field: r.text(3), value: value, stamp: stamp)))
            }
            guard let kind = CompletionEvent.Kind(rawValue: r.text(12)) else {
                throw StoreError.corruptRow(table: "sync_events", id: r.text(7), reason: "kind")
            }
            return NumberedEntry(seq: seq, entry: .event(CompletionEvent(
                id: r.text(7), child: r.text(4), routine: r.text(9), set: r.text(10), date: r.text(11), kind: kind, at: r.text(13),
                stamp: stamp, shownTitle: r.optionalText(15).flatMap(SyncJSON.value), shownIcon: r.optionalText(16).flatMap(SyncJSON.value))))
        }
    }

    /// The hub took the entries through `reply.acknowledged`: they leave the outbox.
    package func syncPushed(_ reply: PushReply, physical: Int64) throws {
        try write {
            if reply.acknowledged < (try syncKnownAcknowledged()) {
                // The hub acknowledges less than it once did: it was put back in time.
                try syncHubWentBack(acknowledged: reply.acknowledged)
            }
            try db.run("DELETE FROM sync_outbox WHERE seq IS NOT NULL AND seq <= ?", [.integer(Int64(clamping: reply.acknowledged))])
            try db.run("""
                UPDATE sync_state SET last_refusal = NULL, clock_refused = 0, last_contact = ?, last_offset_ms = ?
                """, [.integer(physical), .integer(reply.hubTime - physical)])
        }
    }

    /// The hub refused a request: kept for the status page; a clock refusal marks the entries
    /// stamped meanwhile to be stamped again once the clock is right.
    package func syncRefused(_ refusal: SyncRefusal, physical: Int64) throws {
        let text = String(decoding: try JSONEncoder().encode(refusal), as: UTF8.self)
        let clock: Bool = switch refusal {
        case .clockSkew, .malformed(reason: SyncRules.stampAhead): true
        default: false
        }
        try write {
            if case .gap(let expected) = refusal, expected <= (try syncKnownAcknowledged()) {
                // A gap below what the hub acknowledged before: it was put back in time.
                try syncHubWentBack(acknowledged: expected - 1)
            }
            var offset: SQLValue = .null
            if case .clockSkew(let ms) = refusal { offset = .integer(-ms) }
            try db.run("""
                UPDATE sync_state SET last_refusal = ?, clock_refused = MAX(clock_refused, ?), last_contact = ?,
                    last_offset_ms = COALESCE(?, last_offset_ms)
                """, [.text(text), .bool(clock), .integer(physical), offset])
        }
    }

    /// Stamps every waiting entry again, in its order, from a clock restarted after the latest
    /// stamp that left this device or came to it (SyncDevice.restamp is the reference).
    private func restampOutbox(device: DeviceID, physical: Int64) throws {
        let kept = try db.queryFirst("""
            SELECT MAX(s) FROM (SELECT MAX(stamp) AS s FROM sync_registers WHERE stamp NOT IN (SELECT stamp FROM sync_outbox)
                UNION ALL SELECT MAX(stamp) FROM sync_events WHERE stamp NOT IN (SELECT stamp FROM sync_outbox))
            """) { $0.optionalText(0) } ?? nil
        var clock = HybridClock(device: device)
        clock.reset(to: max(HybridTimestamp(wall: physical, counter: 0, device: device), kept.flatMap(HybridTimestamp.init)
            ?? HybridTimestamp(wall: 0, counter: 0, device: device)))
        let rows = try db.query("""
            SELECT id, stamp, event_id, entity, record, field, event_target, event_day FROM sync_outbox ORDER BY COALESCE(seq, 9e18), id
            """) { ($0.int(0), $0.text(1), $0.optionalText(2), $0.optionalText(3), $0.optionalText(4), $0.optionalText(5), $0.value(6), $0.value(7)) }
        try db.run("INSERT INTO sync_event_origins (device) VALUES (?) ON CONFLICT DO NOTHING", [.text(device.text)])
        for (id, old, event, entity, record, field, target, day) in rows {
            let next = clock.tick(physical: physical)
            let stamp = SQLValue.text(next.description)
            try db.run("UPDATE sync_outbox SET stamp = ? WHERE id = ?", [stamp, .integer(Int64(id))])
            if let event {
                try db.run("""
                    UPDATE sync_event_log SET wall = ?1, counter = ?2, origin = (SELECT id FROM sync_event_origins WHERE device = ?3)
                    WHERE target = ?4 AND day = ?5 AND hi = \(SyncEventSQL.hi("?6")) AND lo = \(SyncEventSQL.lo("?6"))
                    """, [.integer(next.wall), .integer(Int64(next.counter)), .text(next.device.text), target, day, .text(event)])
            } else if let entity, let record, let field {
                try db.run("UPDATE sync_registers SET stamp = ? WHERE entity = ? AND record = ? AND field = ? AND stamp = ?",
                           [stamp, .text(entity), .text(record), .text(field), .text(old)])
            }
        }
        try db.run("UPDATE sync_state SET clock_wall = ?, clock_counter = ?",
                   [.integer(clock.last.wall), .integer(Int64(clock.last.counter))])
    }
}
