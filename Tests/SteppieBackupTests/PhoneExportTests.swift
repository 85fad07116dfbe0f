import Foundation
import Testing
import SteppieCore
@testable import SteppieBackup
@testable import SteppieStore

/// `PhoneExporter` (issue 26, item 5): one child's data as the archive the iOS or Android app
/// reads, checked rule by rule as the phone's reader checks it, and restored through our own
/// importer into a fresh database and into the same child.
@Suite struct PhoneExportTests {
    /// The fixture's device (Mina and Joon, a PIN), with Mina's profile away from every default,
    /// a photo routine, a deleted routine, completions and undos in her history; plus a `.jpeg`
    /// photo and a photo icon whose file is gone.
    static func device() throws -> (BackupFixture, Child) {
        let f = try BackupFixture()
        try f.populate()
        var mina = try f.store.resolveChild("Mina")
        var profile = mina.profile
        profile.ttsVolume = 0.6
        profile.undoDurationSeconds = 10
        profile.hapticEnabled = false
        profile.notificationLeadTimes = [15, 5]
        profile.volumeCap = 0.7
        profile.pitch = 40
        profile.locale = "en-US"
        try f.store.updateProfile(childId: mina.id, profile, at: f.now)
        mina = try f.store.child(id: mina.id)
        let evening = try #require(try f.store.sets(childId: mina.id).first { $0.name.values["en"]?.hasPrefix("Evening") == true })
        try Data(jpeg(width: 32, height: 32)).write(to: f.assets.appendingPathComponent("routine-photo-minajpeg.jpeg"))
        _ = try f.store.addRoutine(setId: evening.id, title: LocalizedText(["ko": "세수", "en": ""]),
                                   icon: .photo(localAssetId: "6ba7b810-9dad-11d1-80b4-00c04fd430c8", backupAssetName: "routine-photo-minajpeg.jpeg"), at: f.now)
        _ = try f.store.addRoutine(setId: evening.id, title: LocalizedText(["en": "Gone"]),
                                   icon: .photo(localAssetId: UUID().uuidString, backupAssetName: "routine-photo-gone.png"), at: f.now)
        return (f, mina)
    }

