import CSQLite
import Foundation
import SteppieCore

/// What a bulk load of daily_logs took away, to be made again after the rows: the table's own
/// indexes and its set-matching trigger, as the schema wrote them.
struct DeferredLogSchema {
    /// `sqlite_schema.sql` of each dropped object, in schema order.
    var statements: [String]
}

extension Store {
    /// The trigger whose rule (a log's set is its routine's set) the load checks itself.
    static let setTrigger = "daily_logs_set_matches_routine"
    /// Pages the connection may cache during a bulk load (KiB, as `PRAGMA cache_size` takes a
    /// negative value): the id index, inserted at random places, stays in memory instead of being
    /// written to the WAL and read back again and again (the default is 2 MiB).
    static let bulkCacheKiB = 32 * 1024
    /// Pages a fresh copy's connection may cache (KiB): an eighth of the machine's memory, from
    /// 32 MiB to 512 MiB. A copy's last page (or its file) writes every day of its children in one transaction
    /// (a million rows for ten children's ten years); what the cache cannot hold is spilled to the
    /// WAL and read back again and again, and the unique (date, routine) index it fills at random
    /// places is about 50 MiB for those ten years. Memory is taken only as pages are used.
    static let copyCacheKiB: Int = {
        let eighth = Int(clamping: ProcessInfo.processInfo.physicalMemory / 8 / 1024)
        return min(max(eighth, bulkCacheKiB), 512 * 1024)
    }()
    /// Helper threads SQLite may use to sort while it builds the dropped indexes again.
    static let bulkSortThreads = 1

    /// Runs `body` with a larger page cache, then puts the connection's own size back.
    func withBulkCache<T>(kib: Int = Store.bulkCacheKiB, _ body: () throws -> T) throws -> T {
        let before = try db.queryFirst("PRAGMA cache_size") { $0.int(0) } ?? -2000
        return try withPragma("cache_size", "-\(kib)", restoring: "\(before)", body)
    }

    /// Sets `PRAGMA name = value` for `body`, then `restoring`. A failure to restore is reported
    /// when `body` succeeded; when `body` threw, its error is the one reported.
    func withPragma<T>(_ name: String, _ value: String, restoring: String, _ body: () throws -> T) throws -> T {
        try db.execute("PRAGMA \(name) = \(value)")
        let result: T
        do { result = try body() } catch {
            try? db.execute("PRAGMA \(name) = \(restoring)")
            throw error
        }
        try db.execute("PRAGMA \(name) = \(restoring)")
        return result
    }

    /// Drops daily_logs' explicit indexes and its set-matching trigger (inside the caller's
    /// transaction: a rollback brings them back), returning what makes them again.
    func dropLogIndexes() throws -> DeferredLogSchema {
        let objects = try db.query("""
            SELECT type, name, sql FROM sqlite_schema
            WHERE tbl_name = 'daily_logs' AND sql IS NOT NULL AND (type = 'index' OR (type = 'trigger' AND name = ?))
            ORDER BY rowid
            """, [.text(Store.setTrigger)]) { (type: $0.text(0), name: $0.text(1), sql: $0.text(2)) }
        for o in objects {
            try db.execute("DROP \(o.type == "index" ? "INDEX" : "TRIGGER") \"\(o.name)\"")
        }
        return DeferredLogSchema(statements: objects.map(\.sql))
    }

    /// Makes the dropped indexes and trigger again from their own SQL (so `sqlite_schema` holds
    /// the same text); each index is built in one sorted pass over the table.
    func rebuild(_ deferred: DeferredLogSchema) throws {
        // A helper thread may sort beside this one; the connection's own setting comes back after.
        let threads = try db.queryFirst("PRAGMA threads") { $0.int(0) } ?? 0
        try withPragma("threads", "\(Store.bulkSortThreads)", restoring: "\(threads)") {
            for sql in deferred.statements { try db.execute(sql) }
        }
    }

