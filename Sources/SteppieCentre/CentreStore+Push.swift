import SteppieCore
import SteppiePostgres
import SteppieSync

extension CentreStore {
    /// Takes a device's entries after its acknowledged ones, all or none, in one transaction
    /// (`HubFeed.push`), in a fixed number of statements whatever its size: the owners in one
    /// read, the registers, the events and the feed each in one insert of a `jsonb` array.
    ///
    /// Pushes of different devices run side by side up to their feed insert. The feed's positions
    /// (an identity sequence) are taken under the `hub_state` row lock, held from the statement
    /// that takes it (`Statements.clockAndFeed`: the clock's update, then the feed insert) to the
    /// commit, so they are committed in the order they were taken and a pull never passes one
    /// still to come; nothing else runs under it but the hub's own renames. Register and event
    /// rows are written before it, in key order (two pushes of one record lock its row in the
    /// same order, never crosswise); a push that names or archives a child holds `namesLockKey`
    /// from the start, so the hub settles two devices' "Mina" one push at a time, and its renames
    /// (rows no other push writes) come after its feed insert, under the hub lock.
    ///
    /// Two pipelines (docs/centre.md, "In two round trips"): the device admitted and the owners
    /// of what the push names read in one, the writes, the feed and the commit in the other, with
    /// the rules checked in between; one statement at a time was eleven round trips a push.
    package func push(_ request: PushRequest, credentialHash: String, now: Int64) throws -> Result<PushReply, SyncRefusal> {
        try pushFeeding(request, credentialHash: credentialHash, now: now).map(\.reply)
    }

    /// What a push appended to the feed: its entries, at consecutive positions from `first`.
    package struct Fed: Sendable {
        package let first: UInt64
        package let entries: [SyncEntry]
    }

