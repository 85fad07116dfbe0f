import Foundation
import SteppieCore
import SteppieFiles

/// The Steppie database: one connection, migrated on open, with the contract's rules on every write.
/// Not `Sendable`: one owner at a time, like its connection.
///
/// Files are owner-only (docs/threat-model.md): a new database and its folders are created 0600 /
/// 0700 whatever the umask (SQLite gives the WAL and SHM the database's mode), looser existing
/// ones are tightened and reported in `notices`. Anything that is not a regular file, or not a
/// Steppie database, is refused before SQLite touches it.
public final class Store {
    /// The connection: the store's alone (every SQL statement of the engine lives in this module).
    let db: Connection

    /// The database file's path.
    public var path: String { db.path }
    /// The device's time zone: decides local dates and the offset written into timestamps.
    public let timeZone: TimeZone
    let ids: any IdentifierSource
    /// What opening did that the user should hear about (permissions tightened).
    public private(set) var notices: [StoreNotice] = []
    /// The database file and its WAL as opened; a write refuses to run once either changed.
    private let identity: (database: FileIdentity, wal: FileIdentity?)?

    /// How a missing database file is treated.
    public enum OpenMode: Sendable {
        /// Create it (and its folders), owner-only.
        case create
        /// Refuse with `StoreError.databaseMissing`: commands that only look never create one.
        case existingOnly
    }

    /// Opens (creating and migrating as needed) the database at `path`.
    public init(path: String, timeZone: TimeZone, ids: any IdentifierSource = RandomIdentifiers(), mode: OpenMode = .create) throws {
        var notices: [StoreNotice] = []
        do {
            if path != ":memory:" { try Store.prepareFile(path, mode: mode) }
            // The journal mode changes only once the file is known to be ours.
            db = try Connection(path: path, wal: false)
            try Store.refuseForeign(db, path: path)
            if path != ":memory:" {
                notices = try Store.tighten(path)
                try db.execute("PRAGMA journal_mode = WAL")
            }
            try Migrator().migrate(db)
        } catch let e as SQLiteError {
            if e.code & 0xFF == 26 { throw StoreError.foreignFile(path: path) }   // SQLITE_NOTADB
            throw StoreError.sqlite(e)
        } catch let e as StoreError {
            throw e
        } catch let e as FileRefusal {
            throw StoreError.file(e)
        } catch {
            throw StoreError.fileSystem(path: path, reason: (error as NSError).localizedDescription)
        }
        self.timeZone = timeZone
        self.ids = ids
        self.notices = notices
        if path == ":memory:" {
            identity = nil
        } else if let file = FileIdentity(path: path) {
            identity = (file, FileIdentity(path: path + "-wal"))
            OpenDatabases.retain(file)
        } else {
            throw StoreError.databaseReplaced(path: path)
        }
    }

    deinit {
        if let file = identity?.database { OpenDatabases.release(file) }
    }

    /// Checks the path before SQLite opens it: refuses what is not a regular file (SQLite would
    /// create a journal beside a device or a FIFO) and what is not SQLite; creates a missing file
    /// (and its folders) owner-only.
    private static func prepareFile(_ path: String, mode: OpenMode) throws {
        switch OwnerOnly.kind(of: path) {
        case nil:
            guard mode == .create else { throw StoreError.databaseMissing(path: path) }
            try OwnerOnly.createDirectories(OwnerOnly.parent(of: path))
            try OwnerOnly.createFileIfMissing(path)
        case .regular?:
            // An empty file is a new database (SQLite's own rule); anything else must start with
            // the SQLite header, or SQLite would treat a short foreign file as empty and write over it.
            // A file this process holds open already was checked then, and must not be opened
            // outside SQLite (closing that descriptor would drop SQLite's locks: `OpenDatabases`).
            if let file = FileIdentity(path: path), OpenDatabases.contains(file) { return }
            if let head = OwnerOnly.head(of: path, count: 16), !head.isEmpty, head != Array("SQLite format 3\0".utf8) {
                throw StoreError.foreignFile(path: path)
            }
        case let kind?:
            throw StoreError.file(.notRegularFile(path: path, kind: kind))
        }
    }

    /// Makes the database, its WAL and its SHM owner-only, reporting each one that was not.
    private static func tighten(_ path: String) throws -> [StoreNotice] {
        var notices: [StoreNotice] = []
        for file in [path, path + "-wal", path + "-shm"] {
            if let old = try OwnerOnly.tighten(file) { notices.append(.permissionsTightened(path: file, from: UInt32(old))) }
        }
        return notices
    }

