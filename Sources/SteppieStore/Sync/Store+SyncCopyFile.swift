import Foundation
import SteppieCore
import SteppieSync

/// A fresh copy given as one file (docs/sync.md, "A fresh copy as one file"): the household hub
/// writes its children's registers and events, in their stored form, into a new SQLite file in one
/// read snapshot; the device fetches it and takes it in one transaction, then decides every day
/// once, as a paged copy's last page does. Nothing is turned into JSON and back, and a device asks
/// for one file instead of hundreds of pages.
enum SyncCopyFileFormat {
    static let version = "1"

    /// The file's tables (the only objects it may hold), created under the schema name `into`.
    static func tables(into schema: String) -> [String] {
        [
            "CREATE TABLE \(schema).meta (key TEXT NOT NULL, value TEXT NOT NULL) STRICT",
            """
            CREATE TABLE \(schema).registers (entity TEXT NOT NULL, record TEXT NOT NULL, field TEXT NOT NULL, child TEXT NOT NULL,
                value TEXT NOT NULL, stamp TEXT NOT NULL) STRICT
            """,
            "CREATE TABLE \(schema).targets (id INTEGER PRIMARY KEY, routine TEXT NOT NULL, set_id TEXT NOT NULL, child TEXT NOT NULL) STRICT",
            "CREATE TABLE \(schema).origins (id INTEGER PRIMARY KEY, device TEXT NOT NULL) STRICT",
            "CREATE TABLE \(schema).looks (id INTEGER PRIMARY KEY, title TEXT NOT NULL, icon TEXT NOT NULL) STRICT",
            """
            CREATE TABLE \(schema).events (target INTEGER NOT NULL, day ANY NOT NULL, hi ANY NOT NULL, lo INTEGER NOT NULL,
                kind INTEGER NOT NULL, at_ms ANY NOT NULL, at_offset INTEGER, wall INTEGER NOT NULL, counter INTEGER NOT NULL,
                origin INTEGER NOT NULL, look INTEGER) STRICT
            """,
        ]
    }

    /// Every column of every table as `table.column type notnull pk`, sorted: what a file must show.
    static let shapeQuery = """
        SELECT group_concat(x, ' ') FROM (SELECT m.name || '.' || p.name || ':' || p.type || ':' || p."notnull" || ':' || p.pk AS x
            FROM SCHEMA.sqlite_schema m, pragma_table_info(m.name, 'SCHEMA') p ORDER BY m.name, p.cid)
        """

    /// The entities a register may name.
    static var entityList: String { SyncEntity.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ") }

    /// A stamp's text: 15 digits, 8 hex digits and a lowercase device id.
    static let stampGlob: String = {
        let hex = "[0-9a-f]"
        let uuid = [8, 4, 4, 4, 12].map { String(repeating: hex, count: $0) }.joined(separator: "-")
        return "'" + String(repeating: "[0-9]", count: 15) + "-" + String(repeating: hex, count: 8) + "-" + uuid + "'"
    }()
}

extension Store {
    // MARK: The hub's side

    /// Writes a fresh copy of `children` into a new file at `path` (which must not exist) and
    /// returns the feed position it is a copy at. Everything is read in one snapshot of the hub's
    /// database, on this store's own connection, without its write lock: pushes go on meanwhile
    /// and come to the device through the feed after that position.
    package func syncHubWriteCopy(children: [String], to path: String) throws -> UInt64 {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw StoreError.fileSystem(path: path, reason: "a copy file is never written over")
        }
        do {
            try db.run("ATTACH DATABASE ? AS copy", [.text(path)])
            defer { try? db.execute("DETACH DATABASE copy") }
            try db.execute("PRAGMA copy.journal_mode = OFF; PRAGMA copy.synchronous = OFF")
            let list = SQLValue.text(SyncJSON.text(.array(children.sorted().map(SyncValue.string))))
            return try db.transaction(immediate: false) {
                _ = try hubState()
                let position = try db.queryFirst("SELECT COALESCE(MAX(position), 0) FROM sync_feed") { $0.int(0) } ?? 0
                for table in SyncCopyFileFormat.tables(into: "copy") { try db.execute(table) }
                try db.run("INSERT INTO copy.meta VALUES ('format', ?), ('cursor', ?), ('children', ?)",
                           [.text(SyncCopyFileFormat.version), .text(String(position)), list])
                try db.run("""
                    INSERT INTO copy.registers SELECT entity, record, field, child, value, stamp FROM main.sync_registers
                    WHERE child IN (SELECT value FROM json_each(?)) ORDER BY entity, record, field
                    """, [list])
                try db.run("""
                    INSERT INTO copy.targets SELECT id, routine, set_id, child FROM main.sync_event_targets
                    WHERE child IN (SELECT value FROM json_each(?)) ORDER BY id
                    """, [list])
                // Along sync_event_log's key, one range per target: the device inserts in that order too.
                try db.execute("""
                    INSERT INTO copy.events SELECT e.target, e.day, e.hi, e.lo, e.kind, e.at_ms, e.at_offset, e.wall, e.counter, e.origin, e.look
                    FROM copy.targets t CROSS JOIN main.sync_event_log e ON e.target = t.id ORDER BY t.id, e.day, e.hi, e.lo;
                    INSERT INTO copy.origins SELECT id, device FROM main.sync_event_origins WHERE id IN (SELECT origin FROM copy.events);
                    INSERT INTO copy.looks SELECT id, title, icon FROM main.sync_event_looks WHERE id IN (SELECT look FROM copy.events);
                    """)
                return UInt64(clamping: position)
            }
        } catch let e as SQLiteError {
            try? FileManager.default.removeItem(atPath: path)
            throw StoreError.sqlite(e)
        }
    }