    /// `push`, with what it appended to the feed when it committed (nil when it took nothing new,
    /// or settled a child's name, whose renames the feed holds after its entries): its hub process
    /// puts them in its tail without reading them back (`PostgresSyncHub`, `FeedTail.appendPushed`).
    package func pushFeeding(_ request: PushRequest, credentialHash: String, now: Int64) throws -> Result<(reply: PushReply, fed: Fed?), SyncRefusal> {
        if let refusal = Self.versionRefusal(request.protocolVersion) { return .failure(refusal) }
        let entries = request.entries.map(\.entry)
        let tooLarge = request.entries.count > SyncProtocol.maxBatchEntries
        // Held from the start by a push that may name or archive a child (before its device's
        // row: every push takes them in this order).
        let names = !tooLarge && entries.contains { if case .change(let change) = $0 { Self.namesChild(change) } else { false } }
        var steps = names ? [PostgresConnection.Step(Statements.namesLock, [.integer(Self.namesLockKey)])] : []
        steps += Self.admitSteps(device: request.device, credentialHash: credentialHash, sentAt: request.sentAt, now: now, lock: true)
        let admitAt = steps.count - 1
        let (known, missing) = tooLarge ? ([:], []) : knownOwners.split(Self.ownerKeys(of: entries))
        if !missing.isEmpty { steps.append(Self.ownersStep(missing)) }
        return try pool.withConnection { c in
            try c.transaction(beginningWith: steps) { c, read -> Result<(reply: PushReply, fed: Fed?), SyncRefusal> in
                let admitted = try Self.admitted(read, at: admitAt, credentialHash: credentialHash, sentAt: request.sentAt, now: now)
                guard case .success(let device) = admitted else { return admitted.map { _ in (PushReply(acknowledged: 0, hubTime: now), nil) } }
                guard !tooLarge else { return .failure(.tooLarge) }
                var owners = known
                if !missing.isEmpty {
                    let found = try Self.owners(read, at: admitAt + 1)
                    knownOwners.remember(found)
                    owners.merge(found) { kept, _ in kept }
                }
                let taken: Taken
                switch Self.take(request, device: device, owners: &owners, now: now) {
                case .failure(let refusal): return .failure(refusal)
                case .success(let t): taken = t
                }
                let fresh = taken.fresh, own = taken.own
                guard !fresh.isEmpty else { return .success((PushReply(acknowledged: taken.through, hubTime: now), nil)) }
                // The writes, in one pipeline: registers and events (rows in key order: two pushes
                // of one record lock its row in the same order, never crosswise), the device's
                // row, the nudge (delivered at the commit, as everything else here), then the hub
                // lock, the clock and the feed in one statement: the lock is held for its run and
                // the commit, never while this process prepares the next statement.
                var writes: [PostgresConnection.Step] = []
                let registersAt = Self.registersStep(fresh).map { writes.append($0); return writes.count - 1 }
                let rows = Self.feedRows(fresh, origin: request.device.text)
                if let events = Self.eventsStep(fresh, feedRows: rows) { writes.append(events) }
                writes.append(PostgresConnection.Step(Statements.acknowledge, [.integer(Int64(clamping: taken.through)), Self.list(own),
                                                                               .text(request.device.text)]))
                writes.append(Self.nudgeStep(children: Set(fresh.map(\.child)), origin: request.device.text, sender: sender))
                let latest = fresh.map(\.stamp).max() ?? HybridTimestamp(wall: 0, counter: 0, device: request.device)
                writes.append(PostgresConnection.Step(Statements.clockAndFeed, [.integer(latest.wall), .integer(Int64(latest.counter)),
                                                                                .integer(now), .text(rows)]))
                let fedAt = writes.count - 1
                // With the commit, unless the hub may have a name to settle: the `hub_state` lock is
                // then held only while the server runs the feed's insert and the commit, never while
                // this process waits for the answer and to be scheduled again.
                if !names { writes.append(PostgresConnection.Step(PostgresConnection.commit)) }
                let written = try c.pipeline(writes)
                let positions = try written.rows(fedAt) { UInt64(clamping: try $0.int(0)) }
                guard positions.count == fresh.count else {
                    throw PostgresError.unexpectedValue(column: 0, expected: "the hub_state row", statement: "hub_state")
                }
                let namesTouched = try registersAt.map { at in
                    Set(try written.rows(at) { r in (try r.text(0), try r.text(1), try r.text(2)) }
                        .filter { $0.0 == SyncEntity.child.rawValue && Self.namesField($0.2) }.map(\.1))
                } ?? []
                if !namesTouched.isEmpty {
                    // After the device's entries: the hub's own rename of a child whose name was
                    // taken, stamped after everything the clock has seen (the lock is held already).
                    var clock = try Self.lockHub(c)
                    try Self.settleChildNames(c, namesTouched, clock: &clock, now: now)
                    try c.run("UPDATE hub_state SET clock_wall = $1, clock_counter = $2 WHERE id = 'singleton'",
                              [.integer(clock.last.wall), .integer(Int64(clock.last.counter))])
                }
                // Consecutive (one insert under the hub lock): what the tail may take as it is.
                let consecutive = positions.enumerated().allSatisfy { $0.element == positions[0] + UInt64($0.offset) }
                let fed = namesTouched.isEmpty && consecutive ? Fed(first: positions[0], entries: fresh) : nil
                return .success((PushReply(acknowledged: taken.through, hubTime: now), fed))
            }
        }
    }

    /// What a push brings that its device's row has not acknowledged, checked by the rules.
    struct Taken {
        /// The entries after the acknowledged ones, in order.
        let fresh: [SyncEntry]
        /// The last sequence number taken (the acknowledged one when nothing is fresh).
        let through: UInt64
        /// The device's own children after them (a child made on it is its own).
        let own: Set<String>
    }

