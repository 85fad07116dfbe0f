import Foundation
import SteppieCore

/// This device's hardware settings: stored big buttons (`device_buttons`) and the haptic
/// stand-ins (`device_haptics`). Neither is in snapshots: they describe this machine, not the
/// child's data, so a restore keeps them (a button's child link stays when that child is there again).
extension Store {
    static let buttonColumns = "id, path, key_map, child_id, grab, debounce_ms, created_at, updated_at"

    /// The buttons stored for this device, oldest first.
    public func deviceButtons() throws -> [DeviceButton] {
        try read { try db.query("SELECT \(Store.buttonColumns) FROM device_buttons ORDER BY rowid", [], decodeButton) }
    }

    /// Stores a button for this device. The path must be a plain absolute path not stored yet
    /// (`buttonExists`); the child, when given, must be a child of the device that is not archived;
    /// at most `Validator.maxStoredButtons`.
    @discardableResult
    public func addDeviceButton(path: String, keyMap: String?, childId: UUID?, grab: Bool, debounceMilliseconds: Int?,
                                at now: Date) throws -> DeviceButton {
        let button = DeviceButton(id: ids.next(), path: path, keyMap: keyMap, childId: childId, grab: grab,
                                  debounceMilliseconds: debounceMilliseconds, createdAt: now)
        try validate { try Validator.deviceButton(button) }
        return try write {
            if let childId {
                let child = try child(id: childId)
                if child.archivedAt != nil { throw StoreError.childNotFound(childId.lowercased) }
            }
            if let existing = try db.queryFirst("SELECT id FROM device_buttons WHERE path = ?", [.text(path)], { $0.text(0) }) {
                throw StoreError.buttonExists(path: path, id: existing)
            }
            let count = try db.queryFirst("SELECT COUNT(*) FROM device_buttons") { $0.int(0) } ?? 0
            if count >= Validator.maxStoredButtons {
                throw StoreError.invalid(ContractViolation(field: "buttons", value: String(count + 1),
                                                           allowed: "at most \(Validator.maxStoredButtons) buttons per device",
                                                           allowedKey: "contract.allowed.maxButtons", arguments: ["max": String(Validator.maxStoredButtons)]))
            }
            try db.run("INSERT INTO device_buttons (\(Store.buttonColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [
                .text(button.id.lowercased), .text(path), .optionalText(keyMap), .optionalText(childId?.lowercased), .bool(grab),
                debounceMilliseconds.map { .int($0) } ?? .null, stamp(now), stamp(now),
            ])
            return button
        }
    }

    /// Removes the stored button with that id (any case) or, failing that, that exact path.
    @discardableResult
    public func removeDeviceButton(_ selector: String) throws -> DeviceButton {
        try write {
            let byId = try db.queryFirst("SELECT \(Store.buttonColumns) FROM device_buttons WHERE id = ?",
                                         [.text(selector.lowercased())], decodeButton)
            let found = try byId ?? db.queryFirst("SELECT \(Store.buttonColumns) FROM device_buttons WHERE path = ?",
                                                  [.text(selector)], decodeButton)
            guard let found else { throw StoreError.buttonNotFound(selector) }
            try db.run("DELETE FROM device_buttons WHERE id = ?", [.text(found.id.lowercased)])
            return found
        }
    }

    /// The haptic stand-ins of this device (the defaults when never set).
    public func deviceHaptics() throws -> DeviceHaptics {
        try read {
            try db.queryFirst("SELECT audio_pulse, rumble_path, log_path, updated_at FROM device_haptics") {
                DeviceHaptics(audioPulse: $0.bool(0), rumblePath: $0.optionalText(1), logPath: $0.optionalText(2),
                              updatedAt: Timestamp.parse($0.text(3)))
            } ?? .defaults
        }
    }

    /// Changes the device's haptic stand-ins in one transaction: `change` gets the current setting.
    /// Returns the setting as stored (with `updatedAt` = `now`, even when nothing else changed, so
    /// the service opens the outputs again: a rumble device plugged in since is picked up).
    @discardableResult
    public func updateDeviceHaptics(at now: Date, _ change: (inout DeviceHaptics) -> Void) throws -> DeviceHaptics {
        try write {
            var haptics = try deviceHaptics()
            change(&haptics)
            haptics.updatedAt = Timestamp.parse(Timestamp.format(now, in: timeZone)) ?? now
            try validate { try Validator.deviceHaptics(haptics) }
            try db.run("""
                INSERT INTO device_haptics (id, audio_pulse, rumble_path, log_path, updated_at) VALUES ('singleton', ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET audio_pulse = excluded.audio_pulse, rumble_path = excluded.rumble_path,
                    log_path = excluded.log_path, updated_at = excluded.updated_at
                """, [.bool(haptics.audioPulse), .optionalText(haptics.rumblePath), .optionalText(haptics.logPath), stamp(now)])
            return haptics
        }
    }

    /// Before every child is deleted (a restore): the buttons' child links, which are cleared.
    func takeButtonChildren() throws -> [(button: String, child: String)] {
        let links = try db.query("SELECT id, child_id FROM device_buttons WHERE child_id IS NOT NULL ORDER BY rowid") { ($0.text(0), $0.text(1)) }
        try db.run("UPDATE device_buttons SET child_id = NULL WHERE child_id IS NOT NULL")
        return links.map { (button: $0.0, child: $0.1) }
    }

    /// After a restore: each button presses for its child again when that child is there and not
    /// archived; the others press for `serve --child` or the only child.
    func putBackButtonChildren(_ links: [(button: String, child: String)], children: [Child]) throws {
        let present = Set(children.filter { $0.archivedAt == nil }.map(\.id.lowercased))
        for link in links where present.contains(link.child) {
            try db.run("UPDATE device_buttons SET child_id = ? WHERE id = ?", [.text(link.child), .text(link.button)])
        }
    }

    func decodeButton(_ row: Row) throws -> DeviceButton {
        let idText = row.text(0)
        guard let id = UUID(uuidString: idText), let created = Timestamp.parse(row.text(6)), let updated = Timestamp.parse(row.text(7)) else {
            throw StoreError.corruptRow(table: "device_buttons", id: idText, reason: "bad id or timestamp")
        }
        let child: UUID?
        if let text = row.optionalText(3) {
            guard let parsed = UUID(uuidString: text) else {
                throw StoreError.corruptRow(table: "device_buttons", id: idText, reason: "bad child id")
            }
            child = parsed
        } else {
            child = nil
        }
        return DeviceButton(id: id, path: row.text(1), keyMap: row.optionalText(2), childId: child, grab: row.bool(4),
                            debounceMilliseconds: row.isNull(5) ? nil : row.int(5), createdAt: created, updatedAt: updated)
    }
}
