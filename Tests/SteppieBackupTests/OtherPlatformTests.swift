import Foundation
import Testing
import SteppieCore
import SteppieSecurity
@testable import SteppieBackup
@testable import SteppieStore

/// Backups as the iOS and Android apps write them, built by hand from their serializers' habits.
@Suite struct OtherPlatformTests {
    static let set1 = "3f2a6c1e-8b4d-4e2a-9c1f-2b7d5e8a1c01", set2 = "3f2a6c1e-8b4d-4e2a-9c1f-2b7d5e8a1c02"
    static let r1 = "7c9e6679-7425-40de-944b-e07fc1f90ae1", r2 = "7c9e6679-7425-40de-944b-e07fc1f90ae2"
    static let r3 = "7c9e6679-7425-40de-944b-e07fc1f90ae3"

    /// Android: compact, explicit nulls, `+09:00` offsets, lowercase ids, `routineSetId`, `\/`, `1` for 1.0.
    static let android = """
    {"schemaVersion":2,"exportedAt":"2026-03-02T07:00:00.5+09:00","routineSets":[\
    {"id":"\(set1)","name":{"ko":"아침","en":"Morning\\/AM"},"isActive":true,"startTime":"06:30","createdAt":"2026-01-01T08:00:00+09:00","updatedAt":"2026-02-01T08:00:00+09:00","deletedAt":null},\
    {"id":"\(set2)","name":{"ko":"저녁"},"isActive":true,"startTime":null,"createdAt":"2026-01-01T08:00:00+09:00","updatedAt":"2026-02-05T08:00:00.123+09:00","deletedAt":null}],\
    "routines":[\
    {"id":"\(r1)","routineSetId":"\(set1)","titleKey":"routine.brush_teeth","title":{"ko":"양치하기","en":"Brush teeth"},"icon":{"type":"builtin","name":"toothbrush"},"colorToken":"color.card.sky","order":0,"scheduledTime":"07:30","isActive":true,"createdAt":"2026-01-01T08:00:00+09:00","updatedAt":"2026-01-01T08:00:00+09:00","deletedAt":null},\
    {"id":"\(r2)","routineSetId":"\(set1)","titleKey":null,"title":{"ko":"옷 입기"},"icon":{"type":"photo","localAssetId":"8a5b6b1a-1c47-4f43-a4a3-8b8a64b56921","backupAssetName":"routine-photo-8a5b6b1a.jpg"},"colorToken":"color.card.mint","order":1,"scheduledTime":null,"isActive":true,"createdAt":"2026-01-01T08:00:00+09:00","updatedAt":"2026-01-01T08:00:00+09:00","deletedAt":null},\
    {"id":"\(r3)","routineSetId":"\(set2)","titleKey":null,"title":{"ko":"잠옷"},"icon":{"type":"photo","localAssetId":"9a5b6b1a-1c47-4f43-a4a3-8b8a64b56921","backupAssetName":"routine-photo-missing.png"},"colorToken":"color.card.rose","order":0,"scheduledTime":null,"isActive":true,"createdAt":"2026-01-01T08:00:00+09:00","updatedAt":"2026-01-01T08:00:00+09:00","deletedAt":null}],\
    "dailyLogs":[\
    {"id":"0b0e4f5a-0000-4000-8000-000000000001","date":"2026-03-01","routineId":"\(r1)","routineSetId":"\(set1)","status":"completed","completedAt":"2026-03-01T07:31:00+09:00","createdAt":"2026-03-01T07:31:00+09:00","updatedAt":"2026-03-01T07:31:00+09:00"},\
    {"id":"0b0e4f5a-0000-4000-8000-000000000002","date":"2026-03-01","routineId":"\(r2)","routineSetId":"\(set1)","status":"undone","completedAt":null,"createdAt":"2026-03-01T07:35:00+09:00","updatedAt":"2026-03-01T07:36:00+09:00"}],\
    "appSettings":{"guardianPinHash":"pbkdf2-sha256$120000$c2FsdA==$aGFzaA==","recoveryCodeHash":"pbkdf2-sha256$120000$c2FsdDI=$aGFzaDI=","feedbackIntensity":"strong","soundEnabled":true,"ttsEnabled":false,"ttsRate":1,"ttsVolume":0.8,"hapticEnabled":true,"undoDurationSeconds":10,"notificationLeadTimes":[10,5],"quietHoursStart":null,"quietHoursEnd":null,"locale":"ko-KR","createdAt":"2026-01-01T08:00:00+09:00","updatedAt":"2026-01-01T08:00:00+09:00"}}
    """