    /// Refuses another program's SQLite database: one with tables but no migration record of ours.
    private static func refuseForeign(_ db: Connection, path: String) throws {
        let tables = try db.query("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") { $0.text(0) }
        if !tables.isEmpty, !tables.contains("schema_migrations") { throw StoreError.foreignFile(path: path) }
    }

    /// Throws `StoreError.databaseReplaced` when the file this store opened is no longer at its
    /// path, or its WAL was deleted or replaced: SQLite would go on writing to the unlinked files
    /// and report success for writes nobody will ever read.
    public func checkFileIdentity() throws {
        guard let identity else { return }
        let path = db.path
        guard FileIdentity(path: path) == identity.database else { throw StoreError.databaseReplaced(path: path) }
        if let wal = identity.wal, FileIdentity(path: path + "-wal") != wal { throw StoreError.databaseReplaced(path: path) }
    }

    /// Formats an instant the way the contract stores it: ISO 8601 with the device's offset.
    func stamp(_ date: Date) -> SQLValue { .text(Timestamp.format(date, in: timeZone)) }

    func optionalStamp(_ date: Date?) -> SQLValue { date.map(stamp) ?? .null }

    /// Runs a write in one immediate transaction, turning SQLite failures into `StoreError`. The
    /// file's identity is checked under the write lock, so a replaced database or a deleted WAL
    /// stops the write instead of losing it.
    /// Runs `body` in one write transaction (rolled back when it throws): several store calls
    /// that must land together, such as a name and a language saved by one form.
    public func transaction<T>(_ body: () throws -> T) throws -> T { try write(body) }

    func write<T>(_ body: () throws -> T) throws -> T {
        do {
            return try db.transaction {
                try checkFileIdentity()
                // The sync triggers stamp with this store's clock (a no-op on a database that never synced).
                let offset = SQLValue.integer(db.syncClockOffset)
                try db.run("UPDATE sync_state SET clock_offset_ms = ? WHERE clock_offset_ms IS NOT ?", [offset, offset])
                return try body()
            }
        } catch let e as SQLiteError { throw StoreError.sqlite(e) }
    }

    /// Runs reads in one snapshot (a deferred transaction), turning SQLite failures into `StoreError`.
    func read<T>(_ body: () throws -> T) throws -> T {
        do { return try db.transaction(immediate: false, body) } catch let e as SQLiteError { throw StoreError.sqlite(e) }
    }

    /// A cheap fingerprint of everything child mode shows; changes whenever another process
    /// commits (SQLite's data_version) or this connection writes.
    public func dataVersion() throws -> Int {
        do {
            return try db.queryFirst("PRAGMA data_version") { $0.int(0) } ?? 0
        } catch let e as SQLiteError { throw StoreError.sqlite(e) }
    }

    // MARK: Device settings

    /// The device settings row, created on first use.
    @discardableResult
    public func ensureDeviceSettings(at now: Date) throws -> DeviceSettings {
        try write {
            try db.run("INSERT OR IGNORE INTO device_settings (id, created_at, updated_at) VALUES ('singleton', ?, ?)",
                       [stamp(now), stamp(now)])
            return try loadDeviceSettings()
        }
    }

    public func deviceSettings() throws -> DeviceSettings? {
        try read { try db.queryFirst("SELECT 1 FROM device_settings") { _ in true } == nil ? nil : try loadDeviceSettings() }
    }

    private func loadDeviceSettings() throws -> DeviceSettings {
        let row = try db.queryFirst("SELECT guardian_pin_hash, recovery_code_hash, locale, created_at, updated_at FROM device_settings") {
            DeviceSettings(guardianPinHash: $0.optionalText(0), recoveryCodeHash: $0.optionalText(1), locale: $0.optionalText(2),
                           createdAt: Timestamp.parse($0.text(3)) ?? .distantPast, updatedAt: Timestamp.parse($0.text(4)))
        }
        guard let row else { throw StoreError.corruptRow(table: "device_settings", id: "singleton", reason: "missing") }
        return row
    }

    /// Sets the device-wide language (nil follows the system).
    public func setDeviceLocale(_ locale: String?, at now: Date) throws {
        if let locale { try validate { try Validator.locale(locale) } }
        try write {
            try db.run("INSERT OR IGNORE INTO device_settings (id, created_at, updated_at) VALUES ('singleton', ?, ?)", [stamp(now), stamp(now)])
            try db.run("UPDATE device_settings SET locale = ?, updated_at = ?", [.optionalText(locale), stamp(now)])
        }
    }

    /// Runs a contract check, reporting a violation as a store error.
    func validate(_ check: () throws -> Void) throws {
        do { try check() } catch let v as ContractViolation { throw StoreError.invalid(v) }
    }
}
