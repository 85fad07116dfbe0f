import Foundation
import SteppieCore

/// The Steppie database: one connection, migrated on open, with the contract's rules on every write.
/// Not `Sendable`: one owner at a time, like its connection.
public final class Store {
    public let db: Connection
    /// The device's time zone: decides local dates and the offset written into timestamps.
    public let timeZone: TimeZone
    let ids: any IdentifierSource

    /// Opens (creating and migrating as needed) the database at `path`.
    public init(path: String, timeZone: TimeZone, ids: any IdentifierSource = RandomIdentifiers()) throws {
        do {
            if path != ":memory:" {
                let dir = (path as NSString).deletingLastPathComponent
                if !dir.isEmpty { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
            }
            db = try Connection(path: path)
            try Migrator().migrate(db)
        } catch let e as SQLiteError {
            throw StoreError.sqlite(e)
        } catch let e as StoreError {
            throw e
        } catch {
            throw StoreError.fileSystem(path: path, reason: (error as NSError).localizedDescription)
        }
        self.timeZone = timeZone
        self.ids = ids
    }

    /// Formats an instant the way the contract stores it: ISO 8601 with the device's offset.
    func stamp(_ date: Date) -> SQLValue { .text(Timestamp.format(date, in: timeZone)) }

    func optionalStamp(_ date: Date?) -> SQLValue { date.map(stamp) ?? .null }

    /// Runs a write in one immediate transaction, turning SQLite failures into `StoreError`.
    func write<T>(_ body: () throws -> T) throws -> T {
        do { return try db.transaction(body) } catch let e as SQLiteError { throw StoreError.sqlite(e) }
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
