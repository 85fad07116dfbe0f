import SteppieCore

/// The hub as a value: its store of record (a replica of every child), the feed of entries in
/// the order it took them, each device's acknowledged sequence number and cursor-free grants.
/// The reference model of both hubs: the SQLite hub and the PostgreSQL hub decide every push and
/// pull as this does (their suites run the same scenarios against it).
package struct HubFeed: Sendable {
    package struct FeedItem: Hashable, Sendable {
        package let position: UInt64
        package let entry: SyncEntry
        package let origin: DeviceID
        /// The hub's time when it took the entry: what the horizon is measured by.
        package let takenAt: Int64
    }

    package private(set) var store = SyncReplica()
    package private(set) var feed: [FeedItem] = []
    /// The position of the last entry taken (the feed's sequence).
    package private(set) var position: UInt64 = 0
    /// Entries at or below this position are no longer in the feed: older cursors get a fresh copy.
    package private(set) var forgottenThrough: UInt64 = 0
    package private(set) var acknowledged: [DeviceID: UInt64] = [:]
    package private(set) var grants: [DeviceID: Set<String>] = [:]
    /// Devices whose children changed since their last pull: their next pull is a fresh copy.
    package private(set) var needsCopy: Set<DeviceID> = []

    package init() {}

    /// Lets a device in with these children (joining, or the guardian's choice later).
    package mutating func grant(_ device: DeviceID, children: Set<String>) {
        if grants[device] != children { needsCopy.insert(device) }
        grants[device] = children
        if acknowledged[device] == nil { acknowledged[device] = 0 }
    }

    /// Removes a device: its credential stops working at once.
    package mutating func remove(_ device: DeviceID) {
        grants[device] = nil
        acknowledged[device] = nil
        needsCopy.remove(device)
    }

    private func admit(_ device: DeviceID, protocolVersion: Int, sentAt: Int64, now: Int64) throws(SyncRefusal) -> Set<String> {
        guard protocolVersion == SyncProtocol.version else {
            throw .protocolVersion(hub: SyncProtocol.version, device: protocolVersion)
        }
        guard let children = grants[device] else { throw .unknownDevice }
        let offset = sentAt - now
        guard abs(offset) <= SyncProtocol.maxClockOffsetMilliseconds else { throw .clockSkew(offsetMilliseconds: offset) }
        return children
    }

    /// Takes a device's entries after its acknowledged ones, all or none: every entry is checked
    /// before any is applied. Entries already acknowledged are skipped (a replayed push changes
    /// nothing and is acknowledged again).
    package mutating func push(_ request: PushRequest, now: Int64) throws(SyncRefusal) -> PushReply {
        var children = try admit(request.device, protocolVersion: request.protocolVersion, sentAt: request.sentAt, now: now)
        guard request.entries.count <= SyncProtocol.maxBatchEntries else { throw .tooLarge }
        let (fresh, through) = try SyncRules.fresh(request.entries, after: acknowledged[request.device] ?? 0)
        var owners = store.owners
        for entry in fresh {
            // A child made on this device (a record the hub has never seen) is the device's own.
            if case .change(let change) = entry, change.entity == .child, owners[change.key] == nil {
                children.insert(change.record)
            }
            try SyncRules.check(entry, from: request.device, children: children, owners: &owners, now: now)
        }
        grants[request.device] = children
        for entry in fresh {
            switch entry {
            case .change(let change): store.apply(change)
            case .event(let event): store.apply(event)
            }
            position += 1
            feed.append(FeedItem(position: position, entry: entry, origin: request.device, takenAt: now))
        }
        acknowledged[request.device] = through
        return PushReply(acknowledged: through, hubTime: now)
    }

    /// The feed after the cursor for the device's children, at most `limit` entries; a fresh copy
    /// of its children when the cursor is older than the feed keeps, newer than its end, or the
    /// device's children changed.
    package mutating func pull(_ request: PullRequest, now: Int64, limit: Int = SyncProtocol.maxBatchEntries) throws(SyncRefusal) -> PullReply {
        let children = try admit(request.device, protocolVersion: request.protocolVersion, sentAt: request.sentAt, now: now)
        let sorted = children.sorted()
        // A cursor past the feed's end: the hub was restored from an older backup, and positions
        // after the backup's are being handed out again. The device cannot tell which it has seen.
        let due = SyncProtocol.copyDue(cursor: request.cursor, needsCopy: needsCopy.contains(request.device),
                                       forgotten: forgottenThrough, position: position)
        switch SyncProtocol.copyStep(request.copyAfter, cursor: request.cursor, children: sorted, due: due, position: position) {
        case .feed:
            break
        case .taken(let cursor):
            // Only now is the copy no longer due: a copy whose answer was lost is given again.
            needsCopy.remove(request.device)
            return PullReply(entries: [], cursor: cursor, more: false, freshCopy: true, children: sorted, hubTime: now)
        case .page(let after, let cursor):
            // A whole copy of the device's children from the store of record, in a stable order
            // so it can be resumed; what changes meanwhile comes through the feed after `position`.
            let (changes, events) = store.restricted(to: children).asChanges()
            var all: [(String, SyncEntry)] = changes.map { (SyncRules.copyKey($0), .change($0)) }
            all += events.map { ("~" + $0.id, .event($0)) }
            all.sort { $0.0 < $1.0 }
            let page = all.filter { $0.0 > after }.prefix(limit)
            let done = page.count < limit || page.last?.0 == all.last?.0
            let next = SyncProtocol.copyAfterPage(children: sorted, lastKey: page.last?.0, done: done,
                                                  due: needsCopy.contains(request.device))
            return PullReply(entries: page.map(\.1), cursor: cursor, more: next != nil, freshCopy: true,
                             copyAfter: next, children: sorted, hubTime: now)
        }
        var entries: [SyncEntry] = []
        var cursor = request.cursor
        for item in feed where item.position > request.cursor {
            if entries.count == limit { break }
            cursor = item.position
            if item.origin != request.device && children.contains(item.entry.child) { entries.append(item.entry) }
        }
        return PullReply(entries: entries, cursor: cursor, more: cursor < position, freshCopy: false, children: sorted, hubTime: now)
    }

    /// Forgets feed entries taken longer ago than the horizon (the store of record keeps every
    /// register, tombstones included): a device whose cursor is older gets a fresh copy.
    package mutating func forget(now: Int64) {
        let cutoff = now - SyncProtocol.feedHorizonMilliseconds
        while let first = feed.first, first.takenAt < cutoff {
            forgottenThrough = first.position
            feed.removeFirst()
        }
    }
}