    /// iOS: pretty, sorted keys, `Z` timestamps, uppercase ids, `routineSetID`/`routineID`/`dailyStartTime`, nils omitted.
    static let ios = """
    {
      "appSettings" : {
        "createdAt" : "2026-01-01T00:00:00Z",
        "feedbackIntensity" : "quiet",
        "guardianPinHash" : "v1$c2FsdA$9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "hapticEnabled" : false,
        "id" : "singleton",
        "notificationLeadTimes" : [15],
        "soundEnabled" : true,
        "ttsEnabled" : true,
        "ttsRate" : 0.9,
        "ttsVolume" : 1,
        "undoDurationSeconds" : 3,
        "updatedAt" : "2026-01-02T00:00:00Z"
      },
      "dailyLogs" : [
        {
          "createdAt" : "2026-02-28T22:31:00Z",
          "date" : "2026-03-01",
          "id" : "0B0E4F5A-0000-4000-8000-000000000001",
          "routineID" : "\(r1.uppercased())",
          "routineSetID" : "\(set1.uppercased())",
          "status" : "undone",
          "updatedAt" : "2026-02-28T22:32:00Z"
        }
      ],
      "dailyRoutineAssignments" : [],
      "exportedAt" : "2026-03-01T22:00:00Z",
      "routineSets" : [
        {
          "createdAt" : "2026-01-01T00:00:00Z",
          "dailyStartTime" : "06:45",
          "id" : "\(set1.uppercased())",
          "isActive" : false,
          "name" : { "en" : "Morning", "ko" : "아침" },
          "updatedAt" : "2026-01-01T00:00:00Z"
        }
      ],
      "routines" : [
        {
          "colorToken" : "color.card.lemon",
          "createdAt" : "2026-01-01T00:00:00Z",
          "icon" : { "name" : "toothbrush", "type" : "builtin" },
          "id" : "\(r1.uppercased())",
          "isActive" : true,
          "order" : 0,
          "routineSetID" : "\(set1.uppercased())",
          "title" : { "en" : "Brush teeth" },
          "updatedAt" : "2026-01-01T00:00:00Z"
        }
      ],
      "schemaVersion" : 1
    }
    """

    /// A phone backup holds one child's data: on a device with two children it replaces the one
    /// named and keeps the other, the device's PIN and language; the phone's PIN hashes are dropped.
    @Test func androidBackupRestoresIntoOneChildAndItsPinHashesAreDropped() throws {
        let f = try BackupFixture()
        try f.populate()
        let data = Array(Self.android.utf8)
        let archive = f.url("android.zip")
        try makeZip(at: archive, [
            TestEntry(name: "manifest.json", bytes: try manifest(for: data, platform: "android",
                                                                checksum: SHA256.hex(of: Data(data)).uppercased())),
            TestEntry(name: "data.json", bytes: data),
            TestEntry(name: "assets/", bytes: []),
            TestEntry(name: "assets/routine-photo-8a5b6b1a.jpg", bytes: jpeg()),
        ])
        #expect(try run(["unzip", "-v", archive.path]).output.contains("Defl:N"))
        let joon = try f.store.resolveChild("준호 \"J\" \\ /")
        let joonSets = try f.store.sets(childId: joon.id)
        let joonPhoto = "routine-photo-\(joon.id.uuidString.prefix(8)).jpg"
        let before = try f.store.deviceSettings()
        // Several children and none named: refused before anything is written.
        #expect(throws: BackupError.childRequired(children: ["Mina", "준호 \"J\" \\ /"])) {
            try Restorer(options: RestoreOptions(defaultChildName: "Child"))
                .restore(archive: archive, into: f.store, assetsDirectory: f.assets, at: f.now, confirm: { _ in true })
        }
        let report = try Restorer(options: RestoreOptions(defaultChildName: "Child", child: "mina"))
            .restore(archive: archive, into: f.store, assetsDirectory: f.assets, at: f.now, confirm: { plan in
                #expect(plan.sourcePlatform == .android)
                #expect(plan.scope?.kind == .child && plan.scope?.child == "Mina" && plan.scope?.kept == ["준호 \"J\" \\ /"])
                #expect(plan.scope?.replaced.map(\.name) == ["Mina"] && plan.scope?.replaced.first?.photos == 1)
                #expect(!plan.needsNewPin)
                #expect(plan.photosReplaced == 1)
                return true
            })
        #expect(!report.needsNewPin)
        #expect(try f.store.deviceSettings() == before)
        let child = try f.store.resolveChild("Mina")
        #expect(child.displayName == "Mina")
        #expect(child.profile.intensity == .strong && child.profile.ttsEnabled == false && child.profile.ttsRate == 1.0)
        #expect(child.profile.undoDurationSeconds == 10 && child.profile.locale == nil)
        #expect(try f.store.sets(childId: joon.id) == joonSets)
        let sets = try f.store.sets(childId: child.id)
        #expect(sets.count == 2)
        // Both were active: the most recently updated one wins.
        #expect(try f.store.activeSet(childId: child.id)?.id.lowercased == Self.set2)
        #expect(sets.first { $0.id.lowercased == Self.set1 }?.name.values["en"] == "Morning/AM")
        #expect(sets.first { $0.id.lowercased == Self.set1 }?.startTime == LocalTime("06:30"))
        let (id1, id2, id3) = (try #require(UUID(uuidString: Self.r1)), try #require(UUID(uuidString: Self.r2)), try #require(UUID(uuidString: Self.r3)))
        let routine3 = try f.store.routine(id: id3)
        #expect(routine3.icon == .fallback)
        let routine2 = try f.store.routine(id: id2)
        #expect(routine2.icon == .photo(localAssetId: "8a5b6b1a-1c47-4f43-a4a3-8b8a64b56921", backupAssetName: "routine-photo-8a5b6b1a.jpg"))
        // Mina's old photo went with her routines; Joon's stays.
        #expect(try f.assetFiles().keys.sorted() == [joonPhoto, "routine-photo-8a5b6b1a.jpg"].sorted())
        #expect(try f.assetFiles()["routine-photo-8a5b6b1a.jpg"] == Data(jpeg()))
        let day = try #require(LocalDay("2026-03-01"))
        let log = try #require(try f.store.log(day: day, routineId: id1))
        #expect(log.status == .completed && log.completedAt == Timestamp.parse("2026-02-28T22:31:00Z"))
        #expect(try f.store.integrityProblems().isEmpty)
    }

