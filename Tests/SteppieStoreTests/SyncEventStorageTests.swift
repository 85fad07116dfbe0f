import Foundation
import SteppieCore
import SteppieSync
import SteppieTestSupport
import Testing
@testable import SteppieStore

/// Completion events kept compactly (schema v12, `SyncEventSQL`): every field comes back in its
/// protocol form, from a v11 database's rows, and through push → hub → pull and the fresh copy.
@Suite struct SyncEventStorageTests {
    static let device = "5b1e2f3a-0000-4000-8000-00000000000a"
    static let child = "c0000000-0000-4000-8000-000000000001"
    static let routine = "a0000000-0000-4000-8000-000000000002"
    static let set = "b0000000-0000-4000-8000-000000000003"

    static func stamp(_ wall: Int64, _ counter: Int) -> String {
        String(format: "%015lld-%08x-%@", wall, counter, device)
    }

    /// Rows as v11 kept them (`id, child, routine, set_id, date, kind, at, stamp, shown_title,
    /// shown_icon`): UUID ids at both ends of the range, every kind, looks whole, half and absent,
    /// offsets east, west and zero, an instant on the next local day; then forms kept as text: an
    /// uppercase id, `Z`, no fraction, `-00:00`, hour 25, a date SQLite would move (Feb 30), an instant before 1970.
    static let rows: [[String?]] = [
        ["3fa85f64-5717-4562-b3fc-2c963f66afa6", child, routine, set, "2026-03-08", "press", "2026-03-08T07:30:00.000-05:00",
         stamp(1_772_973_000_000, 0), #"{"en":"Brush","ko":"양치"}"#, #"{"name":"tooth","type":"builtin"}"#],
        ["ffffffff-ffff-4fff-bfff-ffffffffffff", child, routine, set, "2026-03-08", "undo", "2026-03-08T23:59:59.999+05:45",
         stamp(1_772_973_000_001, 16_777_215), nil, nil],
        ["00000000-0000-4000-8000-000000000000", child, routine, set, "2026-03-08", "correctDone", "2026-03-09T00:10:00.000+09:00",
         stamp(1_772_973_000_002, 7), #"{"en":"Brush"}"#, nil],
        ["80000000-0000-4000-8000-000000000001", child, routine, set, "2026-03-09", "correctUndone", "2026-03-09T12:00:00.000+00:00",
         stamp(1_772_973_000_003, 1), nil, #"{"backupAssetName":"routine-photo-a.png","localAssetId":"x","type":"photo"}"#],
        ["ABCDEF01-2345-4678-9ABC-DEF012345678", child, routine, set, "2026-03-08", "press", "2026-03-08T07:30:00Z",
         stamp(1_772_973_000_004, 0), #"{"en":"Brush","ko":"양치"}"#, #"{"name":"tooth","type":"builtin"}"#],
        ["not-a-uuid", child, routine, set, "2026-02-30", "press", "2026-02-30T07:30:00.000+09:00",
         stamp(1_772_973_000_005, 0), nil, nil],
        ["1b2c3d4e-0000-4000-8000-000000000009", child, routine, set, "1969-12-31", "press", "1969-12-31T23:00:00.000+00:00",
         stamp(1_772_973_000_006, 0), nil, nil],
        ["1b2c3d4e-0000-4000-8000-00000000000a", child, routine, set, "2026-03-08", "undo", "2026-03-08T07:30:00+09:00",
         stamp(1_772_973_000_007, 0), nil, nil],
        ["1b2c3d4e-0000-4000-8000-00000000000b", child, routine, set, "2026-03-08", "press", "2026-03-08T07:30:00.000-00:00",
         stamp(1_772_973_000_008, 0), nil, nil],
        ["1b2c3d4e-0000-4000-8000-00000000000c", child, routine, set, "2026-03-08", "press", "2026-03-08T25:00:00.000+09:00",
         stamp(1_772_973_000_009, 0), nil, nil],
    ]

    static let protocolForm = """
        SELECT id, child, routine, set_id, date, kind, at, stamp, shown_title, shown_icon FROM sync_events ORDER BY id
        """

    static func events(_ db: Connection) throws -> [[String?]] {
        try db.query(protocolForm) { r in (0..<10).map { r.optionalText(Int32($0)) } }
    }

    @Test func migrationV12KeepsEveryEventAndTheOutboxInTheirProtocolForm() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-v11-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("steppie.db").path
        let before: [[String?]]
        do {
            let db = try Connection(path: path)
            let v11 = try #require(Schema.migrations.firstIndex { $0.id == "v11-sync-recordings" })
            try Migrator(Array(Schema.migrations.prefix(v11 + 1))).migrate(db)
            try db.run("""
                INSERT INTO sync_state (id, role, device_id, hub_url, credential, joined_at)
                VALUES ('singleton', 'device', ?, 'https://127.0.0.1:1', 'c', '2026-03-08T07:00:00.000+09:00')
                """, [.text(Self.device)])
            for row in Self.rows {
                try db.run("""
                    INSERT INTO sync_events (id, child, routine, set_id, date, kind, at, stamp, shown_title, shown_icon)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, row.map { SQLValue.optionalText($0) })
            }
            // Waiting to be pushed: a compact event, a register, an event kept as text.
            try db.run("INSERT INTO sync_outbox (child, stamp, event_id) VALUES (?, ?, ?)",
                       [.text(Self.child), .optionalText(Self.rows[0][7]), .optionalText(Self.rows[0][0])])
            try db.run("""
                INSERT INTO sync_outbox (entity, record, field, child, value, stamp) VALUES ('child', ?1, 'name', ?1, '"Mina"', ?2)
                """, [.text(Self.child), .text(Self.stamp(1_772_973_000_010, 0))])
            try db.run("INSERT INTO sync_outbox (child, stamp, event_id) VALUES (?, ?, ?)",
                       [.text(Self.child), .optionalText(Self.rows[4][7]), .optionalText(Self.rows[4][0])])
            before = try Self.events(db)
        }
        #expect(before.count == Self.rows.count)
        let store = try Store(path: path, timeZone: TimeZone(identifier: "Asia/Seoul") ?? .current)
        #expect(try Migrator().applied(store.db).last == "v12-compact-sync-events")
        #expect(try Self.events(store.db) == before)
        // Kept compactly where the form allows: integer ids, days and instants.
        let compact = try store.db.queryFirst("""
            SELECT count(*) FROM sync_event_log WHERE typeof(hi) = 'integer' AND typeof(day) = 'integer' AND typeof(at_ms) = 'integer'
            """) { $0.int(0) }
        #expect(compact == 4)
        #expect(try store.db.queryFirst("SELECT count(*) FROM sync_event_targets") { $0.int(0) } == 1)
        #expect(try store.db.queryFirst("SELECT count(*) FROM sync_event_looks") { $0.int(0) } == 3)
        // The digest reads the same rows.
        var lines: [[String]] = []
        let counted = try store.syncCanonicalState { lines.append($0) }
        #expect(counted.events == Self.rows.count)
        #expect(lines.map { Array($0.dropFirst().prefix(8)) } == before.map { row in row.prefix(8).map { $0 ?? "" } })
        // The outbox still names its events: the push carries them whole.
        let push = try #require(try store.syncPushRequest(physical: 1_772_973_000_000))
        #expect(push.entries.count == 3)
        for (numbered, row) in zip([push.entries[0], push.entries[2]], [Self.rows[0], Self.rows[4]]) {
            guard case .event(let event) = numbered.entry else {
                Issue.record("not an event: \(numbered.entry)")
                continue
            }
            #expect(Self.normalized([Self.protocolRow(event)]) == Self.normalized([row]))
        }
        // Still one event per id: the same event again is not kept twice.
        try store.write {
            _ = try store.applySyncEntries([.event(try #require(Self.event(Self.rows[1])))], physical: 1_772_973_000_000)
        }
        #expect(try Self.events(store.db) == before)
    }

    /// Rows with their looks' JSON written one way (a device keeps its own looks as SQLite's
    /// `json()` wrote them, the hub and other devices as the protocol did; the digest reads both alike).
    static func normalized(_ rows: [[String?]]) -> [[String?]] {
        rows.map { row in
            row.enumerated().map { i, text in i >= 8 ? text.map { SyncJSON.value($0).map(SyncJSON.text) ?? $0 } : text }
        }
    }

    /// An event's fields in the order of `protocolForm`, looks as stored JSON.
    static func protocolRow(_ e: CompletionEvent) -> [String?] {
        [e.id, e.child, e.routine, e.set, e.date, e.kind.rawValue, e.at, e.stamp.description,
         e.shownTitle.map(SyncJSON.text), e.shownIcon.map(SyncJSON.text)]
    }

    static func event(_ row: [String?]) -> CompletionEvent? {
        guard let id = row[0], let child = row[1], let routine = row[2], let set = row[3], let date = row[4],
              let kind = row[5].flatMap(CompletionEvent.Kind.init(rawValue:)), let at = row[6],
              let stamp = row[7].flatMap(HybridTimestamp.init) else { return nil }
        return CompletionEvent(id: id, child: child, routine: routine, set: set, date: date, kind: kind, at: at, stamp: stamp,
                               shownTitle: row[8].flatMap(SyncJSON.value), shownIcon: row[9].flatMap(SyncJSON.value))
    }

    @Test func everyKindWithAndWithoutItsLookComesBackTheSameThroughPushHubPullAndTheCopy() throws {
        let (rig, home, school, child) = try SyncRig.homeAndSchool()
        let day = home.today
        let routines = try home.store.today(childId: child.id, day: day).items.map(\.routine)
        try #require(routines.count >= 3)
        let pressed = try home.store.complete(childId: child.id, day: day, at: home.now)                       // press, its look
        _ = try home.store.undo(childId: child.id, day: day, at: home.now.addingTimeInterval(1), windowSeconds: 5)   // undo, none
        _ = try home.store.setDayEntry(childId: child.id, routineId: routines[1].id, day: day, done: true,
                                       at: home.now.addingTimeInterval(2))                                       // correctDone
        _ = try home.store.setDayEntry(childId: child.id, routineId: routines[1].id, day: day, done: false,
                                       at: home.now.addingTimeInterval(3))                                       // correctUndone
        // Written as another program would (the sqlite3 tool, through the view the triggers use):
        // forms kept as text, a look with only a title.
        let raw = try home.rawConnection()
        let routine = routines[2].id.lowercased, set = routines[2].routineSetId.lowercased, childID = child.id.lowercased
        try raw.run("""
            INSERT INTO sync_local_events (id, child, routine, set_id, date, kind, at, shown_title, shown_icon)
            VALUES ('ABCDEF01-2345-4678-9ABC-DEF012345678', ?1, ?2, ?3, ?4, 'press', '2026-03-02T07:00:05Z', '{"en":"Odd"}', NULL),
                ('0f0e0d0c-0b0a-4908-8706-050403020100', ?1, ?2, ?3, ?4, 'correctDone', '2026-03-02T07:00:06.000+09:00', NULL, NULL)
            """, [.text(childID), .text(routine), .text(set), .text(day.description)])
        let made = try Self.events(raw)
        #expect(made.count >= 6)
        #expect(Set(made.compactMap { $0[5] }) == ["press", "undo", "correctDone", "correctUndone"])
        let press = try #require(made.first { $0[5] == "press" && $0[2] == pressed.routineId.lowercased })
        #expect(press[5] == "press" && press[8] != nil && press[9] != nil)
        #expect(made.filter { $0[5] == "undo" }.allSatisfy { $0[8] == nil && $0[9] == nil })
        let odd = try #require(made.first { $0[0] == "ABCDEF01-2345-4678-9ABC-DEF012345678" })
        #expect(odd == ["ABCDEF01-2345-4678-9ABC-DEF012345678", childID, routine, set, day.description, "press",
                        "2026-03-02T07:00:05Z", odd[7], #"{"en":"Odd"}"#, nil])
        // What the push carries is what was made, field by field.
        let push = try #require(try home.store.syncPushRequest(physical: rig.physical))
        let pushed = push.entries.compactMap { numbered -> [String?]? in
            if case .event(let event) = numbered.entry { return Self.protocolRow(event) } else { return nil }
        }
        #expect(Self.normalized(pushed.sorted { ($0[0] ?? "") < ($1[0] ?? "") }) == Self.normalized(made))
        try rig.sync(0)
        try rig.sync(1)
        // A third device copies the child in pages of 3.
        let third = try StoreFixture()
        try rig.join(third, children: [childID])
        rig.pullLimit = 3
        try rig.sync(2)
        for store in [rig.hub, school, third] {
            #expect(try Self.normalized(Self.events(store.rawConnection())) == Self.normalized(made))
        }
        let state = try SyncRig.state(home.store)
        #expect(try SyncRig.state(rig.hub.store) == state)
        #expect(try SyncRig.state(school.store) == state)
        #expect(try SyncRig.state(third.store) == state)
    }

    /// The fold decodes ids and instants in Swift (`SyncEventText`): the very text the SQL
    /// decoding (`SyncEventSQL.idText`, `atText`, what `sync_events` shows) gives, on random values
    /// and at the edges (the ids' extremes, 1970-01-01, leap days, offsets of both signs).
    @Test func theFoldsDecodingInSwiftIsTheSQLDecodingByteForByte() throws {
        var rng = SeededRandom(seed: 4242)
        let db = try Connection(path: ":memory:", wal: false)
        let idSQL = "SELECT \(SyncEventSQL.idText(hi: "?1", lo: "?2"))"
        let atSQL = "SELECT \(SyncEventSQL.atText(day: "?1", ms: "?2", offset: "?3"))"
        var ids: [(Int64, Int64)] = [(0, 0), (-1, -1), (Int64.min, Int64.max), (Int64.max, Int64.min), (1, -2)]
        var instants: [(Int64, Int64, Int64)] = [(0, 0, 0), (0, 0, -720), (11_016, 43_200_000, 540), (19_417, 86_399_999, -300),
                                                 (20_513, 0, 840), (47_482, 1, -59), (1, -86_400_000, 60)]
        for _ in 0..<2_000 {
            ids.append((Int64.random(in: .min ... .max, using: &rng), Int64.random(in: .min ... .max, using: &rng)))
            let day = Int64.random(in: 1...2_932_896, using: &rng)   // to 9999-12-31
            instants.append((day, Int64.random(in: -86_400_000...(2 * 86_400_000), using: &rng), Int64.random(in: -900...900, using: &rng)))
        }
        for (hi, lo) in ids {
            let sql = try db.queryFirst(idSQL, [.integer(hi), .integer(lo)]) { $0.text(0) }
            #expect(SyncEventText.id(hi: hi, lo: lo) == sql, "\(hi) \(lo)")
        }
        for (day, ms, offset) in instants where day * 86_400_000 + ms >= 0 && day * 86_400_000 + ms < 253_402_300_800_000 {
            let sql = try db.queryFirst(atSQL, [.integer(day), .integer(ms), .integer(offset)]) { $0.text(0) }
            #expect(SyncEventText.instant(localMilliseconds: day * 86_400_000 + ms, offsetMinutes: offset) == sql, "\(day) \(ms) \(offset)")
        }
    }
}