    /// Whether the device's next pull is a fresh copy (the children it is of, and the feed's
    /// position now), after checking its credential, version and clock as a pull does; nil when
    /// the feed answers it.
    package func syncHubCopyDue(_ request: PullRequest, credentialHash: String, now: Int64)
        throws -> Result<(children: [String], position: UInt64)?, SyncRefusal> {
        try write {
            _ = try hubState()
            let admitted = try admit(request.device, credentialHash: credentialHash, protocolVersion: request.protocolVersion,
                                     sentAt: request.sentAt, now: now)
            guard case .success(let device) = admitted else { return admitted.map { _ in nil } }
            let position = UInt64(clamping: try db.queryFirst("SELECT COALESCE(MAX(position), 0) FROM sync_feed") { $0.int(0) } ?? 0)
            let forgotten = UInt64(clamping: try db.queryFirst("SELECT forgotten_through FROM sync_state") { $0.int(0) } ?? 0)
            let due = request.copyAfter != nil
                || SyncProtocol.copyDue(cursor: request.cursor, needsCopy: device.needsCopy, forgotten: forgotten, position: position)
            return .success(due ? (device.children.sorted(), position) : nil)
        }
    }

    /// Records that the device was given a copy file of `children` at `cursor`: its cursor, and its
    /// copy no longer due, unless its children changed since the file was made (then the next pull
    /// makes another).
    package func syncHubCopyGiven(device: DeviceID, children: [String], cursor: UInt64) throws {
        try write {
            _ = try hubState()
            try db.run("""
                UPDATE sync_devices SET cursor = ?1, needs_copy = CASE WHEN children = ?2 THEN 0 ELSE needs_copy END WHERE id = ?3
                """, [.integer(Int64(clamping: cursor)), .text(SyncJSON.text(.array(children.sorted().map(SyncValue.string)))),
                      .text(device.text)])
        }
    }

    // MARK: The device's side

