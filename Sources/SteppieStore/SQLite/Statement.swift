import CSQLite

/// A value bound to or read from SQLite.
public enum SQLValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    public static func int(_ v: Int) -> SQLValue { .integer(Int64(v)) }
    public static func bool(_ v: Bool) -> SQLValue { .integer(v ? 1 : 0) }
    public static func optionalText(_ v: String?) -> SQLValue { v.map(SQLValue.text) ?? .null }
}

/// A compiled SQL statement. Owned by its `Connection`'s cache; finalized in `deinit`.
public final class Statement {
    private let handle: OpaquePointer
    private unowned let connection: Connection
    public let sql: String

    init(connection: Connection, sql: String) throws {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw SQLiteError(code: sqlite3_extended_errcode(connection.handle),
                              message: String(cString: sqlite3_errmsg(connection.handle)), sql: sql)
        }
        self.handle = stmt
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds positional arguments (`?1`, `?2`, … or plain `?`).
    public func bind(_ values: [SQLValue]) throws {
        guard values.count == Int(sqlite3_bind_parameter_count(handle)) else {
            throw SQLiteError(code: SQLITE_RANGE, message: "expected \(sqlite3_bind_parameter_count(handle)) arguments, got \(values.count)", sql: sql)
        }
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(handle, index)
            case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
            case .real(let v): rc = sqlite3_bind_double(handle, index, v)
            case .text(let v): rc = sqlite3_bind_text(handle, index, v, -1, csqlite_transient())
            }
            try connection.check(rc, sql: sql)
        }
    }

    /// Binds `count` bytes at `text` as text to parameter `index` (1-based) without copying them:
    /// the bytes must stay as they are until the statement has run (`execute`) or is cleared.
    func bindStatic(text: UnsafePointer<UInt8>, count: Int, at index: Int32) throws {
        let rc = text.withMemoryRebound(to: CChar.self, capacity: count) { sqlite3_bind_text(handle, index, $0, Int32(count), nil) }
        if rc != SQLITE_OK { try connection.check(rc, sql: sql) }
    }

    func bindNull(at index: Int32) throws {
        let rc = sqlite3_bind_null(handle, index)
        if rc != SQLITE_OK { try connection.check(rc, sql: sql) }
    }

    /// Runs a statement that returns no rows, then resets it (keeping its bindings).
    func execute() throws {
        let rc = sqlite3_step(handle)
        guard rc == SQLITE_DONE else {
            let error = SQLiteError(code: sqlite3_extended_errcode(connection.handle),
                                    message: String(cString: sqlite3_errmsg(connection.handle)), sql: sql)
            sqlite3_reset(handle)
            throw error
        }
        sqlite3_reset(handle)
    }

    /// Advances one row; nil when done (the statement is then reset).
    public func step() throws -> Row? {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return Row(handle: handle)
        case SQLITE_DONE:
            sqlite3_reset(handle)
            return nil
        default:
            let error = SQLiteError(code: sqlite3_extended_errcode(connection.handle),
                                    message: String(cString: sqlite3_errmsg(connection.handle)), sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    func runToEnd() throws {
        while try step() != nil {}
    }
}

/// The current row of a stepping statement; valid until the next step.
public struct Row {
    fileprivate let handle: OpaquePointer

    public func isNull(_ i: Int32) -> Bool { sqlite3_column_type(handle, i) == SQLITE_NULL }

    public func int(_ i: Int32) -> Int { Int(sqlite3_column_int64(handle, i)) }

    public func double(_ i: Int32) -> Double { sqlite3_column_double(handle, i) }

    public func bool(_ i: Int32) -> Bool { sqlite3_column_int64(handle, i) != 0 }

    public func text(_ i: Int32) -> String {
        guard let p = sqlite3_column_text(handle, i) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, i))
        return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
    }

    public func optionalText(_ i: Int32) -> String? { isNull(i) ? nil : text(i) }

    /// Column `i`'s text as bytes, without making a string; valid until the statement steps or
    /// resets (empty for NULL).
    func bytes(_ i: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let p = sqlite3_column_text(handle, i) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(handle, i)))
    }

    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// Column `i` as a typed value, whatever its type.
    public func value(_ i: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, i) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, i))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, i))
        default: return .text(text(i))
        }
    }
}
