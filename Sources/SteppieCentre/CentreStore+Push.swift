import SteppieCore
import SteppiePostgres
import SteppieSync

extension CentreStore {
    /// Takes a device's entries after its acknowledged ones, all or none, in one transaction
    /// (`HubFeed.push`). Every push holds the `hub_state` row (`FOR UPDATE`) from before it reads
    /// the owners until it commits: pushes are taken one at a time across every hub process, so
    /// the feed's positions (an identity sequence, handed out in the order they are asked for) are
    /// committed in the order they were taken and a pull never passes one still to come.
    package func push(_ request: PushRequest, credentialHash: String, now: Int64) throws -> Result<PushReply, SyncRefusal> {
        try pool.withConnection { c in
            try c.transaction { c -> Result<PushReply, SyncRefusal> in
                let admitted = try Self.admit(c, device: request.device, credentialHash: credentialHash,
                                              protocolVersion: request.protocolVersion, sentAt: request.sentAt, now: now, lock: true)
                guard case .success(let device) = admitted else { return admitted.map { _ in PushReply(acknowledged: 0, hubTime: now) } }
                guard request.entries.count <= SyncProtocol.maxBatchEntries else { return .failure(.tooLarge) }
                let acked = device.acknowledged
                var expected = acked + 1
                var fresh: [SyncEntry] = []
                for numbered in request.entries {
                    if numbered.seq <= acked { continue }
                    guard numbered.seq == expected else { return .failure(.gap(expected: expected)) }
                    expected += 1
                    fresh.append(numbered.entry)
                }
                guard !fresh.isEmpty else { return .success(PushReply(acknowledged: acked, hubTime: now)) }
                var clock = try Self.lockHub(c)
                var children = device.children, own = device.own
                var owners = try Self.knownOwners(c, of: fresh)
                for entry in fresh {
                    if case .change(let change) = entry, change.entity == .child, owners[change.key] == nil {
                        // A child made on this device (a record the hub has never seen) is the device's own.
                        children.insert(change.record)
                        own.insert(change.record)
                    }
                    do {
                        try SyncRules.check(entry, from: request.device, children: children, owners: &owners, now: now)
                    } catch let refusal as SyncRefusal {
                        return .failure(refusal)
                    }
                }
                var namesTouched: Set<String> = []
                for entry in fresh {
                    switch entry {
                    case .change(let change):
                        let taken = try c.run(Statements.register, [
                            .text(change.entity.rawValue), .text(change.record), .text(change.field), .text(change.child),
                            .text(SyncJSON.text(change.value)), .text(change.stamp.description)])
                        if taken > 0, change.entity == .child, change.field == "name" || change.field == "archived" {
                            namesTouched.insert(change.record)
                        }
                    case .event(let event):
                        try c.run(Statements.event, [
                            .text(event.id), .text(event.child), .text(event.routine), .text(event.set), .text(event.date),
                            .text(event.kind.rawValue), .text(event.at), .text(event.stamp.description),
                            event.shownTitle.map { .text(SyncJSON.text($0)) } ?? .null,
                            event.shownIcon.map { .text(SyncJSON.text($0)) } ?? .null])
                    }
                    try c.run(Statements.feed, [.text(request.device.text), .text(entry.child), .integer(now), .text(Self.json(entry))])
                    clock.observe(entry.stamp)
                }
                // After the device's entries: the hub's own rename of a child whose name was taken.
                try Self.settleChildNames(c, namesTouched, clock: &clock, now: now)
                try c.run("UPDATE hub_state SET clock_wall = $1, clock_counter = $2 WHERE id = 'singleton'",
                          [.integer(clock.last.wall), .integer(Int64(clock.last.counter))])
                try c.run("UPDATE devices SET acknowledged = $1, children = $2::jsonb WHERE id = $3",
                          [.integer(Int64(clamping: expected - 1)), Self.list(own), .text(request.device.text)])
                try Self.nudge(c, children: Set(fresh.map(\.child)))
                return .success(PushReply(acknowledged: expected - 1, hubTime: now))
            }
        }
    }

    /// The hub's shared hybrid clock, read under the `hub_state` row lock (held to the end of the
    /// transaction: the one order of every push across processes).
    static func lockHub(_ c: PostgresConnection) throws -> HubClock {
        guard let row = try c.queryFirst("""
            SELECT device_id, clock_wall, clock_counter FROM hub_state WHERE id = 'singleton' FOR UPDATE
            """, [], { (try $0.text(0), try $0.int(1), try $0.int(2)) }), let device = DeviceID(row.0) else {
            throw PostgresError.unexpectedValue(column: 0, expected: "the hub_state row", statement: "hub_state")
        }
        return HubClock(last: HybridTimestamp(wall: row.1, counter: UInt32(clamping: row.2), device: device))
    }

    /// The owners the hub knows of every record an entry names or points at.
    static func knownOwners(_ c: PostgresConnection, of entries: [SyncEntry]) throws -> [RecordKey: String] {
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
        var owners: [RecordKey: String] = [:]
        for key in keys {
            if let owner = try c.queryFirst(Statements.owner, [.text(key.entity.rawValue), .text(key.id)], { try $0.text(0) }) {
                owners[key] = owner
            }
        }
        return owners
    }
}

/// The hub's hybrid clock inside one push: what it has seen, and its own stamps after it.
struct HubClock {
    private(set) var last: HybridTimestamp

    init(last: HybridTimestamp) { self.last = last }

    mutating func observe(_ stamp: HybridTimestamp) {
        if stamp > last { last = HybridTimestamp(wall: stamp.wall, counter: stamp.counter, device: last.device) }
    }

    /// A new stamp of the hub's own, after everything seen.
    mutating func tick(physical: Int64) -> HybridTimestamp {
        last = physical > last.wall
            ? HybridTimestamp(wall: physical, counter: 0, device: last.device)
            : HybridTimestamp(wall: last.wall, counter: last.counter + 1, device: last.device)
        return last
    }
}
