import Foundation
import SteppieCore
import SteppieSync
import Testing
@testable import SteppieStore

/// Photos' and recordings' content through sync on the store's side (docs/sync.md, "Photos and
/// recordings"): recordings logged and applied as the `recording` kind, the blobs a database
/// names, and what the hub lets a device read.
@Suite struct SyncContentStoreTests {
    /// A decoder that takes every file as a one-second recording with sound.
    static let decoder: AudioDecoder = { _ in .success(DecodedAudio(milliseconds: 1000, peak: 0.5)) }

    static func firstRoutine(_ f: StoreFixture, _ child: Child) throws -> Routine {
        let set = try #require(try f.store.sets(childId: child.id).first)
        return try #require(try f.store.routines(setId: set.id).sorted { $0.order < $1.order }.first)
    }

    @Test func aRecordingTravelsAsItsHashAndIsRemovedEverywhere() throws {
        let (rig, home, school, child) = try SyncRig.homeAndSchool()
        let routine = try Self.firstRoutine(home, child)
        let bytes = Data("RIFF-not-really-a-wav-but-the-decoder-says-so".utf8)
        let kept = try home.store.keepRecording(bytes, routineId: routine.id, locale: "en", fileExtension: "wav",
                                                decode: Self.decoder, at: home.now)
        let sha = try #require(kept.recording.sha256)
        #expect(RoutineLook.isSha256(sha))
        try rig.syncAll()
        // School holds the row under the content's name; the file itself comes from the agent.
        let there = try #require(try school.store.recording(routineId: routine.id, locale: "en"))
        #expect(there.sha256 == sha && there.fileName == "\(sha).audio" && there.durationMs == 1000)
        #expect(RecordingCheck.isFileName(there.fileName))
        #expect(try school.store.syncBlobsNamedHere().contains(SyncBlob(sha256: sha, kind: .recording)))
        #expect(try rig.hub.store.recording(routineId: routine.id, locale: "en")?.sha256 == sha)
        // The hub lets a device read it only through the children it was given.
        #expect(try rig.hub.store.syncHubBlobNamed(sha256: sha, children: [child.id.lowercased]))
        #expect(try !rig.hub.store.syncHubBlobNamed(sha256: sha, children: [UUID().lowercased]))
        #expect(try rig.hub.store.syncHubDeviceChildren(credentialHash: SyncRig.hash(1)) == [child.id.lowercased])
        #expect(try rig.hub.store.syncHubDeviceChildren(credentialHash: SyncRig.hash(7)) == nil)

        // Removed at home: removed on school and the hub.
        rig.tick()
        #expect(try home.store.discardRecording(routineId: routine.id, locale: "en") != nil)
        try rig.syncAll()
        #expect(try school.store.recording(routineId: routine.id, locale: "en") == nil)
        #expect(try rig.hub.store.recording(routineId: routine.id, locale: "en") == nil)
        #expect(try SyncRig.state(school.store) == SyncRig.state(home.store))
    }

    @Test func aPhotoNamedByItsContentIsNamedHereAndReadableOnlyThroughItsChild() throws {
        let (rig, home, school, child) = try SyncRig.homeAndSchool()
        var routine = try Self.firstRoutine(home, child)
        let sha = String(repeating: "ab", count: 32)
        routine.icon = .photo(localAssetId: UUID().lowercased, backupAssetName: "routine-photo-\(sha).png")
        try home.store.updateRoutine(routine, at: home.now)
        let pending = try #require(try home.store.syncPushRequest(physical: rig.physical))
        #expect(SyncBlob.named(in: pending.entries.map(\.entry)) == [SyncBlob(sha256: sha, kind: .photo(ext: "png"))])
        try rig.syncAll()
        #expect(try school.store.routine(id: routine.id).icon == routine.icon)
        #expect(try school.store.syncBlobsNamedHere() == [SyncBlob(sha256: sha, kind: .photo(ext: "png"))])
        #expect(try rig.hub.store.syncHubBlobNamed(sha256: sha, children: [child.id.lowercased]))
        #expect(try !rig.hub.store.syncHubBlobNamed(sha256: String(repeating: "cd", count: 32), children: [child.id.lowercased]))
        // A photo named the old way travels by name only: nothing to fetch.
        #expect(SyncBlob.photo(named: "routine-photo-\(UUID().lowercased).jpg") == nil)
    }

    @Test func migrationV11AddsTheHashToAVersion10DatabaseAndOldRecordingsStayUnlogged() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-v10-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("steppie.db").path
        do {
            let db = try Connection(path: path)
            let v10 = try #require(Schema.migrations.firstIndex { $0.id == "v10-sync" })
            try Migrator(Array(Schema.migrations.prefix(v10 + 1))).migrate(db)
        }
        let store = try Store(path: path, timeZone: TimeZone(identifier: "Asia/Seoul") ?? .current)
        #expect(try Migrator().applied(store.db).contains("v11-sync-recordings"))
        let child = try store.addChild(name: "Mina", at: Date())
        try store.createSet(childId: child.id, template: .morning, at: Date())
        let set = try #require(try store.sets(childId: child.id).first)
        let routine = try #require(try store.routines(setId: set.id).first)
        try store.becomeSyncHub(device: DeviceID(UUID()), at: Date())
        // A recording without a hash (kept before v11, or restored) is not logged; one with a hash is.
        try store.setRecording(RoutineRecording(routineId: routine.id, locale: "ko", fileName: "\(UUID().lowercased).wav",
                                                durationMs: 900, createdAt: Date()))
        #expect(try store.db.queryFirst("SELECT COUNT(*) FROM sync_registers WHERE entity = 'recording'") { $0.int(0) } == 0)
        try store.setRecording(RoutineRecording(routineId: routine.id, locale: "en", fileName: "\(UUID().lowercased).wav",
                                                durationMs: 900, createdAt: Date(), sha256: String(repeating: "0", count: 64)))
        #expect(try store.db.queryFirst("SELECT COUNT(*) FROM sync_registers WHERE entity = 'recording'") { $0.int(0) } == 5)
    }
}
