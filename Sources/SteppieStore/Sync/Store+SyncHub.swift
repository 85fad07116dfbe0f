import Foundation
import SteppieCore
import SteppieSync

/// The hub's side on SQLite (docs/sync.md): its registers are the store of record, `sync_feed`
/// the entries in the order it took them. Every push and pull is decided as `HubFeed` (the
/// reference model) decides it; a refusal (`SyncRefusal`) leaves the database unchanged.
extension Store {
    /// A device joined to this hub, as the guardian sees it.
    package struct SyncHubDevice: Equatable, Sendable {
        package let id: DeviceID
        package let name: String
        package let children: [String]
        package let acknowledged: UInt64
        package let cursor: UInt64
        package let lastContact: Int64?
        package let lastOffsetMilliseconds: Int64?
    }

    /// What a successful join gives the device.
    package struct SyncJoined: Equatable, Sendable {
        package let hub: DeviceID
        package let children: [String]
    }

    /// Failed joins within this window are counted; after `maxJoinFailures` every code waits.
    package static let joinWindowMilliseconds: Int64 = 10 * 60 * 1000
    package static let maxJoinFailures = 10

    func hubState() throws -> SyncState {
        guard let state = try loadSyncState(), state.role == .hub else { throw StoreError.syncOff }
        return state
    }

    /// Stores a joining code (its SHA-256 only) for these children, valid until `expiresAt`.
    package func syncHubInvite(codeHash: String, children: [String], expiresAt: Int64) throws {
        try write {
            _ = try hubState()
            try db.run("INSERT INTO sync_invites (code_hash, children, expires_at) VALUES (?, ?, ?)",
                       [.text(codeHash), .text(SyncJSON.text(.array(children.sorted().map(SyncValue.string)))), .integer(expiresAt)])
        }
    }

    /// A device joins with a code: refused (`unknownDevice`) for a wrong, used or expired code, and
    /// for every code once `maxJoinFailures` wrong ones came within the window (a guessed code).
    package func syncHubJoin(codeHash: String, device: DeviceID, name: String, credentialHash: String, now: Int64) throws -> SyncJoined {
        let outcome: Result<SyncJoined, SyncRefusal> = try write {
            let state = try hubState()
            try db.run("DELETE FROM sync_join_attempts WHERE at < ?", [.integer(now - Store.joinWindowMilliseconds)])
            let failures = try db.queryFirst("SELECT COUNT(*) FROM sync_join_attempts") { $0.int(0) } ?? 0
            guard failures < Store.maxJoinFailures else { return .failure(.joinLocked) }
            guard let (invite, children) = try db.queryFirst("""
                SELECT id, children FROM sync_invites WHERE code_hash = ? AND used = 0 AND expires_at > ?
                """, [.text(codeHash), .integer(now)], { (Int64($0.int(0)), SyncJSON.value($0.text(1))?.strings ?? []) }) else {
                try db.run("INSERT INTO sync_join_attempts (at) VALUES (?)", [.integer(now)])
                return .failure(.unknownDevice)
            }
            guard try db.queryFirst("SELECT 1 FROM sync_devices WHERE id = ?", [.text(device.text)], { _ in true }) == nil,
                  device != state.device else { return .failure(.malformed(reason: "device id in use")) }
            try db.run("UPDATE sync_invites SET used = 1 WHERE id = ?", [.integer(invite)])
            try db.run("""
                INSERT INTO sync_devices (id, name, credential_hash, children, joined_at, last_contact) VALUES (?, ?, ?, ?, ?, ?)
                """, [.text(device.text), .text(String(name.prefix(60))), .text(credentialHash),
                      .text(SyncJSON.text(.array(children.map(SyncValue.string)))),
                      stamp(Date(timeIntervalSince1970: Double(now) / 1000)), .integer(now)])
            return .success(SyncJoined(hub: state.device, children: children))
        }
        return try outcome.get()
    }

