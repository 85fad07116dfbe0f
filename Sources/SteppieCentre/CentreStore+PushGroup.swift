import SteppieCore
import SteppiePostgres
import SteppieSync

extension CentreStore {
    /// One device's push in a group (`pushGroup`).
    package struct GroupedPush: Sendable {
        package let request: PushRequest
        package let credentialHash: String

        package init(request: PushRequest, credentialHash: String) {
            self.request = request
            self.credentialHash = credentialHash
        }
    }

    /// What each push of a group came to, in the group's order: its reply and what it appended
    /// to the feed, or its refusal.
    package typealias GroupOutcome = Result<(reply: PushReply, fed: Fed?), SyncRefusal>

    /// Whether a push may be taken in a group (`pushGroup`): of the protocol's version, not too
    /// large, and naming or archiving no child (those hold the names' lock and may settle a name
    /// after their feed rows: they go alone, `pushFeeding`).
    package static func groupable(_ request: PushRequest) -> Bool {
        versionRefusal(request.protocolVersion) == nil && request.entries.count <= SyncProtocol.maxBatchEntries
            && !request.entries.contains { if case .change(let change) = $0.entry { namesChild(change) } else { false } }
    }

    /// Several devices' pushes in one transaction, each decided as `pushFeeding` decides it alone,
    /// one after another in the group's order (docs/centre.md, "Pushes taken together"): a push
    /// refused is refused alone (its device's contact kept, nothing of it written, the owners
    /// it would have added not seen by the next), and every push taken is written by the same
    /// few statements — the registers, the events, the devices' acknowledgements, the clock and
    /// the feed each once for the whole group — and committed together. Every push of a morning
    /// at once was a transaction of its own, each waiting in turn for the `hub_state` lock to
    /// append to the feed.
    ///
    /// The devices' rows are held in PostgreSQL's order of their ids, as a group change holds
    /// them (`SELECT … ORDER BY id FOR UPDATE`), before anything else: two groups, or a group
    /// and a group change, never hold them crosswise. Each device appears once, and every push
    /// is `groupable`. A thrown error is PostgreSQL's: nothing of the group was taken, and each
    /// push may be tried again alone (a data error then refuses only the push that caused it).
    package func pushGroup(_ pushes: [GroupedPush], now: Int64) throws -> [GroupOutcome] {
        precondition(Set(pushes.map(\.request.device)).count == pushes.count, "a group holds one push a device")
        guard !pushes.isEmpty else { return [] }
        var steps = [PostgresConnection.Step(Statements.lockDevices, [.text(Self.textArray(pushes.map(\.request.device.text)))])]
        var admitAt: [Int] = []
        for push in pushes {
            steps += Self.admitSteps(device: push.request.device, credentialHash: push.credentialHash, sentAt: push.request.sentAt,
                                     now: now, lock: false)
            admitAt.append(steps.count - 1)
        }
        let keys = pushes.reduce(into: Set<RecordKey>()) { $0.formUnion(Self.ownerKeys(of: $1.request.entries.map(\.entry))) }
        let (known, missing) = knownOwners.split(keys)
        if !missing.isEmpty { steps.append(Self.ownersStep(missing)) }
        let ownersAt = steps.count - 1
        return try pool.withConnection { c in
            try c.transaction(beginningWith: steps) { c, read -> [GroupOutcome] in
                var outcomes: [GroupOutcome] = []
                var owners = known
                if !missing.isEmpty {
                    let found = try Self.owners(read, at: ownersAt)
                    knownOwners.remember(found)
                    owners.merge(found) { kept, _ in kept }
                }
                var taken: [(index: Int, device: DeviceID, taken: Taken)] = []
                for (i, push) in pushes.enumerated() {
                    let request = push.request
                    let admitted = try Self.admitted(read, at: admitAt[i], credentialHash: push.credentialHash, sentAt: request.sentAt, now: now)
                    guard case .success(let device) = admitted else {
                        outcomes.append(admitted.map { _ in (PushReply(acknowledged: 0, hubTime: now), nil) })
                        continue
                    }
                    switch Self.take(request, device: device, owners: &owners, now: now) {
                    case .failure(let refusal):
                        outcomes.append(.failure(refusal))
                    case .success(let t):
                        outcomes.append(.success((PushReply(acknowledged: t.through, hubTime: now), nil)))
                        if !t.fresh.isEmpty { taken.append((i, request.device, t)) }
                    }
                }
                // Refusals and pushes with nothing new: the contacts written are committed.
                guard !taken.isEmpty else { return outcomes }
                let fresh = taken.flatMap(\.taken.fresh)
                var writes: [PostgresConnection.Step] = []
                if let registers = Self.registersStep(fresh) { writes.append(registers) }
                // An event sent twice in the group is taken from the first push that sent it (the
                // insert's order: by id, then the feed's).
                let rows = Self.feedRows(taken.map { (origin: $0.device.text, entries: $0.taken.fresh) })
                if let step = Self.eventsStep(fresh, feedRows: rows) { writes.append(step) }
                writes.append(PostgresConnection.Step(Statements.acknowledgeAll, [.text(Self.acknowledgements(taken.map { ($0.device, $0.taken) })),
                                                                                  .text(Self.textArray(taken.map(\.device.text)))]))
                writes.append(Self.nudgesStep(taken.map { (Set($0.taken.fresh.map(\.child)), $0.device.text) }, sender: sender))
                let latest = fresh.map(\.stamp).max() ?? HybridTimestamp(wall: 0, counter: 0, device: taken[0].device)
                writes.append(PostgresConnection.Step(Statements.clockAndFeed, [
                    .integer(latest.wall), .integer(Int64(latest.counter)), .integer(now),
                    .text(rows),
                ]))
                let fedAt = writes.count - 1
                writes.append(PostgresConnection.Step(PostgresConnection.commit))
                let written = try c.pipeline(writes)
                let positions = try written.rows(fedAt) { UInt64(clamping: try $0.int(0)) }
                guard positions.count == fresh.count else {
                    throw PostgresError.unexpectedValue(column: 0, expected: "the hub_state row", statement: "hub_state")
                }
                // Each push's rows follow the one before's, in one insert under the hub lock.
                var at = 0
                for t in taken {
                    let mine = positions[at..<(at + t.taken.fresh.count)]
                    at += t.taken.fresh.count
                    let consecutive = mine.enumerated().allSatisfy { $0.element == mine.first! + UInt64($0.offset) }
                    outcomes[t.index] = .success((PushReply(acknowledged: t.taken.through, hubTime: now),
                                                  consecutive ? Fed(first: mine.first!, entries: t.taken.fresh) : nil))
                }
                return outcomes
            }
        }
    }

