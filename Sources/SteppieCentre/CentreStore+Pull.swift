import Foundation
import SteppieCore
import SteppiePostgres
import SteppieSync

extension CentreStore {
    /// The position of the newest entry in the feed (what a held pull waits to pass).
    package func position() throws -> UInt64 {
        try pool.withConnection { c in UInt64(clamping: try c.queryFirst(Statements.position, [], { try $0.int(0) }) ?? 0) }
    }

    /// Only the device's admission, as a pull's read begins with it (its credential and clock
    /// checked, its contact written): for a held pull the hub knows has nothing new to read
    /// (`PostgresSyncHub.pull`). One round trip, outside a transaction block.
    package func admitPull(_ request: PullRequest, credentialHash: String, now: Int64) throws -> Result<Admitted, SyncRefusal> {
        if let refusal = Self.versionRefusal(request.protocolVersion) { return .failure(refusal) }
        let steps = Self.admitSteps(device: request.device, credentialHash: credentialHash, sentAt: request.sentAt, now: now, lock: false,
                                    cursor: request.cursor)
        return try pool.withConnection { c in
            try Self.admitted(try c.pipeline(steps), at: steps.count - 1, credentialHash: credentialHash, sentAt: request.sentAt, now: now)
        }
    }

    /// A pull answered from the feed as `pull` answers it, in one statement (`Statements.feedRead`:
    /// one snapshot, so no forget can pass between the head and the entries; the cursor the pull
    /// comes with written there): a held pull woken by a press was three round trips and eight
    /// statements, then two.
    /// Nil when `pull`'s transaction must decide: a copy under way, due or owed (`copyStep` other
    /// than the feed), a clock it refuses, a device not admitted (its refusal is given there).
    func feedRead(_ request: PullRequest, credentialHash: String, now: Int64, limit: Int) throws -> PullReply? {
        let offset = request.sentAt - now
        guard request.copyAfter == nil, abs(offset) <= SyncProtocol.maxClockOffsetMilliseconds else { return nil }
        return try pool.withConnection { c -> PullReply? in
            let parameters: [PostgresValue] = [.text(request.device.text), .text(credentialHash), .integer(now), .integer(offset),
                                               .integer(Int64(clamping: request.cursor)), .int(limit)]
            guard let row = try c.queryFirst(Statements.feedRead, parameters, { r in
                (own: try r.text(0), grouped: try r.text(1), needsCopy: try r.bool(2), position: UInt64(clamping: try r.int(3)),
                 forgotten: UInt64(clamping: try r.int(4)), entries: try r.text(5), last: try r.optionalInt(6), count: try r.int(7))
            }) else { return nil }
            let children = Set(SyncJSON.value(row.own)?.strings ?? []).union(SyncJSON.value(row.grouped)?.strings ?? []).sorted()
            let due = SyncProtocol.copyDue(cursor: request.cursor, needsCopy: row.needsCopy, forgotten: row.forgotten, position: row.position)
            guard case .feed = SyncProtocol.copyStep(nil, cursor: request.cursor, children: children, due: due, position: row.position) else {
                return nil
            }
            // Each entry decoded alone, from its line's bytes in place: the fast reader, or
            // Foundation's for what it leaves (an exponent, a fraction whose value is whole).
            // (`split` on the text's UTF-8 view and a `Data` a line were 3 % of the hub's CPU.)
            var entries: [SyncEntry] = []
            entries.reserveCapacity(Int(row.count))
            let whole = Self.eachLine(of: row.entries) { line in
                guard let entry = try? SyncWireReader.decode(SyncEntry.self, from: line) else { return false }
                entries.append(entry)
                return true
            }
            guard whole else { throw PostgresError.unexpectedValue(column: 5, expected: "a feed entry", statement: "feed") }
            guard entries.count == Int(row.count) else {
                throw PostgresError.unexpectedValue(column: 7, expected: "\(row.count) feed entries", statement: "feed")
            }
            // The device's next request writes it (`pullContact`).
            let cursor = entries.count == limit ? UInt64(clamping: row.last ?? 0) : max(row.position, request.cursor)
            return PullReply(entries: entries, cursor: cursor, more: cursor < row.position, freshCopy: false, children: children, hubTime: now)
        }
    }

