import CLibPQ
import Foundation

/// The raw libpq handles, named so their ownership is visible in signatures.
typealias PGConnection = OpaquePointer
typealias PGResult = OpaquePointer

/// One connection to PostgreSQL. It owns its `PGconn` and frees it in `deinit`; a failed connect
/// frees the half-made handle before throwing. Every statement goes through `perform`, the one
/// checking helper: parameters are always sent apart from the SQL, and a failure becomes a
/// `PostgresError` carrying the SQLSTATE and the server's message. Deliberately not `Sendable`:
/// one owner at a time (`PostgresPool` hands it to one caller at a time).
package final class PostgresConnection {
    let handle: PGConnection
    /// The statements prepared on this session, by name, with their SQL.
    private var prepared: [String: String] = [:]
    private var transactionDepth = 0
    /// True once the session is known to be gone: the pool drops the connection instead of reusing it.
    package internal(set) var isBroken = false

    /// Connects with a libpq connection string (`host=/run/postgresql dbname=steppie user=hub`).
    /// The string is never repeated in errors: it may hold a password.
    ///
    /// A database on another machine must be reached with TLS that checks its certificate
    /// (`PostgresTransport`): refused before connecting when the string says otherwise, and
    /// after, before any statement, when libpq's service file or environment did.
    package init(conninfo: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if let host = PostgresTransport.exposedHost(conninfo: conninfo, environment: environment) {
            throw PostgresError.insecureTransport(host: host)
        }
        guard let conn = PQconnectdb(conninfo) else { throw PostgresError.connect(message: "libpq could not allocate a connection") }
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(conn))
            PQfinish(conn)
            throw PostgresError.connect(message: message)
        }
        if let host = PostgresTransport.exposedHost(of: conn) {
            PQfinish(conn)
            throw PostgresError.insecureTransport(host: host)
        }
        guard PQsetClientEncoding(conn, "UTF8") == 0 else {
            let message = String(cString: PQerrorMessage(conn))
            PQfinish(conn)
            throw PostgresError.connect(message: message)
        }
        // The server's notices (`relation "steppie_migrations" already exists, skipping`) are
        // information, not output: libpq would print them on standard error. What matters is an error.
        PQsetNoticeProcessor(conn, { _, _ in }, nil)
        handle = conn
    }

    deinit {
        PQfinish(handle)
    }

    /// True while a transaction is open on the session (or aborted and not yet rolled back).
    package var inTransaction: Bool { PQtransactionStatus(handle) != PQTRANS_IDLE }

    /// The server process serving this session (`pg_backend_pid()`), for tests and logs.
    package var backendPID: Int32 { PQbackendPID(handle) }

    /// Runs a statement that returns no rows; the number of rows it changed.
    @discardableResult
    package func run(_ sql: String, _ parameters: [PostgresValue] = []) throws -> Int {
        try perform(.sql(sql), parameters) { Self.affected($0) }
    }

    @discardableResult
    package func run(_ statement: PostgresStatement, _ parameters: [PostgresValue] = []) throws -> Int {
        try perform(.prepared(statement), parameters) { Self.affected($0) }
    }

    /// Runs a query and maps every row.
    package func query<T>(_ sql: String, _ parameters: [PostgresValue] = [], _ row: (PostgresRow) throws -> T) throws -> [T] {
        try perform(.sql(sql), parameters) { try Self.rows($0, sql, row) }
    }

    package func query<T>(_ statement: PostgresStatement, _ parameters: [PostgresValue] = [],
                          _ row: (PostgresRow) throws -> T) throws -> [T] {
        try perform(.prepared(statement), parameters) { try Self.rows($0, statement.name, row) }
    }

    /// The first row of a query, mapped, or nil.
    package func queryFirst<T>(_ sql: String, _ parameters: [PostgresValue] = [], _ row: (PostgresRow) throws -> T) throws -> T? {
        try query(sql, parameters, row).first
    }

    package func queryFirst<T>(_ statement: PostgresStatement, _ parameters: [PostgresValue] = [],
                               _ row: (PostgresRow) throws -> T) throws -> T? {
        try query(statement, parameters, row).first
    }

    /// Runs `body` in a transaction and commits; any thrown error rolls everything back. Nested
    /// calls become savepoints. The body may end the outermost transaction itself with
    /// `PostgresConnection.commit` as the last step of its last pipeline (the commit then goes with
    /// its last statements: a lock they take is held only while the server runs them). A
    /// transaction the server already aborted is never "committed" (PostgreSQL would answer
    /// COMMIT with a silent ROLLBACK): it throws instead.
    @discardableResult
    package func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let savepoint = "steppie_sp\(transactionDepth)"
        let depth = transactionDepth
        return try transaction(opening: { c in try c.run(depth == 0 ? "BEGIN" : "SAVEPOINT \(savepoint)") }, { c, _ in try body(c) })
    }

    /// A transaction (or, nested, a savepoint) that `open` begins, then `body` given what `open`
    /// returned; committed (or released) at the end unless the body's last pipeline committed,
    /// rolled back on any thrown error, `open`'s included.
    func transaction<O, T>(opening open: (PostgresConnection) throws -> O, _ body: (PostgresConnection, O) throws -> T) throws -> T {
        let depth = transactionDepth
        let savepoint = "steppie_sp\(depth)"
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        do {
            let opened = try open(self)
            let value = try body(self, opened)
            if PQtransactionStatus(handle) == PQTRANS_INERROR {
                throw PostgresError.server(sqlState: "25P02", message: "the transaction was aborted by an earlier error",
                                           detail: nil, statement: "COMMIT")
            }
            // Committed already by the body's last pipeline (`PostgresConnection.commit` as its
            // last step): nothing is left to commit.
            if depth == 0, PQtransactionStatus(handle) == PQTRANS_IDLE { return value }
            try run(depth == 0 ? "COMMIT" : "RELEASE SAVEPOINT \(savepoint)")
            return value
        } catch {
            if !isBroken {
                // A failed rollback leaves a broken session: the pool then drops it.
                if depth == 0 { _ = try? run("ROLLBACK") } else { _ = try? run("ROLLBACK TO SAVEPOINT \(savepoint)") }
                if PQtransactionStatus(handle) != (depth == 0 ? PQTRANS_IDLE : PQTRANS_INTRANS) { isBroken = true }
            }
            throw error
        }
    }

    /// What `perform` sends: SQL (parsed each time) or a statement prepared by name.
    enum Target {
        case sql(String)
        case prepared(PostgresStatement)

        var label: String {
            switch self {
            case .sql(let sql): sql
            case .prepared(let statement): statement.name
            }
        }
    }

    /// The one checking helper every statement goes through: binds the parameters (text, or
    /// binary for bytes), runs the statement with `PQexecParams` or `PQexecPrepared` (preparing it
    /// first on this session), checks the result, hands it to `read` and frees it.
    func perform<T>(_ target: Target, _ parameters: [PostgresValue], _ read: (PGResult) throws -> T) throws -> T {
        if isBroken { throw PostgresError.unavailable(message: "the connection was lost earlier") }
        if case .prepared(let statement) = target { try prepare(statement) }
        let result: PGResult? = try withParameters(parameters) { count, values, lengths, formats, types in
            switch target {
            case .sql(let sql): PQexecParams(handle, sql, count, types, values, lengths, formats, 0)
            case .prepared(let statement): PQexecPrepared(handle, statement.name, count, values, lengths, formats, 0)
            }
        }
        let checked = try check(result, statement: target.label)
        defer { PQclear(checked) }
        return try read(checked)
    }

    /// Prepares `statement` on this session unless it is already (by name, with the same SQL).
    func prepare(_ statement: PostgresStatement) throws {
        guard prepared[statement.name] != statement.sql else { return }
        let result = PQprepare(handle, statement.name, statement.sql, 0, nil)
        let checked = try check(result, statement: statement.name)
        PQclear(checked)
        prepared[statement.name] = statement.sql
    }

    /// The parameters as libpq takes them (text, or binary for bytes; NULL as a null pointer),
    /// valid for the call to `body`: their count, values, lengths, formats and types.
    func withParameters<T>(_ parameters: [PostgresValue],
                           _ body: (Int32, [UnsafePointer<CChar>?], [Int32], [Int32], [Oid]) throws -> T) throws -> T {
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        defer { buffers.forEach { free($0) } }
        var lengths: [Int32] = [], formats: [Int32] = [], types: [Oid] = []
        for (index, value) in parameters.enumerated() {
            switch value {
            case .null: buffers.append(nil)
            case .text(let text):
                guard !PostgresValue.holdsNUL(text) else { throw PostgresError.invalidParameter(index: index) }
                buffers.append(strdup(text))
            case .integer(let number): buffers.append(strdup(String(number)))
            case .bool(let flag): buffers.append(strdup(flag ? "t" : "f"))
            case .bytes(let bytes):
                let buffer = malloc(max(bytes.count, 1))?.assumingMemoryBound(to: CChar.self)
                bytes.withUnsafeBytes { raw in
                    if let base = raw.baseAddress, let buffer { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: bytes.count) }
                }
                buffers.append(buffer)
            }
            if case .bytes(let bytes) = value {
                lengths.append(Int32(bytes.count))
                formats.append(1)
            } else {
                lengths.append(0)
                formats.append(0)
            }
            types.append(value.typeOid)
        }
        return try body(Int32(parameters.count), buffers.map { UnsafePointer($0) }, lengths, formats, types)
    }

    /// Turns a libpq result into the result, or a thrown `PostgresError` (the result freed).
    func check(_ result: PGResult?, statement: String) throws -> PGResult {
        guard let result else {
            // No result at all: out of memory, or the connection could not send.
            let message = String(cString: PQerrorMessage(handle))
            if PQstatus(handle) != CONNECTION_OK { isBroken = true }
            throw PostgresError.unavailable(message: message)
        }
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK { return result }
        let field = { (code: Int32) -> String? in PQresultErrorField(result, code).map { String(cString: $0) } }
        let state = field(clibpq_diag_sqlstate()) ?? ""
        let message = field(clibpq_diag_message_primary()) ?? String(cString: PQresultErrorMessage(result))
        let detail = field(clibpq_diag_message_detail())
        PQclear(result)
        if PQstatus(handle) != CONNECTION_OK || PostgresError.endsSession(state) {
            isBroken = true
            throw PostgresError.unavailable(message: message)
        }
        throw PostgresError.server(sqlState: state, message: message, detail: detail, statement: statement)
    }

    static func affected(_ result: PGResult) -> Int {
        Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    static func rows<T>(_ result: PGResult, _ statement: String, _ row: (PostgresRow) throws -> T) throws -> [T] {
        let count = PQntuples(result)
        var out: [T] = []
        out.reserveCapacity(Int(count))
        for index in 0..<count {
            out.append(try row(PostgresRow(result: result, row: index, statement: statement)))
        }
        return out
    }
}