    @Test func iosBackupRestores() throws {
        let f = try BackupFixture()
        let data = Array(Self.ios.utf8)
        let archive = f.url("ios.zip")
        try makeZip(at: archive, [
            TestEntry(name: "manifest.json", bytes: try manifest(for: data, platform: "ios", version: 1, pretty: true), deflate: false),
            TestEntry(name: "data.json", bytes: data, deflate: false),
            TestEntry(name: "assets/", bytes: [], deflate: false),
        ])
        let plan = try BackupVerifier().verify(archive: archive, defaultChildName: "Ari", at: f.now)
        #expect(plan.sourcePlatform == .ios && plan.backupSchemaVersion == 1)
        #expect(plan.counts == BackupCounts(children: 1, routineSets: 1, routines: 1, dailyLogs: 1, assets: 0))
        let report = try Restorer(options: RestoreOptions(defaultChildName: "Ari"))
            .restore(archive: archive, into: f.store, assetsDirectory: f.assets, at: f.now, confirm: { _ in true })
        #expect(report.needsNewPin)
        #expect(try f.store.deviceSettings()?.guardianPinHash == nil)
        let child = try f.store.resolveChild("Ari")
        #expect(child.profile.intensity == .quiet && child.profile.notificationLeadTimes == [15])
        // No set was active: the most recently updated visible one becomes active.
        let active = try #require(try f.store.activeSet(childId: child.id))
        #expect(active.id.lowercased == Self.set1 && active.startTime == LocalTime("06:45"))
        let day = try #require(LocalDay("2026-03-01"))
        let id1 = try #require(UUID(uuidString: Self.r1))
        let log = try #require(try f.store.log(day: day, routineId: id1))
        #expect(log.status == .undone && log.completedAt == nil)
    }

    @Test func iosBackupWithAMismatchedChecksumIsRefused() throws {
        let f = try BackupFixture()
        let data = Array(Self.ios.utf8)
        let archive = f.url("ios-bad.zip")
        // iOS compares exactly; only Android ignores case.
        try makeZip(at: archive, [
            TestEntry(name: "manifest.json", bytes: try manifest(for: data, platform: "ios", version: 1,
                                                                checksum: SHA256.hex(of: Data(data)).uppercased())),
            TestEntry(name: "data.json", bytes: data),
        ])
        #expect(throws: BackupError.self) { try BackupVerifier().verify(archive: archive, at: f.now) }
    }
}