    static func export(_ f: BackupFixture, _ child: Child, _ platform: PhoneExporter.Platform) throws -> (String, PhoneExportReport) {
        let folder = f.url("out-\(platform.rawValue)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let report = try PhoneExporter(appVersion: "0.9.0", timeZone: f.zone)
            .export(store: f.store, childId: child.id, for: platform, assetsDirectory: f.assets, destination: folder, at: f.now)
        return (report.path, report)
    }

    static let secrets = ["$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA", "$argon2id$v=19$m=65536,t=2,p=1$c2FsdDI$aGFzaDI"]

    @Test("an iOS and an Android archive pass every reading rule of the phone app, rule by rule", arguments: PhoneExporter.Platform.allCases)
    func everyReadingRuleHolds(_ platform: PhoneExporter.Platform) throws {
        let (f, mina) = try Self.device()
        let (path, report) = try Self.export(f, mina, platform)
        // The default name in the folder: 2026-03-02 07:00:00 in Seoul.
        #expect((path as NSString).lastPathComponent == "steppie-backup-20260302-070000.zip")
        let rules = try PhoneReadingRules(archive: path, target: platform == .ios ? .ios : .android, deviceSecrets: Self.secrets)
        // Every rule was judged (the iOS-only ones for iOS).
        for rule in ["manifest.checksum.matches", "data.schemaVersion", "ids.uuidV4", "logs.uniqueDateRoutine", "refs.logRoutineAndSet",
                     "routines.uniqueOrder", "icon.known", "pin.noHashes", "asset.size ≤ 5 MiB"] + (platform == .ios
                     ? ["zip.ios.storedOnly", "zip.ios.noDataDescriptor", "data.ios.prettySortedKeys", "manifest.ios.prettySortedKeys", "settings.ios.id"]
                     : ["android.explicitNulls", "ids.android.lowercase"]) {
            #expect(rules.verdict(rule) != nil, "rule \(rule) was not judged")
        }
        for verdict in rules.verdicts {
            #expect(verdict.ok, "reading rule \(verdict.rule) is broken: \(verdict.detail)")
        }
        // Only Mina's rows, and everything the phone can hold of them.
        let sets = try f.store.sets(childId: mina.id, includeDeleted: true)
        let routines = try sets.flatMap { try f.store.routines(setId: $0.id, includeDeleted: true) }
        #expect(report.counts.routineSets == sets.count && report.counts.routines == routines.count)
        #expect(report.counts.dailyLogs == 7 && report.counts.photos == 2, "\(report.counts)")
        #expect(rules.entries.keys.sorted() == ["assets/", "assets/routine-photo-\(mina.id.uuidString.prefix(8)).jpg", "assets/routine-photo-minajpeg.jpg",
                                                "data.json", "manifest.json"])
        #expect(report.leftOut.photosAsStar == 1 && report.leftOut.scheduleSlots == 12)
        #expect(report.leftOut.leadTimesChanged == (platform == .ios))
        let data = try #require(try JSONSerialization.jsonObject(with: Data(rules.entries["data.json"] ?? [])) as? [String: Any])
        let settings = try #require(data["appSettings"] as? [String: Any])
        #expect(settings["feedbackIntensity"] as? String == "quiet" && settings["notificationLeadTimes"] as? [Int] == (platform == .ios ? [10, 5] : [15, 5]))
        #expect(settings["volumeCap"] == nil && settings["pitch"] == nil && settings["voiceVariant"] == nil)
        #expect(settings["locale"] as? String == (platform == .ios ? nil : "en-US"))
    }

    @Test("the rules fail an archive the phone would refuse: another platform's, or a whole Linux backup")
    func theRulesCanFail() throws {
        let (f, mina) = try Self.device()
        let (ios, _) = try Self.export(f, mina, .ios)
        let asAndroid = try PhoneReadingRules(archive: ios, target: .android)
        for rule in ["manifest.sourcePlatform", "fields.spelling", "ids.android.lowercase", "android.explicitNulls"] {
            #expect(asAndroid.verdict(rule)?.ok == false, "\(rule) should fail an iOS archive read as Android's")
        }
        let linux = f.url("linux.zip")
        _ = try BackupCreator(appVersion: "0.9.0", timeZone: f.zone).create(store: f.store, assetsDirectory: f.assets, destination: linux, at: f.now)
        let asIOS = try PhoneReadingRules(archive: linux.path, target: .ios, deviceSecrets: Self.secrets)
        for rule in ["zip.ios.storedOnly", "manifest.backupSchemaVersion", "manifest.sourcePlatform", "data.schemaVersion",
                     "data.ios.prettySortedKeys", "fields.spelling", "pin.noHashes", "pin.noDeviceSecrets", "icon.known", "instants.format"] {
            #expect(asIOS.verdict(rule)?.ok == false, "\(rule) should fail a Linux backup read as iOS's")
        }
    }

    /// The child's rows as the phone round trip keeps them (instants aside: iOS keeps whole seconds).
    struct ChildRows: Equatable {
        var sets: [String]
        var routines: [String]
        var logs: [String]
    }

    static func rows(_ store: Store, child: UUID, iconAfterTrip: Bool, wholeSeconds: Bool) throws -> ChildRows {
        let sets = try store.sets(childId: child, includeDeleted: true).sorted { $0.id.lowercased < $1.id.lowercased }
        let routines = try sets.flatMap { try store.routines(setId: $0.id, includeDeleted: true) }.sorted { $0.id.lowercased < $1.id.lowercased }
        let setIds = Set(sets.map(\.id))
        let logs = try store.snapshot().dailyLogs.filter { setIds.contains($0.routineSetId) }.sorted { $0.id.lowercased < $1.id.lowercased }
        func icon(_ r: Routine) -> String {
            switch r.icon {
            case .builtin(let name): return "builtin " + (iconAfterTrip ? (PhoneIcons.linuxName(for: PhoneIcons.phoneName(for: name)) ?? "star") : name)
            case .photo(_, let asset):
                guard iconAfterTrip else { return "photo \(asset)" }
                if asset.hasSuffix(".jpeg") { return "photo " + String(asset.dropLast(5)) + ".jpg" }
                return asset == "routine-photo-gone.png" ? "builtin star" : "photo \(asset)"
            }
        }
        func title(_ t: LocalizedText) -> String {
            t.values.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "|")
        }
        func seconds(_ d: Date?) -> String { d.map { wholeSeconds ? String(Int($0.timeIntervalSince1970)) : String(format: "%.3f", $0.timeIntervalSince1970) } ?? "-" }
        return ChildRows(
            sets: sets.map { "\($0.id.lowercased) \(title($0.name)) active=\($0.isActive) start=\($0.startTime?.description ?? "-") deleted=\($0.deletedAt != nil)" },
            routines: routines.map { "\($0.id.lowercased) set=\($0.routineSetId.lowercased) \(title($0.title)) order=\($0.order) active=\($0.isActive) deleted=\($0.deletedAt != nil) \(icon($0)) at=\($0.scheduledTime?.description ?? "-") key=\($0.titleKey ?? "-")" },
            logs: logs.map { "\($0.id.lowercased) \($0.date) \($0.routineId.lowercased) \($0.status.rawValue) \(seconds($0.completedAt))" })
    }

    /// The profile fields a phone holds, as the round trip brings them back.
    static func mapped(_ p: FeedbackProfile, ios: Bool) -> [String] {
        [p.intensity.rawValue, "\(p.soundEnabled)", "\(p.ttsEnabled)", "\(p.hapticEnabled)", "\(p.ttsRate)", "\(p.ttsVolume)",
         "\(p.undoDurationSeconds)", "\(ios ? p.notificationLeadTimes.map { $0 <= 7 ? 5 : 10 } : p.notificationLeadTimes)",
         p.quietHoursStart?.description ?? "-", p.quietHoursEnd?.description ?? "-"]
    }

    @Test("an export restores through our own importer into a fresh database with the same sets, routines, history and profile",
          arguments: PhoneExporter.Platform.allCases)
    func roundTripIntoAFreshDatabase(_ platform: PhoneExporter.Platform) throws {
        let (f, mina) = try Self.device()
        let (path, _) = try Self.export(f, mina, platform)
        let ios = platform == .ios
        let fresh = try BackupFixture()
        let report = try Restorer(options: RestoreOptions(defaultChildName: "Mina"))
            .restore(archive: URL(fileURLWithPath: path), into: fresh.store, assetsDirectory: fresh.assets, at: fresh.now, confirm: { plan in
                #expect(plan.sourcePlatform.rawValue == platform.rawValue && plan.iconsReplaced == 0)
                return true
            })
        #expect(report.needsNewPin)
        #expect(try fresh.store.deviceSettings()?.guardianPinHash == nil)
        let restored = try fresh.store.resolveChild("Mina")
        let expected = try Self.rows(f.store, child: mina.id, iconAfterTrip: true, wholeSeconds: ios)
        let got = try Self.rows(fresh.store, child: restored.id, iconAfterTrip: false, wholeSeconds: ios)
        #expect(got.sets == expected.sets)
        #expect(got.routines == expected.routines)
        #expect(got.logs == expected.logs)
        #expect(got.logs.contains { $0.contains(" undone ") } && got.logs.contains { $0.contains(" completed ") })
        #expect(Self.mapped(restored.profile, ios: ios) == Self.mapped(mina.profile, ios: ios))
        #expect(restored.profile.locale == (ios ? nil : "en-US"))
        // The photos, byte for byte (the `.jpeg` one under its `.jpg` name).
        let photo = "routine-photo-\(mina.id.uuidString.prefix(8)).jpg"
        #expect(try fresh.assetFiles()[photo] == f.assetFiles()[photo])
        #expect(try fresh.assetFiles()["routine-photo-minajpeg.jpg"] == f.assetFiles()["routine-photo-minajpeg.jpeg"])
        #expect(try fresh.store.integrityProblems().isEmpty)
    }

    @Test("an export restored into the same child gives that child back and leaves the other child alone", arguments: PhoneExporter.Platform.allCases)
    func roundTripIntoTheSameChild(_ platform: PhoneExporter.Platform) throws {
        let (f, mina) = try Self.device()
        let ios = platform == .ios
        let joon = try f.store.resolveChild("준호 \"J\" \\ /")
        let joonBefore = try Self.rows(f.store, child: joon.id, iconAfterTrip: false, wholeSeconds: false)
        let expected = try Self.rows(f.store, child: mina.id, iconAfterTrip: true, wholeSeconds: ios)
        let (path, _) = try Self.export(f, mina, platform)
        _ = try Restorer(options: RestoreOptions(defaultChildName: "Child", child: "Mina"))
            .restore(archive: URL(fileURLWithPath: path), into: f.store, assetsDirectory: f.assets, at: f.now, confirm: { plan in
                #expect(plan.scope?.kind == .child && plan.scope?.child == "Mina" && plan.scope?.newChild == false)
                return true
            })
        let after = try f.store.resolveChild("Mina")
        #expect(after.id == mina.id)
        let got = try Self.rows(f.store, child: mina.id, iconAfterTrip: false, wholeSeconds: ios)
        #expect(got == expected)
        #expect(Self.mapped(after.profile, ios: ios) == Self.mapped(mina.profile, ios: ios))
        #expect(try Self.rows(f.store, child: joon.id, iconAfterTrip: false, wholeSeconds: false) == joonBefore)
        #expect(try f.store.integrityProblems().isEmpty)
    }

    @Test("the icon tables: every Linux icon has a phone icon, every phone icon a Linux one, and phone → Linux → phone is the same icon")
    func iconTables() {
        #expect(PhoneIcons.names.count == 28)
        for icon in BuiltinIcons.all { #expect(PhoneIcons.names.contains(PhoneIcons.phoneName(for: icon.name)), "\(icon.name)") }
        for name in PhoneIcons.names {
            let linux = PhoneIcons.linuxName(for: name)
            #expect(linux.map { BuiltinIcons.contains($0) } == true, "\(name)")
            #expect(linux.map { PhoneIcons.phoneName(for: $0) } == name, "\(name) → \(linux ?? "nil")")
        }
    }

    @Test("a refused export leaves nothing behind: no archive, no temporary file")
    func aFailedExportLeavesNothing() throws {
        let (f, mina) = try Self.device()
        let folder = f.url("full")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A child that is not there: refused before anything is written.
        let target = folder.appendingPathComponent("phone.zip")
        #expect(throws: BackupError.self) {
            try PhoneExporter(appVersion: "0.9.0", timeZone: f.zone)
                .export(store: f.store, childId: UUID(), for: .ios, assetsDirectory: f.assets, destination: target, at: f.now)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        _ = mina
    }
}