    /// The entries of `request` after its device's acknowledged ones — a gap refused —, each
    /// checked by `SyncRules` with the owners the hub knows, which take what they add (`owners`
    /// is left as it was when the push is refused, so a group's next push sees only what was
    /// taken).
    static func take(_ request: PushRequest, device: Admitted, owners: inout [RecordKey: String], now: Int64) -> Result<Taken, SyncRefusal> {
        let fresh: [SyncEntry], through: UInt64
        do throws(SyncRefusal) {
            (fresh, through) = try SyncRules.fresh(request.entries, after: device.acknowledged)
        } catch {
            return .failure(error)
        }
        var children = device.children, own = device.own
        var trial = owners
        for entry in fresh {
            if case .change(let change) = entry, change.entity == .child, trial[change.key] == nil {
                // A child made on this device (a record the hub has never seen) is the device's own.
                children.insert(change.record)
                own.insert(change.record)
            }
            do {
                try SyncRules.check(entry, from: request.device, children: children, owners: &trial, now: now)
            } catch {
                return .failure(error)
            }
        }
        owners = trial
        return .success(Taken(fresh: fresh, through: through, own: own))
    }

    /// The advisory lock a push that names or archives a child holds (distinct from the joins'
    /// and the migrator's).
    static let namesLockKey: Int64 = 0x5374_6570_4E61_6D65

    /// A change the hub's unique child names depend on.
    static func namesChild(_ change: FieldChange) -> Bool { change.entity == .child && namesField(change.field) }

    /// A child's field the hub's unique names depend on.
    static func namesField(_ field: String) -> Bool { field == "name" || field == "archived" }

