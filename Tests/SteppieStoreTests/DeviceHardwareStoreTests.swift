import Foundation
import Testing
import SteppieCore
@testable import SteppieStore

/// This device's hardware settings (migration `v6-device-buttons-haptics`): stored buttons and the
/// haptic stand-ins, their rules in Swift and in the schema, and a restore that keeps them.
@Suite struct DeviceHardwareStoreTests {
    static let joon = "00000000-0000-4000-8000-00000000000a"

    @Test func migrationV6AddsTheTablesToAVersion5Database() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-v5-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("steppie.db").path
        let zone = try #require(TimeZone(identifier: "Asia/Seoul"))
        var before = ""
        do {
            let db = try Connection(path: path)
            try Migrator(Array(Schema.migrations.prefix(5))).migrate(db)
            try db.execute("""
                INSERT INTO device_settings (id, locale, created_at, updated_at) VALUES ('singleton', 'ko', '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00');
                INSERT INTO children (id, display_name, created_at, updated_at) VALUES ('00000000-0000-4000-8000-000000000001', 'Mina', '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00');
                """)
            #expect(try db.queryFirst("SELECT count(*) FROM sqlite_schema WHERE name IN ('device_buttons', 'device_haptics')") { $0.int(0) } == 0)
        }
        do {
            // The same rows as a version-5 program reads them.
            let old = try Connection(path: path)
            before = try old.query("SELECT id, display_name FROM children UNION ALL SELECT id, locale FROM device_settings") { "\($0.text(0)) \($0.text(1))" }
                .joined(separator: "\n")
        }
        let store = try Store(path: path, timeZone: zone)
        #expect(try Migrator().applied(store.db).last == Schema.migrations.last?.id)
        #expect(try store.db.queryFirst("PRAGMA user_version") { $0.int(0) } == Schema.migrations.count)
        let after = try store.db.query("SELECT id, display_name FROM children UNION ALL SELECT id, locale FROM device_settings") { "\($0.text(0)) \($0.text(1))" }
            .joined(separator: "\n")
        #expect(after == before)
        // Nothing stored yet: no buttons, the default haptics (audio pulse only).
        #expect(try store.deviceButtons().isEmpty)
        #expect(try store.deviceHaptics() == .defaults)
        let now = try #require(Timestamp.parse("2026-03-02T07:00:00+09:00"))
        let child = try store.resolveChild("Mina")
        let button = try store.addDeviceButton(path: "/dev/input/by-id/usb-Ablenet-event-kbd", keyMap: "KEY_ENTER=done", childId: child.id,
                                               grab: true, debounceMilliseconds: 500, at: now)
        #expect(try store.deviceButtons() == [button])
        #expect(try store.integrityProblems().isEmpty)
    }

    /// A fixture with Mina (active morning set), one stored button for her and a haptics row.
    static func stored() throws -> (StoreFixture, Child, DeviceButton) {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        try f.store.ensureDeviceSettings(at: f.now)
        let button = try f.store.addDeviceButton(path: "/dev/input/event3", keyMap: "KEY_ENTER=done,*=next", childId: child.id,
                                                 grab: false, debounceMilliseconds: nil, at: f.now)
        try f.store.updateDeviceHaptics(at: f.now) { $0.logPath = "/var/log/steppie/haptics.jsonl" }
        return (f, child, button)
    }

    /// Raw writes that skip the Swift validator still meet the schema's own checks.
    @Test(arguments: [
        "INSERT INTO device_buttons (id, path, created_at, updated_at) VALUES ('00000000-0000-4000-8000-0000000000b1', 'dev/input/event4', '2026-03-02T07:00:00+09:00', '2026-03-02T07:00:00+09:00')",
        "INSERT INTO device_buttons (id, path, created_at, updated_at) VALUES ('00000000-0000-4000-8000-0000000000b1', '/dev/input/../event4', '2026-03-02T07:00:00+09:00', '2026-03-02T07:00:00+09:00')",
        "INSERT INTO device_buttons (id, path, created_at, updated_at) VALUES ('00000000-0000-4000-8000-0000000000b1', '/dev/input/', '2026-03-02T07:00:00+09:00', '2026-03-02T07:00:00+09:00')",
        "INSERT INTO device_buttons (id, path, created_at, updated_at) VALUES ('00000000-0000-4000-8000-0000000000b1', '/dev//input/event4', '2026-03-02T07:00:00+09:00', '2026-03-02T07:00:00+09:00')",
        "INSERT INTO device_buttons (id, path, created_at, updated_at) VALUES ('00000000-0000-4000-8000-0000000000b1', '/dev/input/event' || char(10) || '4', '2026-03-02T07:00:00+09:00', '2026-03-02T07:00:00+09:00')",
        "INSERT INTO device_buttons (id, path, created_at, updated_at) VALUES ('00000000-0000-4000-8000-0000000000b1', '/dev/input/event3', '2026-03-02T07:00:00+09:00', '2026-03-02T07:00:00+09:00')",
        "INSERT INTO device_buttons (id, path, created_at, updated_at) VALUES ('short', '/dev/input/event4', '2026-03-02T07:00:00+09:00', '2026-03-02T07:00:00+09:00')",
        "INSERT INTO device_buttons (id, path, created_at, updated_at) VALUES ('00000000-0000-4000-8000-0000000000b1', '/dev/input/event4', 'now', 'now')",
        "UPDATE device_buttons SET debounce_ms = 5001",
        "UPDATE device_buttons SET debounce_ms = -1",
        "UPDATE device_buttons SET grab = 2",
        "UPDATE device_buttons SET key_map = 'KEY_ENTER'",
        "UPDATE device_buttons SET key_map = 'KEY_ENTER=done' || char(10)",
        "UPDATE device_buttons SET key_map = '키=done'",
        "UPDATE device_buttons SET child_id = '\(joon)'",
        "UPDATE device_haptics SET audio_pulse = 2",
        "UPDATE device_haptics SET rumble_path = '/tmp/event5'",
        "UPDATE device_haptics SET rumble_path = '/dev/input/'",
        "UPDATE device_haptics SET log_path = 'haptics.jsonl'",
        "UPDATE device_haptics SET log_path = '/var/log/./haptics.jsonl'",
        "INSERT INTO device_haptics (id, audio_pulse, updated_at) VALUES ('second', 1, '2026-03-02T07:00:00+09:00')",
    ])
    func schemaRefusesRawViolations(_ sql: String) throws {
        let (f, _, _) = try Self.stored()
        let before = try f.store.dump()
        #expect(throws: SQLiteError.self) { try f.rawConnection().execute(sql) }
        #expect(try f.store.dump() == before)
    }

    @Test func aSeventeenthButtonIsRefusedByTheStoreAndTheSchema() throws {
        let f = try StoreFixture()
        for i in 0..<Validator.maxStoredButtons {
            try f.store.addDeviceButton(path: "/dev/input/event\(i)", keyMap: nil, childId: nil, grab: false, debounceMilliseconds: nil, at: f.now)
        }
        let before = try f.store.dump()
        #expect(throws: StoreError.invalid(ContractViolation(field: "buttons", value: "17", allowed: "at most 16 buttons per device"))) {
            try f.store.addDeviceButton(path: "/dev/input/event99", keyMap: nil, childId: nil, grab: false, debounceMilliseconds: nil, at: f.now)
        }
        do {
            try f.rawConnection().execute("""
                INSERT INTO device_buttons (id, path, created_at, updated_at) VALUES ('00000000-0000-4000-8000-0000000000b1', '/dev/input/event99',
                    '2026-03-02T07:00:00+09:00', '2026-03-02T07:00:00+09:00')
                """)
            Issue.record("the schema took a 17th button")
        } catch let e as SQLiteError {
            #expect(e.message.contains("at most 16 buttons"))
        }
        #expect(try f.store.dump() == before)
    }

    @Test func theStoreRefusesBadButtonsWithTheDatabaseUnchanged() throws {
        let (f, child, button) = try Self.stored()
        try f.store.archiveChild(id: child.id, at: f.now)
        let before = try f.store.dump()
        func add(_ path: String, map: String? = nil, child: UUID? = nil, debounce: Int? = nil) throws {
            try f.store.addDeviceButton(path: path, keyMap: map, childId: child, grab: false, debounceMilliseconds: debounce, at: f.now)
        }
        #expect(throws: StoreError.buttonExists(path: "/dev/input/event3", id: button.id.lowercased)) { try add("/dev/input/event3") }
        #expect(throws: StoreError.childNotFound(child.id.lowercased)) { try add("/dev/input/event4", child: child.id) }
        let stranger = try #require(UUID(uuidString: Self.joon))
        #expect(throws: StoreError.childNotFound(Self.joon)) { try add("/dev/input/event4", child: stranger) }
        for bad in ["relative/event4", "/dev/input/../event4", "/dev/input/event4/", "/dev/input/event\u{7}4", "/" + String(repeating: "a", count: 4096)] {
            #expect(throws: StoreError.self, "\(bad)") { try add(bad) }
        }
        #expect(throws: StoreError.self) { try add("/dev/input/event4", debounce: 5001) }
        #expect(throws: StoreError.self) { try add("/dev/input/event4", map: "KEY_ENTER") }
        #expect(throws: StoreError.buttonNotFound("/dev/input/event9")) { try f.store.removeDeviceButton("/dev/input/event9") }
        #expect(throws: StoreError.self) { try f.store.updateDeviceHaptics(at: f.now) { $0.rumblePath = "/tmp/event5" } }
        #expect(throws: StoreError.self) { try f.store.updateDeviceHaptics(at: f.now) { $0.logPath = "log.jsonl" } }
        #expect(try f.store.dump() == before)
    }

    @Test func buttonsAreRemovedByIdOrPathAndHapticsChangeInOneRow() throws {
        let (f, _, button) = try Self.stored()
        let second = try f.store.addDeviceButton(path: "/tmp/steppie-button-fifo", keyMap: nil, childId: nil, grab: true, debounceMilliseconds: 0, at: f.now)
        #expect(try f.store.deviceButtons().map(\.path) == ["/dev/input/event3", "/tmp/steppie-button-fifo"])
        #expect(try f.store.removeDeviceButton(button.id.uuidString.uppercased()) == button)
        #expect(try f.store.removeDeviceButton("/tmp/steppie-button-fifo") == second)
        #expect(try f.store.deviceButtons().isEmpty)

        let later = f.now.addingTimeInterval(60)
        let h = try f.store.updateDeviceHaptics(at: later) { $0.audioPulse = false; $0.rumblePath = "/dev/input/by-id/pad-event-joystick" }
        #expect(h == DeviceHaptics(audioPulse: false, rumblePath: "/dev/input/by-id/pad-event-joystick",
                                   logPath: "/var/log/steppie/haptics.jsonl", updatedAt: later))
        #expect(try f.store.deviceHaptics() == h)
        #expect(try f.store.db.queryFirst("SELECT count(*) FROM device_haptics") { $0.int(0) } == 1)
    }

    /// The device's hardware is not in snapshots: a restore keeps it, and a button keeps its child
    /// when that child is there again (else it presses for the only child).
    @Test func aRestoreKeepsTheDevicesButtonsAndHaptics() throws {
        let (f, child, button) = try Self.stored()
        let other = try f.store.addDeviceButton(path: "/dev/input/event4", keyMap: nil, childId: nil, grab: true, debounceMilliseconds: 100, at: f.now)
        let haptics = try f.store.deviceHaptics()
        let snapshot = try f.store.snapshot()
        try f.store.replaceAll(with: snapshot)
        #expect(try f.store.deviceButtons() == [button, other])
        #expect(try f.store.deviceHaptics() == haptics)
        // A backup without Mina (another device's): her button lets go of her, nothing else changes.
        let joon = Child(id: try #require(UUID(uuidString: Self.joon)), displayName: "Joon", createdAt: f.now)
        try f.store.replaceAll(with: Snapshot(children: [joon]))
        var unlinked = button
        unlinked.childId = nil
        #expect(try f.store.deviceButtons() == [unlinked, other])
        #expect(try f.store.deviceHaptics() == haptics)
        #expect(try f.store.integrityProblems().isEmpty)
        // Mina back (archived): still not hers, an archived child has no routine to press.
        var archived = child
        archived.archivedAt = f.now
        try f.store.replaceAll(with: Snapshot(children: [archived]))
        #expect(try f.store.deviceButtons().first?.childId == nil)
    }
}