    /// The devices joined to this hub.
    package func syncHubDevices() throws -> [SyncHubDevice] {
        try read {
            try db.query("""
                SELECT id, name, children, acknowledged, cursor, last_contact, last_offset_ms FROM sync_devices ORDER BY joined_at, id
                """) { r in
                guard let id = DeviceID(r.text(0)) else { throw StoreError.corruptRow(table: "sync_devices", id: r.text(0), reason: "id") }
                return SyncHubDevice(id: id, name: r.text(1), children: SyncJSON.value(r.text(2))?.strings ?? [],
                                     acknowledged: UInt64(clamping: r.int(3)), cursor: UInt64(clamping: r.int(4)),
                                     lastContact: r.isNull(5) ? nil : Int64(r.int(5)), lastOffsetMilliseconds: r.isNull(6) ? nil : Int64(r.int(6)))
            }
        }
    }

    /// Removes a device: its credential stops working at once. False when there was none.
    @discardableResult
    package func syncHubRemove(device: DeviceID) throws -> Bool {
        try write {
            _ = try hubState()
            try db.run("DELETE FROM sync_devices WHERE id = ?", [.text(device.text)])
            return db.changes == 1
        }
    }

    /// Gives a device these children (its next pull is a fresh copy of them).
    package func syncHubGrant(device: DeviceID, children: [String]) throws {
        try write {
            _ = try hubState()
            try db.run("UPDATE sync_devices SET children = ?, needs_copy = 1 WHERE id = ?",
                       [.text(SyncJSON.text(.array(Set(children).sorted().map(SyncValue.string)))), .text(device.text)])
        }
    }

    /// The device's children, after checking its credential, version and clock.
    func admit(_ device: DeviceID, credentialHash: String, protocolVersion: Int, sentAt: Int64, now: Int64)
        throws -> Result<(children: Set<String>, acknowledged: UInt64, needsCopy: Bool), SyncRefusal> {
        guard protocolVersion == SyncProtocol.version else {
            return .failure(.protocolVersion(hub: SyncProtocol.version, device: protocolVersion))
        }
        guard let row = try db.queryFirst("SELECT credential_hash, children, acknowledged, needs_copy FROM sync_devices WHERE id = ?",
                                          [.text(device.text)], { ($0.text(0), $0.text(1), UInt64(clamping: $0.int(2)), $0.int(3) == 1) }),
              Self.equalHashes(row.0, credentialHash) else { return .failure(.unknownDevice) }
        let offset = sentAt - now
        try db.run("UPDATE sync_devices SET last_contact = ?, last_offset_ms = ? WHERE id = ?",
                   [.integer(now), .integer(offset), .text(device.text)])
        guard abs(offset) <= SyncProtocol.maxClockOffsetMilliseconds else { return .failure(.clockSkew(offsetMilliseconds: offset)) }
        return .success((Set(SyncJSON.value(row.1)?.strings ?? []), row.2, row.3))
    }