    /// `acknowledge` for every device of a group: `$1` a `jsonb` array of `[device, acknowledged,
    /// [own children]]`, `$2` the devices' ids as a `text[]`. The rows are found by the devices'
    /// key (`id = ANY ($2)`): joined with the `jsonb` list alone (guessed at 100 rows), the
    /// planner read every device of the centre for each group, 0.26 ms of the update's 0.8 ms with
    /// 500 devices, and growing with every device a district adds.
    package static let acknowledgeAll = """
        UPDATE devices d SET acknowledged = (a->>1)::bigint, children = a->2 FROM jsonb_array_elements($1::jsonb) AS a
        WHERE d.id = ANY ($2::text[]) AND d.id = a->>0
        """

    /// A list of texts as a PostgreSQL array literal (`$1::text[]`), each quoted.
    static func textArray(_ items: [String]) -> String {
        "{" + items.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }

    /// The devices' acknowledgements of a group as `Statements.acknowledgeAll` takes them: a
    /// `jsonb` array of `[device, last sequence number taken, [own children]]`.
    static func acknowledgements(_ taken: [(device: DeviceID, taken: Taken)]) -> String {
        var w = SyncWireWriter(capacity: taken.count * 200 + 16)
        w.raw("[")
        for (i, t) in taken.enumerated() {
            w.raw(i == 0 ? "[" : ",[")
            w.string(t.device.text); w.raw(",")
            w.value(.int(Int64(clamping: t.taken.through))); w.raw(",[")
            for (j, child) in t.taken.own.sorted().enumerated() {
                if j > 0 { w.raw(",") }
                w.string(child)
            }
            w.raw("]]")
        }
        w.raw("]")
        return w.text
    }
}