    /// Takes a fresh copy's file (`reply`: the pull's reply that named it, already recorded by
    /// `syncPulled`) in one transaction: its registers as a pull's changes are taken, its events
    /// kept once each, then every day of the copy's children decided (`foldCopiedDays`), and the
    /// cursor moved to the file's. A file of another shape, format, cursor or children, or with a
    /// value the tables refuse, is refused whole (`syncCopyFileRefused`) and nothing changes.
    @discardableResult
    package func syncApplyCopyFile(at path: String, reply: PullReply, physical: Int64) throws -> SyncApplied {
        guard let file = reply.copyFile else { throw StoreError.syncCopyFileRefused(reason: "the reply names no file") }
        do {
            try db.run("ATTACH DATABASE ? AS copy", [.text(path)])
        } catch let e as SQLiteError {
            if e.code & 0xFF == 11 || e.code & 0xFF == 26 { throw StoreError.syncCopyFileRefused(reason: e.message) }
            throw StoreError.sqlite(e)
        }
        defer { try? db.execute("DETACH DATABASE copy") }
        func refuse(_ reason: String) -> StoreError { .syncCopyFileRefused(reason: reason) }
        do {
            let list = SQLValue.text(SyncJSON.text(.array(reply.children.sorted().map(SyncValue.string))))
            return try write {
                guard let state = try loadSyncState(), state.role == .device else { throw StoreError.syncOff }
                guard state.copyAfter == file.mark else { throw refuse("this device is not waiting for that file") }
                try checkCopyFile(cursor: reply.cursor, children: list)
                // Every stamp from elsewhere is observed as a pull observes its entries'.
                var clock = HybridClock(device: state.device, last: state.clock)
                let me = SQLValue.text(state.device.text)
                let newest = [
                    try db.queryFirst("SELECT MAX(stamp) FROM copy.registers WHERE substr(stamp, 26) <> ?", [me]) { $0.optionalText(0) } ?? nil,
                    try db.queryFirst("""
                        SELECT printf('%015d-%08x-%s', e.wall, e.counter, g.device) FROM copy.events e JOIN copy.origins g ON g.id = e.origin
                        WHERE g.device <> ? ORDER BY e.wall DESC, e.counter DESC LIMIT 1
                        """, [me]) { $0.optionalText(0) } ?? nil,
                ].compactMap { $0.flatMap(HybridTimestamp.init) }
                for stamp in newest {
                    do {
                        try clock.observe(stamp, physical: physical, maxAhead: 2 * SyncProtocol.maxClockOffsetMilliseconds)
                    } catch let skew as ClockSkew {
                        throw StoreError.syncHubAhead(milliseconds: skew.offsetMilliseconds)
                    }
                }
                var children = Set(reply.children)
                children.formUnion(try db.query("SELECT DISTINCT child FROM sync_outbox") { $0.text(0) })
                let taken = SQLValue.text(SyncJSON.text(.array(children.sorted().map(SyncValue.string))))
                return try withBulkCache(kib: Store.copyCacheKiB) {
                    try db.run("UPDATE sync_state SET applying = 1")
                    var applied = try takeCopyFile(children: taken)
                    if let newest = newest.max() {
                        try db.run("""
                            UPDATE sync_state SET clock_wall = ?, clock_counter = ?
                            WHERE clock_wall < ? OR (clock_wall = ? AND clock_counter < ?)
                            """, [.integer(newest.wall), .integer(Int64(newest.counter)), .integer(newest.wall), .integer(newest.wall),
                                  .integer(Int64(newest.counter))])
                    }
                    var touched = Touched()
                    touched.foldDays = false
                    for (entity, record) in try db.query("""
                        SELECT DISTINCT entity, record FROM copy.registers WHERE child IN (SELECT value FROM json_each(?))
                        """, [taken], { ($0.text(0), $0.text(1)) }) {
                        if let entity = SyncEntity(rawValue: entity) { touched.records[entity, default: []].insert(record) }
                    }
                    (applied.conflicts, applied.conflictedChildren) = try materialize(touched, physical: physical)
                    applied.conflicts += try foldCopiedDays(children: children.sorted(), physical: physical)
                    try db.run("UPDATE sync_state SET applying = 0")
                    try db.run("""
                        UPDATE sync_state SET cursor = ?, copy_after = NULL, last_refusal = NULL, last_contact = ?, last_offset_ms = ?
                        """, [.integer(Int64(clamping: reply.cursor)), .integer(physical), .integer(reply.hubTime - physical)])
                    return applied
                }
            }
        } catch let e as StoreError {
            if case .sqlite(let s) = e, s.isConstraintViolation || s.code & 0xFF == 11 || s.code & 0xFF == 26 {
                throw refuse(s.message)   // a value a table refuses, a damaged file, not SQLite at all
            }
            throw e
        }
    }

    /// After a refused file: the device still needs its copy, but not that file; `=` alone asks
    /// the hub for a new one (a mark naming no file).
    package func syncForgetCopyFile() throws {
        try write {
            try db.run("UPDATE sync_state SET copy_after = '=' WHERE copy_after LIKE '=%'")
        }
    }

    /// The attached file's shape, format, cursor and children are the ones expected, and every
    /// register's entity, value and stamp can be read.
    private func checkCopyFile(cursor: UInt64, children: SQLValue) throws {
        func refuse(_ reason: String) -> StoreError { .syncCopyFileRefused(reason: reason) }
        let memory = try Connection(path: ":memory:", wal: false)
        for table in SyncCopyFileFormat.tables(into: "main") { try memory.execute(table) }
        let shape = { (c: Connection, schema: String) in
            try c.queryFirst(SyncCopyFileFormat.shapeQuery.replacingOccurrences(of: "SCHEMA", with: schema)) { $0.optionalText(0) } ?? nil
        }
        let objects = try db.queryFirst("SELECT COUNT(*) FROM copy.sqlite_schema") { $0.int(0) } ?? 0
        guard objects == 6, try shape(db, "copy") == shape(memory, "main") else { throw refuse("not a copy file of this version") }
        let meta = Dictionary(try db.query("SELECT key, value FROM copy.meta") { ($0.text(0), $0.text(1)) }, uniquingKeysWith: { a, _ in a })
        guard meta["format"] == SyncCopyFileFormat.version else { throw refuse("format \(meta["format"] ?? "none")") }
        guard meta["cursor"] == String(cursor), case .text(let expected) = children, meta["children"] == expected else {
            throw refuse("a copy at another position or of other children")
        }
        let bad = try db.queryFirst("""
            SELECT COUNT(*) FROM copy.registers WHERE entity NOT IN (\(SyncCopyFileFormat.entityList)) OR NOT json_valid(value)
                OR NOT stamp GLOB \(SyncCopyFileFormat.stampGlob)
            """) { $0.int(0) } ?? 0
        guard bad == 0 else { throw refuse("\(bad) registers cannot be read") }
        let lost = try db.queryFirst("""
            SELECT COUNT(*) FROM copy.events WHERE target NOT IN (SELECT id FROM copy.targets) OR origin NOT IN (SELECT id FROM copy.origins)
                OR (look IS NOT NULL AND look NOT IN (SELECT id FROM copy.looks))
            """) { $0.int(0) } ?? 0
        guard lost == 0 else { throw refuse("\(lost) events name what the file does not hold") }
    }

