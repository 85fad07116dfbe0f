import Foundation
import SteppieCore
import SteppieSync

/// A device's pull (docs/sync.md): the hub's entries are applied all together with the new cursor,
/// in one transaction, so a device killed at any moment either has a reply whole or not at all.
extension Store {
    package func syncPullRequest(physical: Int64, waitMilliseconds: Int = 0) throws -> PullRequest {
        try read {
            guard let state = try loadSyncState(), state.role == .device else { throw StoreError.syncOff }
            return PullRequest(device: state.device, sentAt: physical, cursor: state.cursor, waitMilliseconds: waitMilliseconds,
                               copyAfter: state.copyAfter)
        }
    }

    /// Applies a pull's reply (a fresh copy's days folded by its last page, `CopyPage`). Entries of children this device does not hold (nor made itself
    /// and still has waiting) are left out; stamps further ahead of this device's clock than twice
    /// the allowed offset mean a broken hub, and the whole reply is refused.
    @discardableResult
    package func syncPulled(_ reply: PullReply, physical: Int64) throws -> SyncApplied {
        try write {
            guard let state = try loadSyncState(), state.role == .device else { throw StoreError.syncOff }
            var clock = HybridClock(device: state.device, last: state.clock)
            for entry in reply.entries where entry.stamp.device != state.device {
                do {
                    try clock.observe(entry.stamp, physical: physical, maxAhead: 2 * SyncProtocol.maxClockOffsetMilliseconds)
                } catch let skew as ClockSkew {
                    throw StoreError.syncHubAhead(milliseconds: skew.offsetMilliseconds)
                }
            }
            if reply.freshCopy && state.copyAfter == nil && reply.cursor < state.cursor {
                // The hub's feed ends before what this device saw of it: it was put back in time.
                try syncHubWentBack(acknowledged: nil)
            }
            var children = Set(reply.children)
            children.formUnion(try db.query("SELECT DISTINCT child FROM sync_outbox") { $0.text(0) })
            // A fresh copy's days are decided once, when its last page comes (a device killed
            // between pages resumes from copyAfter, and that last page still decides them all).
            let copy: CopyPage? = reply.freshCopy ? (reply.copyAfter == nil ? .last(children: children.sorted()) : .more) : nil
            let entries = reply.entries.filter { children.contains($0.child) }
            // A copy's pages and its last page's days touch indexes at random places: kept in
            // memory rather than spilled to the WAL and read back (`Store.copyCacheKiB`).
            let applied = try copy == nil ? applySyncEntries(entries, physical: physical)
                : withBulkCache(kib: Store.copyCacheKiB) { try applySyncEntries(entries, physical: physical, copy: copy) }
            try db.run("""
                UPDATE sync_state SET cursor = ?, copy_after = ?, last_refusal = NULL, last_contact = ?, last_offset_ms = ?
                """, [.integer(Int64(clamping: reply.cursor)), .optionalText(reply.copyAfter), .integer(physical),
                      .integer(reply.hubTime - physical)])
            return applied
        }
    }

    /// This database's synced state, canonical and in a fixed order (every register, then every
    /// event), handed to `line` one record at a time: what `steppie sync digest` hashes, so two
    /// devices that hold the same children and agree print the same digest.
    package func syncCanonicalState(children: Set<String>? = nil, _ line: ([String]) -> Void) throws -> (registers: Int, events: Int) {
        try read {
            var registers = 0, events = 0
            for (entity, record, field, child, value, stamp) in try db.query("""
                SELECT entity, record, field, child, value, stamp FROM sync_registers ORDER BY entity, record, field
                """, [], { ($0.text(0), $0.text(1), $0.text(2), $0.text(3), $0.text(4), $0.text(5)) })
            where children?.contains(child) ?? true {
                line(SyncCanonical.register(entity: entity, record: record, field: field, child: child, value: value, stamp: stamp))
                registers += 1
            }
            // The events in id order, sorted narrow (the stored key's numbers and the decoded id,
            // date, kind and instant; not the texts they name, which are read once here).
            let targets = Dictionary(uniqueKeysWithValues: try db.query("SELECT id, child, routine, set_id FROM sync_event_targets") {
                ($0.int(0), [$0.text(1), $0.text(2), $0.text(3)])
            })
            let origins = Dictionary(uniqueKeysWithValues: try db.query("SELECT id, device FROM sync_event_origins") { ($0.int(0), $0.text(1)) })
            let canonical = { (text: String) in text.isEmpty ? text : (SyncJSON.value(text).map(SyncJSON.text) ?? text) }
            let looks = Dictionary(uniqueKeysWithValues: try db.query("SELECT id, title, icon FROM sync_event_looks") {
                ($0.int(0), [canonical($0.text(1)), canonical($0.text(2))])
            })
            let noLook = ["", ""]
            for row in try db.query("""
                SELECT \(SyncEventSQL.idText(hi: "e.hi", lo: "e.lo")) AS id, e.target, \(SyncEventSQL.dateText("e.day")),
                    \(SyncEventSQL.kindText("e.kind")), \(SyncEventSQL.atText(day: "e.day", ms: "e.at_ms", offset: "e.at_offset")),
                    printf('%015d-%08x-', e.wall, e.counter), e.origin, e.look
                FROM sync_event_log e ORDER BY id
                """, [], { r -> [String] in
                    guard let target = targets[r.int(1)], let device = origins[r.int(6)] else {
                        throw StoreError.corruptRow(table: "sync_event_log", id: r.text(0), reason: "target or origin")
                    }
                    let look = r.isNull(7) ? noLook : looks[r.int(7)] ?? noLook
                    return [r.text(0)] + target + [r.text(2), r.text(3), r.text(4), r.text(5) + device] + look
                })
            where children?.contains(row[1]) ?? true {
                line(SyncCanonical.event(row))
                events += 1
            }
            return (registers, events)
        }
    }
}