    /// Inserts `logs` in order with one prepared statement, every value written as bytes into one
    /// buffer and bound without a copy. Each log is checked against the contract first.
    ///
    /// `bulk` (the set-matching trigger is dropped): each log's set is checked against its
    /// routine's here instead, and daily_logs' CHECK constraints are not evaluated for these rows
    /// (a quarter of the insert's time: four GLOBs a row). They hold by construction: the id is
    /// `UUIDText.writeLowercase`'s 36 characters, the date `LocalDay.write`'s `YYYY-MM-DD`, the
    /// stamps `StampFormatter.write`'s, the status one of the two words, and completed ⇔
    /// completed_at is `Validator.log`'s rule, checked above. NOT NULL, UNIQUE and the foreign
    /// keys are still enforced; `RestoreScaleTests` runs `PRAGMA integrity_check` (which checks
    /// the CHECKs) over restored rows.
    func loadLogs(_ logs: DailyLogRecords, bulk: Bool) throws {
        guard !logs.isEmpty else { return }
        let checkingSets = bulk
        let refs = logs.refs
        // Each routine and set id as its lowercase text, once.
        var refText = [UInt8](repeating: 0, count: refs.count * UUIDText.length)
        refText.withUnsafeMutableBufferPointer { out in
            guard let base = out.baseAddress else { return }
            for (n, id) in refs.enumerated() { UUIDText.writeLowercase(id, to: base + n * UUIDText.length) }
        }
        // The set each ref's routine is in (as a ref; -1: not a routine here, or its set is no ref).
        var routineSetRef = [Int](repeating: -1, count: refs.count)
        if checkingSets {
            var refIndex: [UUID: Int] = [:]
            for (n, id) in refs.enumerated() { refIndex[id] = n }
            for (routine, set) in try db.query("SELECT id, routine_set_id FROM routines", [], { ($0.text(0), $0.text(1)) }) {
                guard let r = UUIDText.parse(routine).flatMap({ refIndex[$0] }) else { continue }
                routineSetRef[r] = UUIDText.parse(set).flatMap { refIndex[$0] } ?? -2
            }
        }
        let sql = "INSERT INTO daily_logs (\(Store.logColumnsWithLook)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        // A flag pragma expires every prepared statement: the insert is compiled without the
        // CHECKs while it is on, and with them again the next time anyone uses it.
        func insert() throws {
            let statement = try db.statement(sql)
            defer { statement.reset() }   // the bindings point into buffers that end with this call
            let stamps = StampFormatter(timeZone: timeZone)
            let stamp = StampFormatter.length
            // id, date, completed_at, created_at, updated_at
            var row = [UInt8](repeating: 0, count: UUIDText.length + 10 + 3 * stamp)
            let completed: StaticString = "completed", undone: StaticString = "undone"
            try refText.withUnsafeBufferPointer { refText in
                try row.withUnsafeMutableBufferPointer { row in
                    guard let p = row.baseAddress, let refBase = refText.baseAddress else { return }
                    let id = p, date = p + UUIDText.length, completedAt = date + 10, createdAt = completedAt + stamp, updatedAt = createdAt + stamp
                    for (n, l) in logs.records.enumerated() {
                        if l.completed != l.hasCompletedAt { try validate { try Validator.log(logs[n]) } }
                        if checkingSets, routineSetRef[Int(l.routine)] != -1, routineSetRef[Int(l.routine)] != Int(l.set) {
                            // What the trigger would have said (SQLITE_CONSTRAINT_TRIGGER, a macro Swift cannot import).
                            throw SQLiteError(code: SQLITE_CONSTRAINT | (7 << 8), message: "daily_logs.routine_set_id must be the routine's set", sql: sql)
                        }
                        UUIDText.writeLowercase(l.id, to: id)
                        LocalDay(dayNumber: Int(l.day)).write(to: date)
                        stamps.write(Date(timeIntervalSinceReferenceDate: l.createdAt), to: createdAt)
                        stamps.write(Date(timeIntervalSinceReferenceDate: l.updatedAt), to: updatedAt)
                        try statement.bindStatic(text: id, count: UUIDText.length, at: 1)
                        try statement.bindStatic(text: date, count: 10, at: 2)
                        try statement.bindStatic(text: refBase + Int(l.routine) * UUIDText.length, count: UUIDText.length, at: 3)
                        try statement.bindStatic(text: refBase + Int(l.set) * UUIDText.length, count: UUIDText.length, at: 4)
                        let status = l.completed ? completed : undone
                        try statement.bindStatic(text: status.utf8Start, count: status.utf8CodeUnitCount, at: 5)
                        if l.hasCompletedAt {
                            stamps.write(Date(timeIntervalSinceReferenceDate: l.completedAt), to: completedAt)
                            try statement.bindStatic(text: completedAt, count: stamp, at: 6)
                        } else {
                            try statement.bindNull(at: 6)
                        }
                        try statement.bindStatic(text: createdAt, count: stamp, at: 7)
                        try statement.bindStatic(text: updatedAt, count: stamp, at: 8)
                        if l.hasLook {
                            try statement.bindStatic(text: refBase + Int(l.look) * UUIDText.length, count: UUIDText.length, at: 9)
                        } else {
                            try statement.bindNull(at: 9)
                        }
                        try statement.execute()
                    }
                }
            }
        }
        if bulk {
            try withPragma("ignore_check_constraints", "ON", restoring: "OFF", insert)
        } else {
            try insert()
        }
    }
}