    /// Every register change of a push in one insert, the last writer by stamp winning as
    /// `Statements.register` decides one: of two changes of one field in the push only the later
    /// goes in (one statement cannot write a row twice), rows in key order. It returns the rows
    /// taken (entity, record, field): the children whose name or archived flag was taken. Nil when
    /// the push changes no register.
    static func registersStep(_ entries: [SyncEntry]) -> PostgresConnection.Step? {
        var latest: [String: FieldChange] = [:]
        for case .change(let change) in entries {
            let key = change.entity.rawValue + "/" + change.record + "/" + change.field
            if let kept = latest[key], !kept.stamp.description.utf8.lexicographicallyPrecedes(change.stamp.description.utf8) { continue }
            latest[key] = change
        }
        guard !latest.isEmpty else { return nil }
        // One writer for the whole array (a writer, and a string, for every field was a tenth of
        // the hub's CPU in a push: `docs/performance.md`, session 50).
        var w = SyncWireWriter(capacity: latest.count * 200 + 16)
        w.raw("[")
        for (i, change) in latest.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).map(\.value).enumerated() {
            w.raw(i == 0 ? "[" : ",[")
            w.string(change.entity.rawValue); w.raw(",")
            w.string(change.record); w.raw(",")
            w.string(change.field); w.raw(",")
            w.string(change.child); w.raw(",")
            Self.write(change.value, to: &w); w.raw(",")
            w.string(change.stamp.description); w.raw("]")
        }
        w.raw("]")
        return PostgresConnection.Step(Statements.registers, [.text(w.text)])
    }

    /// Writes `value`, or null when it holds a double JSON cannot say (never one a device sent as
    /// JSON), as `SyncJSON.text` always gave it.
    static func write(_ value: SyncValue, to w: inout SyncWireWriter) {
        if writable(value) { w.value(value) } else { w.raw("null") }
    }

    /// Whether every double in `value` is finite (JSON has no NaN nor infinity).
    static func writable(_ value: SyncValue) -> Bool {
        switch value {
        case .double(let d): d.isFinite
        case .array(let items): items.allSatisfy(writable)
        case .object(let members): members.values.allSatisfy(writable)
        default: true
        }
    }

    /// Every completion event of `entries` in one insert (an event already taken stays as it was),
    /// read from the feed's rows of the same entries (`rows`, as `feedRows` wrote them): each entry
    /// is written out once for both inserts (the events' own array was 1.1 % of all the machine's
    /// samples in the morning at once: docs/performance.md, session 54). Nil when there is no event.
    static func eventsStep(_ entries: [SyncEntry], feedRows rows: String) -> PostgresConnection.Step? {
        guard entries.contains(where: { if case .event = $0 { true } else { false } }) else { return nil }
        return PostgresConnection.Step(Statements.events, [.text(rows)])
    }

    /// Pushes' entries as the feed's insert takes them: a `jsonb` array of `[child, origin, entry]`,
    /// each entry as the protocol writes it, in the order given.
    static func feedRows(_ pushes: [(origin: String, entries: [SyncEntry])]) -> String {
        var w = SyncWireWriter(capacity: pushes.reduce(16) { $0 + $1.entries.count * 500 })
        w.raw("[")
        var first = true
        for (origin, entries) in pushes {
            for entry in entries {
                w.raw(first ? "[" : ",[")
                first = false
                w.string(entry.child); w.raw(",")
                w.string(origin); w.raw(",")
                w.entry(entry); w.raw("]")
            }
        }
        w.raw("]")
        return w.text
    }

    /// One push's entries as the feed's insert takes them.
    static func feedRows(_ entries: [SyncEntry], origin: String) -> String { feedRows([(origin, entries)]) }

    /// The hub's shared hybrid clock, read under the `hub_state` row lock (held to the end of the
    /// transaction: the one order of every push's feed positions across processes).
    static func lockHub(_ c: PostgresConnection) throws -> HubClock {
        guard let row = try c.queryFirst("""
            SELECT device_id, clock_wall, clock_counter FROM hub_state WHERE id = 'singleton' FOR UPDATE
            """, [], { (try $0.text(0), try $0.int(1), try $0.int(2)) }), let device = DeviceID(row.0) else {
            throw PostgresError.unexpectedValue(column: 0, expected: "the hub_state row", statement: "hub_state")
        }
        return HubClock(last: HybridTimestamp(wall: row.1, counter: UInt32(clamping: row.2), device: device))
    }

    /// Every record the entries name or point at, whose owner (child) the hub may know.
    static func ownerKeys(of entries: [SyncEntry]) -> Set<RecordKey> {
        var keys: Set<RecordKey> = []
        for entry in entries {
            switch entry {
            case .change(let change):
                keys.insert(change.key)
                switch (change.entity, change.field) {
                case (.routine, "set"), (.child, "activeSet"): if let s = change.value.string { keys.insert(RecordKey(.routineSet, s)) }
                case (.recording, "routine"): if let r = change.value.string { keys.insert(RecordKey(.routine, r)) }
                default: break
                }
            case .event(let event): keys.insert(RecordKey(.routine, event.routine))
            }
        }
        return keys
    }

    /// The read of the owners the hub knows of `keys`, in one statement.
    static func ownersStep(_ keys: Set<RecordKey>) -> PostgresConnection.Step {
        var w = SyncWireWriter(capacity: keys.count * 60 + 16)
        w.raw("[")
        for (i, key) in keys.enumerated() {
            w.raw(i == 0 ? "[" : ",[")
            w.string(key.entity.rawValue); w.raw(","); w.string(key.id); w.raw("]")
        }
        w.raw("]")
        return PostgresConnection.Step(Statements.owners, [.text(w.text)])
    }

    /// What that read found (its result at `index`).
    static func owners(_ results: PostgresConnection.Results, at index: Int) throws -> [RecordKey: String] {
        var owners: [RecordKey: String] = [:]
        for (entity, id, owner) in try results.rows(index, { r in (try r.text(0), try r.text(1), try r.text(2)) }) {
            if let entity = SyncEntity(rawValue: entity) { owners[RecordKey(entity, id)] = owner }
        }
        return owners
    }
}

/// The hub's hybrid clock inside one push: what it has seen, and its own stamps after it.
struct HubClock {
    private(set) var last: HybridTimestamp

    init(last: HybridTimestamp) { self.last = last }

    /// A new stamp of the hub's own, after everything seen.
    mutating func tick(physical: Int64) -> HybridTimestamp {
        last = physical > last.wall
            ? HybridTimestamp(wall: physical, counter: 0, device: last.device)
            : HybridTimestamp(wall: last.wall, counter: last.counter + 1, device: last.device)
        return last
    }
}
