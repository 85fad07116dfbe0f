import CSQLite

/// A failure reported by SQLite: the result code, SQLite's own message, and the SQL involved.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_BUSY`, …).
    public let code: Int32
    public let message: String
    public let sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (the low byte of the extended code).
    public var primaryCode: Int32 { code & 0xFF }

    public var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
    public var isReadOnly: Bool { primaryCode == SQLITE_READONLY || primaryCode == SQLITE_CANTOPEN || primaryCode == SQLITE_PERM }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " — in: \(sql)" }
        return text
    }
}