// LISTEN/NOTIFY: a nudge between processes on one database (it carries no history: what moved
// is always read back from the tables).
extension PostgresConnection {
    /// Starts listening on `channel` (a plain lowercase identifier, never text from outside).
    package func listen(_ channel: String) throws {
        precondition(!channel.isEmpty && channel.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F },
                     "a channel is a plain lowercase identifier")
        try run("LISTEN \(channel)")
    }

    /// One notification: its channel and its payload ("" when it was sent without one).
    package struct Notification: Equatable, Sendable {
        package let channel: String
        package let payload: String
    }

    /// The notifications that arrived, waiting up to `milliseconds` for the first (an empty list
    /// when none came). A lost session throws `unavailable` (and is then broken).
    package func notifications(waitingUpTo milliseconds: Int32) throws -> [Notification] {
        if isBroken { throw PostgresError.unavailable(message: "the connection was lost earlier") }
        var channels = takeNotifications()
        if !channels.isEmpty { return channels }
        let socket = PQsocket(handle)
        guard socket >= 0 else {
            isBroken = true
            throw PostgresError.unavailable(message: String(cString: PQerrorMessage(handle)))
        }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, milliseconds)
        if ready < 0 && errno != EINTR {
            isBroken = true
            throw PostgresError.unavailable(message: String(cString: strerror(errno)))
        }
        if ready > 0 {
            // Readable: notifications, or the end of the session (the server stopped).
            guard PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else {
                isBroken = true
                throw PostgresError.unavailable(message: String(cString: PQerrorMessage(handle)))
            }
            channels = takeNotifications()
        }
        return channels
    }

    private func takeNotifications() -> [Notification] {
        var taken: [Notification] = []
        while let notification = PQnotifies(handle) {
            taken.append(Notification(channel: String(cString: notification.pointee.relname),
                                      payload: notification.pointee.extra.map { String(cString: $0) } ?? ""))
            PQfreemem(notification)
        }
        return taken
    }
}
