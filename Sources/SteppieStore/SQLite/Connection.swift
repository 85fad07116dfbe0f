import CSQLite
import Foundation

/// The raw sqlite3 handle, named so its ownership is visible in signatures.
typealias SQLiteConnection = OpaquePointer

/// One open SQLite database. It owns its handle and its cached statements and frees them in `deinit`.
/// Deliberately not `Sendable`: one owner at a time.
public final class Connection {
    let handle: SQLiteConnection
    private var cache: [String: Statement] = [:]
    private var transactionDepth = 0
    public let path: String
    /// The clock the sync triggers stamp with, when the store has one of its own (a test's, or
    /// `STEPPIE_NOW`); nil: the system's.
    private var syncClock: (() -> Int64)?

    /// Opens (creating if needed) the database at `path` with the store's pragmas:
    /// WAL journal (unless `wal` is false: the store looks at a file before changing its journal),
    /// foreign keys on, a busy timeout, `synchronous=FULL`.
    public init(path: String, readOnly: Bool = false, wal: Bool = true, busyTimeoutMilliseconds: Int32 = 10_000) throws {
        self.path = path
        var db: SQLiteConnection?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            // A failed open may still hand back a handle that must be closed.
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: message, sql: nil)
        }
        handle = db
        do {
            try check(sqlite3_busy_timeout(db, busyTimeoutMilliseconds))
            _ = csqlite_db_config_defensive(db, 1)
            try execute("PRAGMA foreign_keys = ON")
            if wal && !readOnly && path != ":memory:" {
                try execute("PRAGMA journal_mode = WAL")
            }
            // FULL: a commit survives a power cut once it returns (see docs/data-contract.md).
            try execute("PRAGMA synchronous = FULL")
        } catch {
            sqlite3_close_v2(db)
            throw error
        }
    }

    deinit {
        cache.removeAll()   // statements finalize before the connection closes
        sqlite3_close_v2(handle)
    }

    /// Sets the clock the sync triggers stamp with, in milliseconds since 1970.
    func setSyncClock(_ now: @escaping () -> Int64) { syncClock = now }

    /// The sync clock's time in milliseconds since 1970 (the system's without a clock of the store's own).
    var syncMilliseconds: Int64 { syncClock?() ?? Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// The sync clock minus the system's, in milliseconds (0 without a clock of the store's own).
    var syncClockOffset: Int64 {
        guard let syncClock else { return 0 }
        return syncClock() - Int64((Date().timeIntervalSince1970 * 1000).rounded())
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws {
        var errmsg: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errmsg)
        if rc != SQLITE_OK {
            let message = errmsg.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errmsg)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// A prepared statement for `sql`, cached by its text and reset for reuse.
    public func statement(_ sql: String) throws -> Statement {
        if let cached = cache[sql] {
            cached.reset()
            return cached
        }
        let statement = try Statement(connection: self, sql: sql)
        cache[sql] = statement
        return statement
    }

    /// Runs a statement with arguments and returns nothing.
    public func run(_ sql: String, _ arguments: [SQLValue] = []) throws {
        let s = try statement(sql)
        try s.bind(arguments)
        try s.runToEnd()
    }

    /// Runs a query and maps every row.
    public func query<T>(_ sql: String, _ arguments: [SQLValue] = [], _ row: (Row) throws -> T) throws -> [T] {
        let s = try statement(sql)
        try s.bind(arguments)
        var out: [T] = []
        while let r = try s.step() { out.append(try row(r)) }
        return out
    }

    /// The first row of a query, mapped, or nil.
    public func queryFirst<T>(_ sql: String, _ arguments: [SQLValue] = [], _ row: (Row) throws -> T) throws -> T? {
        let s = try statement(sql)
        try s.bind(arguments)
        defer { s.reset() }
        return try s.step().map(row)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` in a transaction (`BEGIN IMMEDIATE` for writers, so two writers queue on the
    /// busy timeout instead of deadlocking) and commits; any thrown error rolls everything back.
    /// Nested calls become savepoints.
    @discardableResult
    public func transaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
        let depth = transactionDepth
        let savepoint = "steppie_sp\(depth)"
        try execute(depth == 0 ? (immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED") : "SAVEPOINT \(savepoint)")
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        do {
            let value = try body()
            try execute(depth == 0 ? "COMMIT" : "RELEASE \(savepoint)")
            return value
        } catch {
            if depth == 0 {
                // A failed COMMIT may already have rolled back; ignore "no transaction is active".
                if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            } else {
                try? execute("ROLLBACK TO \(savepoint); RELEASE \(savepoint)")
            }
            throw error
        }
    }

    /// Turns a result code into a thrown `SQLiteError` carrying SQLite's message and `sql`.
    func check(_ rc: Int32, sql: String? = nil) throws {
        guard rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE else {
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
        }
    }
}