/// The checks every hub makes on each entry of a push before it applies any.
package enum SyncRules {
    /// A push's entries after its device's acknowledged ones, in order, and the last sequence
    /// number they take it to (the acknowledged one when none is new): entries already
    /// acknowledged are skipped (a replayed push), a sequence number that does not follow is a gap.
    package static func fresh(_ entries: [NumberedEntry], after acknowledged: UInt64) throws(SyncRefusal) -> (entries: [SyncEntry], through: UInt64) {
        var expected = acknowledged + 1
        var fresh: [SyncEntry] = []
        for numbered in entries {
            if numbered.seq <= acknowledged { continue }
            guard numbered.seq == expected else { throw .gap(expected: expected) }
            expected += 1
            fresh.append(numbered.entry)
        }
        return (fresh, expected - 1)
    }

    /// The reason given for an entry stamped more than the allowed offset ahead of the hub.
    package static let stampAhead = "stamp ahead of the hub's clock"

    package static func check(_ entry: SyncEntry, from device: DeviceID, children: Set<String>,
                             owners: inout [RecordKey: String], now: Int64) throws(SyncRefusal) {
        guard children.contains(entry.child) else { throw .childNotGiven(child: entry.child) }
        guard entry.stamp.device == device else { throw .malformed(reason: "stamp of another device") }
        guard entry.stamp.wall <= now + SyncProtocol.maxClockOffsetMilliseconds else {
            throw .malformed(reason: stampAhead)
        }
        switch entry {
        case .change(let change):
            guard change.entity.allows(field: change.field) else { throw .malformed(reason: "unknown field") }
            if change.entity == .child, change.record != change.child { throw .malformed(reason: "a child is its own owner") }
            if let owner = owners[change.key], owner != change.child { throw .malformed(reason: "record of another child") }
            owners[change.key] = change.child
            // A reference to another record must stay within the same child.
            let reference: RecordKey? = switch (change.entity, change.field) {
            case (.routine, "set"): change.value.string.map { RecordKey(.routineSet, $0) }
            case (.routineSet, "child"): change.value.string.map { RecordKey(.child, $0) }
            case (.child, "activeSet"): change.value.string.map { RecordKey(.routineSet, $0) }
            case (.recording, "routine"): change.value.string.map { RecordKey(.routine, $0) }
            default: nil
            }
            if let reference {
                let owner = reference.entity == .child ? reference.id : owners[reference]
                if let owner, owner != change.child { throw .malformed(reason: "reference to another child's record") }
            }
        case .event(let event):
            if let owner = owners[RecordKey(.routine, event.routine)], owner != event.child {
                throw .malformed(reason: "event of another child's routine")
            }
            guard LocalDay(event.date) != nil else { throw .malformed(reason: "date") }
        }
    }

    /// A change's place in a fresh copy: by record and field, so a copy can be resumed.
    static func copyKey(_ change: FieldChange) -> String {
        "\(change.entity.rawValue)/\(change.record)/\(change.field)"
    }
}
