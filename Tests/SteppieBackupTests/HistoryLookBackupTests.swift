import Foundation
import Testing
import SteppieCore
@testable import SteppieBackup
@testable import SteppieStore

/// Backups carry what the child saw (issue 26, item 7): the looks completions recorded, each
/// log's `lookId`, the photos' recorded hashes, and the old picture a look names.
@Suite struct HistoryLookBackupTests {
    static let oldName = "routine-photo-11111111-1111-4111-8111-111111111111.jpg"
    static let newName = "routine-photo-22222222-2222-4222-8222-222222222222.jpg"

    /// A child whose first routine showed `oldName` ("Wake up") when completed yesterday, and was
    /// then renamed and given `newName`; both files in the photo folder, both hashes recorded.
    static func renamedAfterCompletion(_ f: BackupFixture) throws -> (child: Child, routine: Routine, day: LocalDay, old: [UInt8]) {
        try f.store.ensureDeviceSettings(at: f.now)
        let child = try f.store.addChild(name: "Mina", at: f.now)
        let set = try f.store.createSet(childId: child.id, template: .morning, at: f.now)
        try FileManager.default.createDirectory(at: f.assets, withIntermediateDirectories: true)
        let old = jpeg(payload: Array(repeating: 0x11, count: 500)), new = jpeg(payload: Array(repeating: 0x22, count: 700))
        try Data(old).write(to: f.assets.appendingPathComponent(oldName))
        try Data(new).write(to: f.assets.appendingPathComponent(newName))
        var routine = try #require(try f.store.routines(setId: set.id).first)
        routine.icon = .photo(localAssetId: "aaaaaaaa-1111-4111-8111-111111111111", backupAssetName: oldName)
        try f.store.updateRoutine(routine, at: f.now)
        try f.store.recordPhotoHash(name: oldName, sha256: ArchiveLoader.sha256(old))
        let day = LocalDay(f.now, in: f.zone).adding(days: -1)
        try f.store.complete(childId: child.id, day: day, at: day.instant(at: LocalTime(hour: 7, minute: 5)!, in: f.zone))
        var edited = try f.store.routine(id: routine.id)
        edited.title = LocalizedText(["en": "Rise and shine", "ko": "해님 인사"])
        edited.icon = .photo(localAssetId: "bbbbbbbb-2222-4222-8222-222222222222", backupAssetName: newName)
        try f.store.updateRoutine(edited, at: f.now)
        try f.store.recordPhotoHash(name: newName, sha256: ArchiveLoader.sha256(new))
        return (child, routine, day, old)
    }

    @Test func aRestoreIntoAFreshDatabaseBringsBackTheOldTitleAndTheOldPictureByteForByte() throws {
        let source = try BackupFixture()
        let (child, routine, day, old) = try Self.renamedAfterCompletion(source)
        let archive = source.url("looks.zip")
        try BackupCreator(appVersion: "0.9.0", timeZone: source.zone)
            .create(store: source.store, assetsDirectory: source.assets, destination: archive, at: source.now)
        let unzip = try run(["unzip", "-p", archive.path, "data.json"])
        #expect(unzip.output.contains("\"routineLooks\"") && unzip.output.contains("\"lookId\"") && unzip.output.contains("\"photoHashes\""))

        let target = try BackupFixture()
        try Restorer(options: RestoreOptions(defaultChildName: "Child"))
            .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { _ in true })
        let (was, now) = (try source.store.dataDump(), try target.store.dataDump())
        #expect(now == was, "\(zip(was.split(separator: "\n"), now.split(separator: "\n")).filter { $0 != $1 }.prefix(3))")
        #expect(try target.store.integrityProblems().isEmpty)
        let shown = try #require(try target.store.history(childId: child.id, from: day, through: day).first { $0.routine.id == routine.id })
        #expect(shown.routine.title == routine.title)
        #expect(shown.routine.icon == .photo(localAssetId: "aaaaaaaa-1111-4111-8111-111111111111", backupAssetName: Self.oldName))
        #expect(try target.store.routine(id: routine.id).title.values["en"] == "Rise and shine")
        #expect(Array(try Data(contentsOf: target.assets.appendingPathComponent(Self.oldName))) == old)
        #expect(try target.assetFiles() == source.assetFiles())
        #expect(try target.store.photoHashes()[Self.oldName] == ArchiveLoader.sha256(old))
    }

    @Test func aHashedPhotoWhoseBytesChangedIsRefusedWithNothingChanged() throws {
        let source = try BackupFixture()
        _ = try Self.renamedAfterCompletion(source)
        let archive = source.url("looks.zip")
        try BackupCreator(appVersion: "0.9.0", timeZone: source.zone)
            .create(store: source.store, assetsDirectory: source.assets, destination: archive, at: source.now)
        // Another valid JPEG under the old picture's name: only its hash can tell.
        let damaged = source.url("damaged.zip")
        let forged = jpeg(payload: Array(repeating: 0x33, count: 500))
        let copy = try run(["python3", "-c", """
            import sys, zipfile
            src, dst, name, data = sys.argv[1], sys.argv[2], sys.argv[3], bytes.fromhex(sys.argv[4])
            with zipfile.ZipFile(src) as a, zipfile.ZipFile(dst, 'w') as b:
                for info in a.infolist():
                    b.writestr(info, data if info.filename == name else a.read(info.filename))
            """, archive.path, damaged.path, "assets/" + Self.oldName, forged.map { String(format: "%02x", $0) }.joined()])
        #expect(copy.status == 0, "\(copy.output)")

        let target = try BackupFixture()
        try target.store.addChild(name: "Joon", at: target.now)
        let before = try target.store.dump()
        #expect(throws: BackupError.photoHashMismatch(name: "assets/" + Self.oldName,
                                                     expected: ArchiveLoader.sha256(jpeg(payload: Array(repeating: 0x11, count: 500))),
                                                     actual: ArchiveLoader.sha256(forged))) {
            try Restorer(options: RestoreOptions(defaultChildName: "Child"))
                .restore(archive: damaged, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { _ in true })
        }
        #expect(try target.store.dump() == before)
        #expect(try target.assetFiles().isEmpty)
        #expect(try target.databaseFolder() == ["steppie.db", "steppie.db-shm", "steppie.db-wal"])
    }

    @Test func aBackupFromBeforeLooksRestoresAsBefore() throws {
        // data.json without `routineLooks`, `lookId` or `photoHashes`: the logs show their routines as they are.
        let source = try BackupFixture()
        try source.populate()
        try source.store.db.execute("UPDATE daily_logs SET look_id = NULL; DELETE FROM routine_looks;")
        let archive = source.url("old.zip")
        try BackupCreator(appVersion: "0.9.0", timeZone: source.zone)
            .create(store: source.store, assetsDirectory: source.assets, destination: archive, at: source.now)
        let data = try run(["unzip", "-p", archive.path, "data.json"]).output
        #expect(!data.contains("routineLooks") && !data.contains("lookId") && !data.contains("photoHashes"))
        let target = try BackupFixture()
        try Restorer(options: RestoreOptions(defaultChildName: "Child"))
            .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { _ in true })
        #expect(try target.store.dataDump() == source.store.dataDump())
    }
}