    /// The attached file's registers and events of `children` (a JSON list), taken as a pull takes
    /// them: a register only when its stamp is later than the one here and its record is no other
    /// child's, an event once.
    private func takeCopyFile(children: SQLValue) throws -> SyncApplied {
        var applied = SyncApplied()
        try db.run("""
            INSERT INTO sync_registers (entity, record, field, child, value, stamp)
            SELECT c.entity, c.record, c.field, c.child, c.value, c.stamp FROM copy.registers c
            WHERE c.child IN (SELECT value FROM json_each(?1))
                AND NOT EXISTS (SELECT 1 FROM sync_registers m WHERE m.entity = c.entity AND m.record = c.record AND m.child <> c.child)
            ON CONFLICT (entity, record, field) DO UPDATE SET value = excluded.value, stamp = excluded.stamp
            WHERE excluded.stamp > sync_registers.stamp
            """, [children])
        applied.changesTaken = db.changes
        // The file's own numbering of targets, origins and looks, mapped to this database's.
        try db.execute("""
            CREATE TEMP TABLE IF NOT EXISTS copy_targets (copy_id INTEGER PRIMARY KEY, id INTEGER NOT NULL);
            CREATE TEMP TABLE IF NOT EXISTS copy_origins (copy_id INTEGER PRIMARY KEY, id INTEGER NOT NULL);
            CREATE TEMP TABLE IF NOT EXISTS copy_looks (copy_id INTEGER PRIMARY KEY, id INTEGER NOT NULL);
            DELETE FROM temp.copy_targets; DELETE FROM temp.copy_origins; DELETE FROM temp.copy_looks;
            """)
        try db.run("""
            INSERT INTO sync_event_targets (routine, set_id, child) SELECT routine, set_id, child FROM copy.targets
            WHERE child IN (SELECT value FROM json_each(?1)) ORDER BY id ON CONFLICT DO NOTHING
            """, [children])
        try db.run("""
            INSERT INTO temp.copy_targets SELECT c.id, m.id FROM copy.targets c
            JOIN sync_event_targets m ON m.routine = c.routine AND m.set_id = c.set_id AND m.child = c.child
            WHERE c.child IN (SELECT value FROM json_each(?1))
            """, [children])
        try db.execute("""
            INSERT INTO sync_event_origins (device) SELECT device FROM copy.origins ORDER BY id ON CONFLICT DO NOTHING;
            INSERT INTO temp.copy_origins SELECT c.id, m.id FROM copy.origins c JOIN sync_event_origins m ON m.device = c.device;
            INSERT INTO sync_event_looks (title, icon) SELECT title, icon FROM copy.looks ORDER BY id ON CONFLICT DO NOTHING;
            INSERT INTO temp.copy_looks SELECT c.id, m.id FROM copy.looks c JOIN sync_event_looks m ON m.title = c.title AND m.icon = c.icon;
            """)
        try db.run("""
            INSERT INTO sync_event_log (target, day, hi, lo, kind, at_ms, at_offset, wall, counter, origin, look)
            SELECT t.id, e.day, e.hi, e.lo, e.kind, e.at_ms, e.at_offset, e.wall, e.counter, g.id, k.id
            FROM copy.events e JOIN temp.copy_targets t ON t.copy_id = e.target JOIN temp.copy_origins g ON g.copy_id = e.origin
                LEFT JOIN temp.copy_looks k ON k.copy_id = e.look
            WHERE true ON CONFLICT DO NOTHING
            """)
        applied.eventsTaken = db.changes
        try db.execute("DELETE FROM temp.copy_targets; DELETE FROM temp.copy_origins; DELETE FROM temp.copy_looks;")
        return applied
    }
}