    /// Hands each non-empty line of `text` to `line` as its bytes in place, until it returns false;
    /// whether every line was taken.
    static func eachLine(of text: String, _ line: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        var text = text
        return text.withUTF8 { utf8 -> Bool in
            var start = 0
            for end in 0...utf8.count where end == utf8.count || utf8[end] == UInt8(ascii: "\n") {
                defer { start = end + 1 }
                guard end > start else { continue }
                guard line(UnsafeBufferPointer(rebasing: utf8[start..<end])) else { return false }
            }
            return true
        }
    }

    /// The feed's entries after `position` for a process's tail (`FeedTail`, read by
    /// `PostgresSyncHub`'s follower): at most `limit` in position order, each decoded once, with
    /// the head they reach in one snapshot (the last one's position when the limit was reached,
    /// else the feed's newest position, or where it was forgotten through when that is later).
    package func feedAfter(_ position: UInt64, limit: Int, now: Int64) throws -> (items: [FeedTail.Item], head: UInt64) {
        try pool.withConnection { c in
            guard let row = try c.queryFirst(Statements.feedAfter, [.integer(Int64(clamping: position)), .int(limit)], { r in
                (newest: UInt64(clamping: try r.int(0)), forgotten: UInt64(clamping: try r.int(1)), lines: try r.text(2), count: try r.int(3))
            }) else {
                throw PostgresError.unexpectedValue(column: 0, expected: "the hub_state row", statement: "hub_state")
            }
            // A line a row: its position, a tab, its origin, a tab, its entry (`jsonb` text has no
            // tab nor line break of its own; a device's id has none either).
            var items: [FeedTail.Item] = []
            items.reserveCapacity(Int(row.count))
            let whole = Self.eachLine(of: row.lines) { line in
                guard let tab = line.firstIndex(of: UInt8(ascii: "\t")),
                      let second = line[(tab + 1)...].firstIndex(of: UInt8(ascii: "\t")),
                      let at = UInt64(String(decoding: UnsafeBufferPointer(rebasing: line[..<tab]), as: UTF8.self)),
                      let entry = try? SyncWireReader.decode(SyncEntry.self, from: UnsafeBufferPointer(rebasing: line[(second + 1)...])) else {
                    return false
                }
                let origin = String(decoding: UnsafeBufferPointer(rebasing: line[(tab + 1)..<second]), as: UTF8.self)
                items.append(FeedTail.Item(position: at, origin: origin, entry: entry, readAt: now))
                return true
            }
            guard whole, items.count == Int(row.count) else {
                throw PostgresError.unexpectedValue(column: 2, expected: "\(row.count) feed entries", statement: "feed")
            }
            let head = items.count == limit ? items[items.count - 1].position : max(row.newest, row.forgotten, items.last?.position ?? 0)
            return (items, head)
        }
    }

    /// The feed after the cursor for the device's children, skipping its own entries
    /// (`HubFeed.pull`), or a page of a fresh copy when its children changed, it asks to go on
    /// with one, or its cursor is older than the feed keeps. Pushes commit in position order
    /// (`push`), so what a pull sees of the feed is always a prefix of it.
    ///
    /// The feed is read in one statement (`feedRead`); anything else — a copy under way, due or
    /// owed, a clock refused, a device not admitted — in a transaction (docs/centre.md, "A pull's
    /// read"): `BEGIN` and the device admitted with the feed's head, then the copy's step. When that
    /// transaction finds the feed after all (a copy stopped being due between the two reads: the
    /// feed grew past a cursor from before a restore), the feed is read again as it is read first,
    /// at most twice more; then the device is told to ask again at once (no entries, its cursor,
    /// `more`), which loses nothing.
    package func pull(_ request: PullRequest, credentialHash: String, now: Int64,
                      limit: Int = SyncProtocol.maxBatchEntries) throws -> Result<PullReply, SyncRefusal> {
        if let refusal = Self.versionRefusal(request.protocolVersion) {
            return .failure(refusal)
        }
        var children: [String] = []
        for _ in 0..<3 {
            if let read = try feedRead(request, credentialHash: credentialHash, now: now, limit: limit) { return .success(read) }
            switch try decide(request, credentialHash: credentialHash, now: now, limit: limit) {
            case .answer(let answer): return answer
            case .feed(let sorted): children = sorted
            }
        }
        return .success(PullReply(entries: [], cursor: request.cursor, more: true, freshCopy: false, children: children, hubTime: now))
    }

