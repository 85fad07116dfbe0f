/// A device's side of sync as a value: its replica, its clock, the entries it made that the hub
/// has not acknowledged yet, and its cursor in the hub's feed. The reference model of the device
/// adapter (SQLite: the change log written in the same transaction as the edit).
package struct SyncDevice: Sendable {
    package let id: DeviceID
    package private(set) var clock: HybridClock
    package private(set) var replica = SyncReplica()
    /// Entries made here and not acknowledged by the hub, oldest first.
    package private(set) var pending: [NumberedEntry] = []
    package private(set) var nextSeq: UInt64 = 1
    package private(set) var cursor: UInt64 = 0
    /// Set while a fresh copy is being taken in pages.
    package private(set) var copyAfter: String?
    /// The last refusal the hub gave (shown on the status page), cleared by the next success.
    package private(set) var lastRefusal: SyncRefusal?
    /// The hub refused this device's clock since the last push it took: entries stamped ahead
    /// are stamped again before the next push.
    package private(set) var clockRefused = false
    /// The highest sequence number the hub acknowledged. A hub that answers with less (restored
    /// from an older backup) lost entries it had taken: this device sends everything it holds again.
    package private(set) var acknowledged: UInt64 = 0

    package init(id: DeviceID) {
        self.id = id
        clock = HybridClock(device: id)
    }

    /// Records a field written here (in the same transaction as the edit, in the real store).
    @discardableResult
    package mutating func write(_ entity: SyncEntity, _ record: String, child: String, field: String, value: SyncValue,
                               physical: Int64) -> FieldChange {
        let change = FieldChange(entity: entity, record: record, child: child, field: field, value: value,
                                 stamp: clock.tick(physical: physical))
        replica.apply(change)
        append(.change(change))
        return change
    }

    /// Records a press, an undo or a correction made here.
    @discardableResult
    package mutating func record(id: String, child: String, routine: String, set: String, date: String,
                                kind: CompletionEvent.Kind, at: String, physical: Int64,
                                shownTitle: SyncValue? = nil, shownIcon: SyncValue? = nil) -> CompletionEvent {
        let event = CompletionEvent(id: id, child: child, routine: routine, set: set, date: date, kind: kind, at: at,
                                    stamp: clock.tick(physical: physical), shownTitle: shownTitle, shownIcon: shownIcon)
        replica.apply(event)
        append(.event(event))
        return event
    }

    private mutating func append(_ entry: SyncEntry) {
        pending.append(NumberedEntry(seq: nextSeq, entry: entry))
        nextSeq += 1
    }

    /// The next push (nil when nothing waits). After the hub refused this device's clock, entries
    /// stamped further ahead of the (now right) clock than the hub allows were made while the
    /// clock ran ahead and never left the device: they are stamped again, in their order, so they
    /// neither wait for ever nor win every later edit. (Without such a refusal nothing is stamped
    /// again: a clock that merely moved within the allowed offset made valid stamps.)
    package mutating func pushRequest(physical: Int64, limit: Int = SyncProtocol.maxBatchEntries) -> PushRequest? {
        guard !pending.isEmpty else { return nil }
        if clockRefused,
           pending.contains(where: { $0.entry.stamp.wall > physical + SyncProtocol.maxClockOffsetMilliseconds }) {
            restamp(physical: physical)
        }
        return PushRequest(device: id, sentAt: physical, entries: Array(pending.prefix(limit)))
    }

    private mutating func restamp(physical: Int64) {
        let pendingStamps = Set(pending.map(\.entry.stamp))
        // Keep what the hub already has (acknowledged or received), and restart the clock after the
        // latest of those stamps, so a new stamp still sorts after everything this device has seen.
        var kept = SyncReplica()
        var floor = HybridTimestamp(wall: physical, counter: 0, device: id)
        for (key, fields) in replica.registers {
            guard let owner = replica.owners[key] else { continue }
            for (field, versioned) in fields where !pendingStamps.contains(versioned.stamp) {
                kept.apply(FieldChange(entity: key.entity, record: key.id, child: owner, field: field,
                                       value: versioned.value, stamp: versioned.stamp))
                floor = max(floor, versioned.stamp)
            }
        }
        for event in replica.events.values where !pendingStamps.contains(event.stamp) {
            kept.apply(event)
            floor = max(floor, event.stamp)
        }
        clock.reset(to: floor)
        var renewed: [NumberedEntry] = []
        for numbered in pending {
            let stamp = clock.tick(physical: physical)
            let entry: SyncEntry
            switch numbered.entry {
            case .change(let c):
                let change = FieldChange(entity: c.entity, record: c.record, child: c.child, field: c.field, value: c.value, stamp: stamp)
                kept.apply(change)
                entry = .change(change)
            case .event(let e):
                let event = CompletionEvent(id: e.id, child: e.child, routine: e.routine, set: e.set, date: e.date, kind: e.kind,
                                            at: e.at, stamp: stamp, shownTitle: e.shownTitle, shownIcon: e.shownIcon)
                kept.apply(event)
                entry = .event(event)
            }
            renewed.append(NumberedEntry(seq: numbered.seq, entry: entry))
        }
        replica = kept
        pending = renewed
    }

    package mutating func pushed(_ reply: PushReply) {
        if reply.acknowledged < acknowledged {
            hubWentBack(acknowledged: reply.acknowledged)
            return
        }
        acknowledged = reply.acknowledged
        pending.removeAll { $0.seq <= reply.acknowledged }
        lastRefusal = nil
        clockRefused = false
    }

    package mutating func refused(_ refusal: SyncRefusal) {
        lastRefusal = refusal
        switch refusal {
        case .clockSkew, .malformed(reason: SyncRules.stampAhead): clockRefused = true
        case .gap(let expected) where expected <= acknowledged: hubWentBack(acknowledged: expected - 1)
        default: break
        }
    }

    /// The hub holds less than it once acknowledged (it was restored from an older backup): every
    /// register and event this device made (a hub takes only a device's own stamps from it; each
    /// device sends its own again) is pending again with its own stamp, numbered after
    /// what the hub still has. What the hub kept it takes as a replay (a register's stamp is not
    /// newer, an event is there once); what it lost comes back. `acknowledged` is nil when only
    /// the feed showed it (the next push's gap gives the number): what waits keeps its numbers
    /// (the hub may have taken them), and what was held is numbered after it.
    ///
    /// A hub takes a child's entries from a device only after the child is given to it, and a
    /// child the device made is given by its first child entry the hub takes. Such a child may be
    /// among what the hub lost while entries naming it wait, or its every field may have been
    /// written again after its sets were made: so the child entries go first (all of them when the
    /// hub's number is known, else those of what was held), each part otherwise as it was made.
    private mutating func hubWentBack(acknowledged hub: UInt64?) {
        let waiting = Set(pending.map(\.entry))
        var held: [SyncEntry] = []
        for (key, fields) in replica.registers {
            guard let owner = replica.owners[key] else { continue }
            for (field, versioned) in fields where versioned.stamp.device == id {
                held.append(.change(FieldChange(entity: key.entity, record: key.id, child: owner, field: field,
                                                value: versioned.value, stamp: versioned.stamp)))
            }
        }
        held += replica.events.values.filter { $0.stamp.device == id }.map { .event($0) }
        held = held.filter { !waiting.contains($0) }.sorted { $0.stamp < $1.stamp }
        func childrenFirst(_ list: [SyncEntry]) -> [SyncEntry] {
            list.filter(\.isChildEntry) + list.filter { !$0.isChildEntry }
        }
        let entries = hub == nil ? pending.map(\.entry) + childrenFirst(held) : childrenFirst(pending.map(\.entry) + held)
        let first = hub.map { $0 + 1 } ?? pending.first?.seq ?? nextSeq
        pending = entries.enumerated().map { NumberedEntry(seq: first + UInt64($0.offset), entry: $0.element) }
        nextSeq = first + UInt64(entries.count)
        if let hub { acknowledged = hub }
        // Positions after the backup's are handed out again: the feed is read again from its start.
        cursor = 0
        copyAfter = nil
    }

    package func pullRequest(physical: Int64) -> PullRequest {
        PullRequest(device: id, sentAt: physical, cursor: cursor, copyAfter: copyAfter)
    }

    /// Applies a pull's entries all together. A fresh copy's first page replaces what the device
    /// holds of its children (its own pending entries are applied again on top, so nothing made
    /// here is lost); entries for children the device no longer holds are dropped.
    package mutating func pulled(_ reply: PullReply, physical: Int64) throws(ClockSkew) {
        // The hub takes no stamp more than the allowed offset ahead of its clock, and takes this
        // device's requests only within that offset of it: a stamp further ahead than twice the
        // offset means a broken hub, and is refused before anything is applied.
        for entry in reply.entries where entry.stamp.device != id {
            try clock.observe(entry.stamp, physical: physical, maxAhead: 2 * SyncProtocol.maxClockOffsetMilliseconds)
        }
        // The children it holds: the hub's list, and its own new children the hub has not taken yet.
        if reply.freshCopy && copyAfter == nil && reply.cursor < cursor {
            // The hub's feed ends before what this device saw of it: restored from an older backup.
            hubWentBack(acknowledged: nil)
        }
        let children = Set(reply.children).union(pending.map(\.entry.child))
        if reply.freshCopy && copyAfter == nil {
            replica = SyncReplica()
            for numbered in pending { apply(numbered.entry) }
        } else if !Set(replica.owners.values).isSubset(of: children) {
            replica = replica.restricted(to: children)
        }
        for entry in reply.entries where children.contains(entry.child) { apply(entry) }
        // During a paged copy the cursor is the feed's position when the copy began; the feed
        // after it brings what changed meanwhile.
        cursor = reply.cursor
        copyAfter = reply.copyAfter
        lastRefusal = nil
    }

    private mutating func apply(_ entry: SyncEntry) {
        switch entry {
        case .change(let change): replica.apply(change)
        case .event(let event): replica.apply(event)
        }
    }
}
