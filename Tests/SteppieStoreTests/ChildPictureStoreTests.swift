import Foundation
import Testing
import SteppieCore
@testable import SteppieStore

/// A child's picture (migration v9, `Store.setChildPicture`), the picker's defaults
/// (`ChildPictures.resolve`) and the "siblings may switch" device setting (#26 item 4).
@Suite struct ChildPictureStoreTests {
    @Test func migrationV9AddsThePictureAndTheSettingToAVersion7Database() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-v7-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("steppie.db").path
        // A database as version 7 of the program left it: a PIN, a locale and two children.
        do {
            let db = try Connection(path: path)
            let v7 = try #require(Schema.migrations.firstIndex { $0.id == "v7-network-backoff-photo-swaps" })
            try Migrator(Array(Schema.migrations.prefix(v7 + 1))).migrate(db)
            try db.execute("""
                INSERT INTO device_settings (id, guardian_pin_hash, locale, created_at, updated_at)
                VALUES ('singleton', '$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA', 'ko', '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00');
                INSERT INTO children (id, display_name, created_at, updated_at) VALUES
                    ('00000000-0000-4000-8000-000000000001', 'Mina', '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00'),
                    ('00000000-0000-4000-8000-000000000002', 'Joon', '2026-03-01T07:01:00+09:00', '2026-03-01T07:01:00+09:00');
                """)
        }
        let before = try Store(path: path, timeZone: TimeZone(identifier: "Asia/Seoul") ?? .current)
        #expect(try Migrator().applied(before.db).contains("v9-child-pictures-sibling-switch"))
        #expect(try before.db.queryFirst("PRAGMA user_version") { $0.int(0) } == Schema.migrations.count)
        // Old rows are kept: no picture chosen (the picker's defaults differ), the switch off.
        let children = try before.children()
        #expect(children.map(\.displayName) == ["Mina", "Joon"] && children.allSatisfy { $0.picture == nil })
        #expect(ChildPictures.resolve(children).values.sorted { "\($0)" < "\($1)" } == [.builtin(name: "cat"), .builtin(name: "dog")])
        #expect(try before.siblingsMaySwitch() == false)
        #expect(try before.deviceSettings()?.guardianPinHash?.hasPrefix("$argon2id$") == true && before.deviceSettings()?.locale == "ko")
        // The column takes only an icon's JSON.
        for bad in ["'not json'", "'{\"type\":\"svg\",\"name\":\"x\"}'"] {
            #expect(throws: (any Error).self) { try before.db.execute("UPDATE children SET picture = \(bad)") }
        }
        #expect(throws: (any Error).self) { try before.db.execute("UPDATE device_settings SET siblings_may_switch = 2") }
    }

    @Test func aPictureIsABuiltinIconOrAPhotoByTheRoutinesRuleAndCanGoBackToTheDefault() throws {
        let f = try StoreFixture()
        let mina = try f.childWithMorning("Mina")
        #expect(try f.store.setChildPicture(id: mina.id, to: .builtin(name: "bicycle"), at: f.now) == nil)
        #expect(try f.store.child(id: mina.id).picture == .builtin(name: "bicycle"))
        let photo = IconRef.photo(localAssetId: UUID().uuidString.lowercased(), backupAssetName: "routine-photo-abc.png")
        #expect(try f.store.setChildPicture(id: mina.id, to: photo, at: f.now) == .builtin(name: "bicycle"))
        #expect(try f.store.children().first?.picture == photo)
        // Refused with the database unchanged: an unknown icon, a photo name that could leave the folder.
        let before = try f.store.dump()
        for bad: IconRef in [.builtin(name: "unicorn"), .photo(localAssetId: UUID().uuidString, backupAssetName: "../steppie.db")] {
            #expect(throws: StoreError.self) { try f.store.setChildPicture(id: mina.id, to: bad, at: f.now) }
        }
        #expect(throws: StoreError.self) { try f.store.setChildPicture(id: UUID(), to: .builtin(name: "cat"), at: f.now) }
        #expect(try f.store.dump() == before)
        #expect(try f.store.setChildPicture(id: mina.id, to: nil, at: f.now) == photo)
        #expect(try f.store.child(id: mina.id).picture == nil)
    }

    @Test func siblingsGetDifferentDefaultsAndAChosenPictureIsNeverGivenAgain() throws {
        let f = try StoreFixture()
        let mina = try f.store.addChild(name: "Mina", at: f.now)
        let joon = try f.store.addChild(name: "Joon", at: f.now.addingTimeInterval(1))
        let hana = try f.store.addChild(name: "Hana", at: f.now.addingTimeInterval(2))
        var pictures = ChildPictures.resolve(try f.store.children())
        #expect(pictures[mina.id] == .builtin(name: "cat") && pictures[joon.id] == .builtin(name: "dog") && pictures[hana.id] == .builtin(name: "sun"))
        // Joon chooses the cat: Mina's default moves on, nobody shares it.
        try f.store.setChildPicture(id: joon.id, to: .builtin(name: "cat"), at: f.now)
        pictures = ChildPictures.resolve(try f.store.children())
        #expect(pictures[joon.id] == .builtin(name: "cat"))
        #expect(Set(pictures.values).count == 3)
        // The same list gives the same pictures.
        #expect(ChildPictures.resolve(try f.store.children()) == pictures)
        // More children than defaults still each get one.
        let many = (0..<20).map { Child(id: UUID(), displayName: "C\($0)", createdAt: f.now) }
        #expect(ChildPictures.resolve(many).count == 20)
    }

    @Test func theSiblingSwitchIsOffUntilTurnedOnAndARestoreOfDeviceSettingsKeepsIt() throws {
        let f = try StoreFixture()
        #expect(try f.store.siblingsMaySwitch() == false)   // no device row yet
        try f.store.setSiblingsMaySwitch(true, at: f.now)
        #expect(try f.store.siblingsMaySwitch() == true)
        // A restore replaces the PIN and language, not this device's own choice.
        try f.store.replaceDeviceSettings(DeviceSettings(locale: "en", createdAt: f.now))
        #expect(try f.store.siblingsMaySwitch() == true && f.store.deviceSettings()?.locale == "en")
        try f.store.setSiblingsMaySwitch(false, at: f.now)
        #expect(try f.store.siblingsMaySwitch() == false)
    }
}