    /// What `pull`'s transaction decided: its answer, or the feed (with the device's children).
    private enum PullDecision {
        case answer(Result<PullReply, SyncRefusal>)
        case feed([String])
    }

    /// `pull`'s transaction: the device admitted with the feed's head, then the copy's step.
    private func decide(_ request: PullRequest, credentialHash: String, now: Int64, limit: Int) throws -> PullDecision {
        var steps = Self.admitSteps(device: request.device, credentialHash: credentialHash, sentAt: request.sentAt, now: now, lock: false,
                                    cursor: request.cursor)
        let admitAt = steps.count - 1
        steps.append(PostgresConnection.Step(Statements.head))
        return try pool.withConnection { c in
            try c.transaction(beginningWith: steps) { c, read -> PullDecision in
                let admitted = try Self.admitted(read, at: admitAt, credentialHash: credentialHash, sentAt: request.sentAt, now: now)
                guard case .success(let device) = admitted else {
                    return .answer(admitted.map { _ in PullReply(entries: [], cursor: 0, more: false, freshCopy: false, children: [], hubTime: now) })
                }
                guard let head = try read.first(admitAt + 1, { (UInt64(clamping: try $0.int(0)), UInt64(clamping: try $0.int(1))) }) else {
                    throw PostgresError.unexpectedValue(column: 0, expected: "the hub_state row", statement: "hub_state")
                }
                let sorted = device.children.sorted()
                let (position, forgotten) = head
                // A cursor past the feed's end: the database was restored from an older backup, and
                // positions after the backup's are handed out again (`HubFeed.pull`; docs/sync.md,
                // "A hub put back in time").
                let due = SyncProtocol.copyDue(cursor: request.cursor, needsCopy: device.needsCopy, forgotten: forgotten, position: position)
                switch SyncProtocol.copyStep(request.copyAfter, cursor: request.cursor, children: sorted, due: due, position: position) {
                case .feed:
                    return .feed(sorted)
                case .taken(let cursor):
                    // Only now is the copy no longer due: a copy whose answer was lost is given again.
                    try c.run("UPDATE devices SET needs_copy = false, cursor = $1 WHERE id = $2",
                              [.integer(Int64(clamping: cursor)), .text(request.device.text)])
                    return .answer(.success(PullReply(entries: [], cursor: cursor, more: false, freshCopy: true, children: sorted, hubTime: now)))
                case .page(let after, let cursor):
                    return .answer(.success(try copy(c, request, after: after, cursor: cursor, children: sorted, needsCopy: device.needsCopy,
                                                     now: now, limit: limit)))
                }
            }
        }
    }

    /// A page of a fresh copy after `after` (`""`: its start); `cursor` is the feed's position when
    /// the copy began.
    private func copy(_ c: PostgresConnection, _ request: PullRequest, after: String, cursor: UInt64, children: [String],
                      needsCopy: Bool, now: Int64, limit: Int) throws -> PullReply {
        let page = try Self.copyPage(c, children: children, after: after, limit: limit)
        let next = SyncProtocol.copyAfterPage(children: children, lastKey: page.last?.key, done: page.count < limit, due: needsCopy)
        try c.run("UPDATE devices SET cursor = $1 WHERE id = $2", [.integer(Int64(clamping: cursor)), .text(request.device.text)])
        return PullReply(entries: page.map(\.entry), cursor: cursor, more: next != nil, freshCopy: true,
                         copyAfter: next, children: children, hubTime: now)
    }

    /// A page of a copy's registers: `$1` the children (`text[]`), `$2` the key it goes on after,
    /// `$3` the limit. The children's rows are found by `registers_by_child` and sorted: reading
    /// every register of the hub for each page (a `jsonb` list's hash join) took 40 ms a page with
    /// 98,000 registers, and 500 devices' first copies at once kept the pool's connections busy.
    package static let copyRegisters = """
        SELECT entity || '/' || record || '/' || field, entity, record, field, child, value::text, stamp FROM registers
        WHERE child = ANY ($1::text[]) AND (entity || '/' || record || '/' || field) COLLATE "C" > $2
        ORDER BY (entity || '/' || record || '/' || field) COLLATE "C" LIMIT $3
        """

