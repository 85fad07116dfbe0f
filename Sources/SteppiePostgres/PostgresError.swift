/// What PostgreSQL (or libpq, or the pool in front of them) refused, as values a front end can
/// translate and a hub can map: `isRetryable` is "tell the device to try again", the rest is an
/// answer about the request itself.
package enum PostgresError: Error, Equatable, Sendable {
    /// The server refused a statement: its SQLSTATE (`23505`), its own message and detail (in the
    /// server's language: for the log), and the statement (a prepared statement's name, or SQL).
    case server(sqlState: String, message: String, detail: String?, statement: String)
    /// No connection could be made (the connection string, the server not running, a password).
    case connect(message: String)
    /// The connection broke (the server restarted or went away): it is dropped, and the next call
    /// makes a new one. Nothing of the failed statement is known to have been committed.
    case unavailable(message: String)
    /// Every connection of the pool stayed busy for this long.
    case poolExhausted(waitedMilliseconds: Int)
    /// A column held something other than what the reader asked for (NULL, a non-number).
    case unexpectedValue(column: Int, expected: String, statement: String)
    /// The database was migrated by a newer Steppie: it records a migration this one does not know.
    case newerSchema(migration: String)
    /// A text parameter held a NUL character, which PostgreSQL's text cannot carry.
    case invalidParameter(index: Int)
    /// The database is on another machine and the connection would not be TLS that checks its
    /// certificate (`PostgresTransport`); nothing was sent, or the session was closed before any statement.
    case insecureTransport(host: String)

    /// The SQLSTATE of a server refusal, nil for anything else.
    package var sqlState: String? {
        if case .server(let state, _, _, _) = self { return state }
        return nil
    }

    /// True when the same request may succeed if tried again later: a lost connection, a busy
    /// pool, a server not accepting connections now, a serialization failure or a deadlock.
    package var isRetryable: Bool {
        switch self {
        case .unavailable, .poolExhausted, .connect: true
        case .server(let state, _, _, _): Self.retryableStates.contains(state)
        case .unexpectedValue, .newerSchema, .invalidParameter, .insecureTransport: false
        }
    }

    /// serialization_failure, deadlock_detected, lock_not_available, cannot_connect_now.
    static let retryableStates: Set<String> = ["40001", "40P01", "55P03", "57P03"]

    /// SQLSTATEs that mean the session is gone: connection exceptions (class 08) and the server
    /// ending it (admin_shutdown, crash_shutdown, cannot_connect_now).
    static func endsSession(_ sqlState: String) -> Bool {
        sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
    }
}