    /// Compares two hex hashes without stopping at the first difference.
    static func equalHashes(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Takes a device's entries after its acknowledged ones, all or none (`HubFeed.push`). The
    /// contact time and clock offset are kept even when the push is refused.
    package func syncHubPush(_ request: PushRequest, credentialHash: String, now: Int64) throws -> Result<PushReply, SyncRefusal> {
        try write {
            _ = try hubState()
            let admitted = try admit(request.device, credentialHash: credentialHash, protocolVersion: request.protocolVersion,
                                     sentAt: request.sentAt, now: now)
            guard case .success(let device) = admitted else { return admitted.map { _ in PushReply(acknowledged: 0, hubTime: now) } }
            var children = device.children
            guard request.entries.count <= SyncProtocol.maxBatchEntries else { return .failure(.tooLarge) }
            let fresh: [SyncEntry], through: UInt64
            do throws(SyncRefusal) {
                (fresh, through) = try SyncRules.fresh(request.entries, after: device.acknowledged)
            } catch {
                return .failure(error)
            }
            var owners = try knownOwners(of: fresh)
            for entry in fresh {
                if case .change(let change) = entry, change.entity == .child, owners[change.key] == nil {
                    // A child made on this device (a record the hub has never seen) is the device's own.
                    children.insert(change.record)
                }
                do {
                    try SyncRules.check(entry, from: request.device, children: children, owners: &owners, now: now)
                } catch let refusal as SyncRefusal {
                    return .failure(refusal)
                }
            }
            // The triggers log nothing while applying: the feed gets the device's entries as sent.
            let applied = try applySyncEntries(fresh, physical: now)
            for entry in fresh {
                try db.run("INSERT INTO sync_feed (origin, child, taken_at, entry) VALUES (?, ?, ?, ?)",
                           [.text(request.device.text), .text(entry.child), .integer(now), .text(Self.json(entry))])
            }
            // After the device's entries: the hub's own rename of a child whose name was taken.
            try settleChildNameConflicts(applied.conflictedChildren, physical: now)
            try db.run("UPDATE sync_devices SET acknowledged = ?, children = ? WHERE id = ?",
                       [.integer(Int64(clamping: through)), .text(SyncJSON.text(.array(children.sorted().map(SyncValue.string)))),
                        .text(request.device.text)])
            return .success(PushReply(acknowledged: through, hubTime: now))
        }
    }

    /// The owners the hub knows of every record an entry names or points at.
    private func knownOwners(of entries: [SyncEntry]) throws -> [RecordKey: String] {
        var keys: Set<RecordKey> = []
        for entry in entries {
            switch entry {
            case .change(let c):
                keys.insert(c.key)
                switch (c.entity, c.field) {
                case (.routine, "set"), (.child, "activeSet"): if let s = c.value.string { keys.insert(RecordKey(.routineSet, s)) }
                case (.recording, "routine"): if let r = c.value.string { keys.insert(RecordKey(.routine, r)) }
                default: break
                }
            case .event(let e): keys.insert(RecordKey(.routine, e.routine))
            }
        }
        var owners: [RecordKey: String] = [:]
        for key in keys {
            if let owner = try db.queryFirst("SELECT child FROM sync_registers WHERE entity = ? AND record = ? LIMIT 1",
                                             [.text(key.entity.rawValue), .text(key.id)], { $0.text(0) }) {
                owners[key] = owner
            }
        }
        return owners
    }

    static func json(_ entry: SyncEntry) -> String {
        SyncProtocol.encode(entry).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The position of the newest entry in the feed (what a long poll waits to pass).
    package func syncHubPosition() throws -> UInt64 {
        try read { UInt64(clamping: try db.queryFirst("SELECT COALESCE(MAX(position), 0) FROM sync_feed") { $0.int(0) } ?? 0) }
    }

    /// The feed after the cursor for the device's children (`HubFeed.pull`), or a page of a fresh
    /// copy from the registers when the device needs one.
    package func syncHubPull(_ request: PullRequest, credentialHash: String, now: Int64,
                             limit: Int = SyncProtocol.maxBatchEntries) throws -> Result<PullReply, SyncRefusal> {
        try write {
            let state = try hubState()
            let admitted = try admit(request.device, credentialHash: credentialHash, protocolVersion: request.protocolVersion,
                                     sentAt: request.sentAt, now: now)
            guard case .success(let device) = admitted else {
                return admitted.map { _ in PullReply(entries: [], cursor: 0, more: false, freshCopy: false, children: [], hubTime: now) }
            }
            let children = device.children, needsCopy = device.needsCopy
            let sorted = children.sorted()
            let position = UInt64(clamping: try db.queryFirst("SELECT COALESCE(MAX(position), 0) FROM sync_feed") { $0.int(0) } ?? 0)
            let forgotten = UInt64(clamping: try db.queryFirst("SELECT forgotten_through FROM sync_state") { $0.int(0) } ?? 0)
            // A cursor past the feed's end: this hub was put back in time (`HubFeed.pull`).
            let due = SyncProtocol.copyDue(cursor: request.cursor, needsCopy: needsCopy, forgotten: forgotten, position: position)
            switch SyncProtocol.copyStep(request.copyAfter, cursor: request.cursor, children: sorted, due: due, position: position) {
            case .feed:
                break
            case .taken(let cursor):
                // Only now is the copy no longer due: a copy whose answer was lost is given again.
                try db.run("UPDATE sync_devices SET needs_copy = 0, cursor = ? WHERE id = ?",
                           [.integer(Int64(clamping: cursor)), .text(request.device.text)])
                return .success(PullReply(entries: [], cursor: cursor, more: false, freshCopy: true, children: sorted, hubTime: now))
            case .page(let after, let cursor):
                let page = try copyPage(children: sorted, after: after, limit: limit)
                let next = SyncProtocol.copyAfterPage(children: sorted, lastKey: page.last?.key, done: page.count < limit, due: needsCopy)
                try db.run("UPDATE sync_devices SET cursor = ? WHERE id = ?", [.integer(Int64(clamping: cursor)), .text(request.device.text)])
                return .success(PullReply(entries: page.map(\.entry), cursor: cursor, more: next != nil, freshCopy: true,
                                          copyAfter: next, children: sorted, hubTime: now))
            }
            var entries: [SyncEntry] = []
            var cursor = request.cursor
            scan: while true {
                let rows = try db.query("SELECT position, origin, child, entry FROM sync_feed WHERE position > ? ORDER BY position LIMIT 500",
                                        [.integer(Int64(clamping: cursor))]) { (UInt64(clamping: $0.int(0)), $0.text(1), $0.text(2), $0.text(3)) }
                if rows.isEmpty { break }
                for (at, origin, child, text) in rows {
                    if entries.count == limit { break scan }
                    cursor = at
                    guard origin != request.device.text, children.contains(child) else { continue }
                    guard let entry = try? SyncWireReader.decode(SyncEntry.self, from: Data(text.utf8)) else {
                        throw StoreError.corruptRow(table: "sync_feed", id: String(at), reason: "entry")
                    }
                    entries.append(entry)
                }
            }
            _ = state
            try db.run("UPDATE sync_devices SET cursor = ? WHERE id = ?", [.integer(Int64(clamping: cursor)), .text(request.device.text)])
            return .success(PullReply(entries: entries, cursor: cursor, more: cursor < position, freshCopy: false,
                                      children: sorted, hubTime: now))
        }
    }

    /// A page of the fresh copy of some children: every register (keyed `entity/record/field`),
    /// then every event (keyed `~[target, day, hi, lo]`, `sync_event_log`'s key), in key order after `after`.
    private func copyPage(children: [String], after: String, limit: Int) throws -> [(key: String, entry: SyncEntry)] {
        guard !children.isEmpty else { return [] }
        let list = SQLValue.text(SyncJSON.text(.array(children.map(SyncValue.string))))
        var page: [(key: String, entry: SyncEntry)] = []
        if !after.hasPrefix("~") {
            page = try db.query("""
                SELECT entity || '/' || record || '/' || field AS k, entity, record, field, child, value, stamp FROM sync_registers
                WHERE child IN (SELECT value FROM json_each(?)) AND entity || '/' || record || '/' || field > ?
                ORDER BY k LIMIT ?
                """, [list, .text(after), .int(limit)]) { r in
                guard let entity = SyncEntity(rawValue: r.text(1)), let value = SyncJSON.value(r.text(5)),
                      let stamp = HybridTimestamp(r.text(6)) else {
                    throw StoreError.corruptRow(table: "sync_registers", id: r.text(0), reason: "entity, value or stamp")
                }
                return (r.text(0), .change(FieldChange(entity: entity, record: r.text(2), child: r.text(4), field: r.text(3),
                                                       value: value, stamp: stamp)))
            }
        }
        guard page.count < limit else { return page }
        // Then the events, in the order of their key (target, day, id: `sync_event_log`'s primary
        // key, read as ranges of each of the children's targets), keyed `~[target, day, hi, lo]`.
        // (A key of another form, an id from before schema v12, starts the events again: taking
        // an event twice changes nothing.)
        var from = after.hasPrefix("~") ? Self.eventKey(String(after.dropFirst())) : nil
        let targets = try db.query("""
            SELECT id FROM sync_event_targets WHERE child IN (SELECT value FROM json_each(?)) ORDER BY id
            """, [list]) { Int64($0.int(0)) }
        for target in targets where page.count < limit {
            if let key = from, case .integer(let at) = key[0], target < at { continue }
            var rest: [SQLValue] = [.integer(target), .int(limit - page.count)]
            var range = ""
            if let key = from, key[0] == .integer(target) {
                range = "AND (e.day, e.hi, e.lo) > (?3, ?4, ?5)"
                rest += key.dropFirst()
            }
            from = nil
            page += try db.query("""
                SELECT \(SyncEventSQL.columns()), e.day, e.hi, e.lo FROM \(SyncEventSQL.joined)
                WHERE e.target = ?1 \(range) ORDER BY e.day, e.hi, e.lo LIMIT ?2
                """, rest) { r in
                guard let kind = CompletionEvent.Kind(rawValue: r.text(5)), let stamp = HybridTimestamp(r.text(7)) else {
                    throw StoreError.corruptRow(table: "sync_events", id: r.text(0), reason: "kind or stamp")
                }
                let key = Self.eventKey([.integer(target), r.value(10), r.value(11), r.value(12)])
                return ("~" + key, .event(CompletionEvent(id: r.text(0), child: r.text(1), routine: r.text(2), set: r.text(3),
                                                          date: r.text(4), kind: kind, at: r.text(6), stamp: stamp,
                                                          shownTitle: r.optionalText(8).flatMap(SyncJSON.value),
                                                          shownIcon: r.optionalText(9).flatMap(SyncJSON.value))))
            }
        }
        return page
    }

    /// An event's copy key as text (a JSON array of its stored key's integers and texts), and back.
    static func eventKey(_ values: [SQLValue]) -> String {
        SyncJSON.text(.array(values.map { value -> SyncValue in
            switch value {
            case .integer(let i): .int(i)
            case .text(let t): .string(t)
            case .real(let d): .double(d)
            case .null: .null
            }
        }))
    }

    static func eventKey(_ text: String) -> [SQLValue]? {
        guard case .array(let items) = SyncJSON.value(text), items.count == 4 else { return nil }
        let values = items.compactMap { item -> SQLValue? in
            switch item {
            case .int(let i): .integer(i)
            case .string(let t): .text(t)
            default: nil
            }
        }
        guard values.count == 4, case .integer = values[0] else { return nil }
        return values
    }

    /// Forgets feed entries taken longer ago than the horizon; the registers keep everything, so
    /// a device whose cursor is older gets a fresh copy and misses no delete.
    package func syncHubForget(now: Int64) throws {
        try write {
            _ = try hubState()
            let cutoff = now - SyncProtocol.feedHorizonMilliseconds
            if let last = try db.queryFirst("SELECT MAX(position) FROM sync_feed WHERE taken_at < ?", [.integer(cutoff)], {
                $0.isNull(0) ? nil : Int64($0.int(0))
            }) ?? nil {
                try db.run("DELETE FROM sync_feed WHERE position <= ?", [.integer(last)])
                try db.run("UPDATE sync_state SET forgotten_through = MAX(forgotten_through, ?)", [.integer(last)])
            }
        }
    }
}