    /// A page of a copy's events, as `copyRegisters` (`events_by_child_day`).
    package static let copyEvents = """
        SELECT id, child, routine, set_id, date, kind, at, stamp, shown_title::text, shown_icon::text FROM events
        WHERE child = ANY ($1::text[]) AND id COLLATE "C" > $2 ORDER BY id COLLATE "C" LIMIT $3
        """

    /// A page of the fresh copy of some children: every register (keyed `entity/record/field`),
    /// then every event (keyed `~id`), in key order (byte order, `COLLATE "C"`) after `after`.
    static func copyPage(_ c: PostgresConnection, children: [String], after: String, limit: Int) throws -> [(key: String, entry: SyncEntry)] {
        guard !children.isEmpty else { return [] }
        var page: [(key: String, entry: SyncEntry)] = []
        if !after.hasPrefix("~") {
            page = try c.query(copyRegisters, [.textArray(children), .text(after), .int(limit)]) { r in
                guard let entity = SyncEntity(rawValue: try r.text(1)), let value = SyncJSON.value(try r.text(5)),
                      let stamp = HybridTimestamp(try r.text(6)) else {
                    throw PostgresError.unexpectedValue(column: 1, expected: "a register (\(try r.text(0)))", statement: "registers")
                }
                return (try r.text(0), .change(FieldChange(entity: entity, record: try r.text(2), child: try r.text(4), field: try r.text(3),
                                                           value: value, stamp: stamp)))
            }
        }
        guard page.count < limit else { return page }
        let eventsAfter = after.hasPrefix("~") ? String(after.dropFirst()) : ""
        page += try c.query(copyEvents, [.textArray(children), .text(eventsAfter), .int(limit - page.count)]) { r in
            guard let kind = CompletionEvent.Kind(rawValue: try r.text(5)), let stamp = HybridTimestamp(try r.text(7)) else {
                throw PostgresError.unexpectedValue(column: 5, expected: "an event (\(try r.text(0)))", statement: "events")
            }
            return ("~" + (try r.text(0)), .event(CompletionEvent(id: try r.text(0), child: try r.text(1), routine: try r.text(2),
                                                                 set: try r.text(3), date: try r.text(4), kind: kind, at: try r.text(6),
                                                                 stamp: stamp, shownTitle: try r.optionalText(8).flatMap(SyncJSON.value),
                                                                 shownIcon: try r.optionalText(9).flatMap(SyncJSON.value))))
        }
        return page
    }

    /// Forgets feed entries taken longer ago than the horizon (`HubFeed.forget`); the registers
    /// keep everything, so a device whose cursor is older gets a fresh copy and misses no delete.
    /// Nothing to forget (most calls) is one read of the oldest entry on the `taken_at` index
    /// (`MAX(position) … WHERE taken_at < cutoff` alone walked the whole feed backwards by
    /// position when nothing was that old: with 50,000 entries it filled the pool); forgetting
    /// holds the `hub_state` row.
    /// Returns the position forgotten through when it forgot anything.
    @discardableResult
    package func forget(now: Int64) throws -> UInt64? {
        let cutoff = now - SyncProtocol.feedHorizonMilliseconds
        return try pool.withConnection { c -> UInt64? in
            guard let oldest = try c.queryFirst(Statements.oldestTaken, [], { try $0.optionalInt(0) }) ?? nil, oldest < cutoff,
                  let last = try c.queryFirst("SELECT MAX(position) FROM feed WHERE taken_at < $1", [.integer(cutoff)], {
                      try $0.optionalInt(0)
                  }) ?? nil else { return nil }
            try c.transaction { c in
                _ = try Self.lockHub(c)
                try c.run("DELETE FROM feed WHERE position <= $1", [.integer(last)])
                try c.run("UPDATE hub_state SET forgotten_through = GREATEST(forgotten_through, $1) WHERE id = 'singleton'",
                          [.integer(last)])
            }
            return UInt64(clamping: last)
        }
    }
}
