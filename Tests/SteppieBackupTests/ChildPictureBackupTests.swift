import Foundation
import Testing
import SteppieCore
@testable import SteppieBackup
@testable import SteppieStore

/// A child's picture in backups (#26 item 4): the child's `picture` in data.json, its photo under
/// `assets/` by the routine photos' rules; an older backup without it restores as before.
@Suite struct ChildPictureBackupTests {
    /// The fixture's two children, Mina with a photo and Joon with a builtin icon.
    private func picturedSource() throws -> (BackupFixture, photo: String) {
        let source = try BackupFixture()
        try source.populate()
        let photo = "routine-photo-\(UUID().uuidString.lowercased()).png"
        try Data(png(width: 3, height: 2, payload: Array(repeating: 0x5A, count: 40))).write(to: source.assets.appendingPathComponent(photo))
        let mina = try source.store.resolveChild("Mina")
        let joon = try source.store.resolveChild("준호 \"J\" \\ /")
        try source.store.setChildPicture(id: mina.id, to: .photo(localAssetId: UUID().uuidString.lowercased(), backupAssetName: photo), at: source.now)
        try source.store.setChildPicture(id: joon.id, to: .builtin(name: "bicycle"), at: source.now)
        return (source, photo)
    }

    private func dataJSON(_ archive: URL) throws -> String {
        try run(["unzip", "-p", archive.path, "data.json"]).output
    }

    @Test func aChildsPictureAndItsPhotoMakeTheRoundTrip() throws {
        let (source, photo) = try picturedSource()
        let archive = source.url("pictures.zip")
        let report = try BackupCreator(appVersion: "0.9.0", timeZone: source.zone)
            .create(store: source.store, assetsDirectory: source.assets, destination: archive, at: source.now)
        #expect(report.counts.assets == 3)   // two routine photos and Mina's picture
        let json = try dataJSON(archive)
        #expect(json.contains("\"picture\":{\"backupAssetName\":\"\(photo)\"") || json.contains("\"backupAssetName\":\"\(photo)\""))
        #expect(json.contains("\"picture\":{\"name\":\"bicycle\",\"type\":\"builtin\"}") || json.contains("\"name\":\"bicycle\""))

        let target = try BackupFixture()
        _ = try Restorer(options: RestoreOptions(defaultChildName: "Child"))
            .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { plan in
                #expect(plan.photosReplaced == 0)
                return true
            })
        #expect(try target.store.dataDump() == source.store.dataDump())
        #expect(try target.assetFiles() == source.assetFiles())
        #expect(try target.store.resolveChild("Mina").picture.map { if case .photo(_, let a) = $0 { a } else { "" } } == photo)
        #expect(try target.store.resolveChild("준호 \"J\" \\ /").picture == .builtin(name: "bicycle"))
    }

    @Test func aBackupWithoutPicturesRestoresAsBeforeWithTheDefaults() throws {
        let source = try BackupFixture()
        try source.populate()
        let archive = source.url("plain.zip")
        _ = try BackupCreator(appVersion: "0.9.0", timeZone: source.zone)
            .create(store: source.store, assetsDirectory: source.assets, destination: archive, at: source.now)
        // As a backup made before children had pictures: no `picture` key at all.
        #expect(!(try dataJSON(archive)).contains("\"picture\""))
        let (target, _) = try picturedSource()
        _ = try Restorer(options: RestoreOptions(defaultChildName: "Child"))
            .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { _ in true })
        #expect(try target.store.children(includeArchived: true).allSatisfy { $0.picture == nil })
        #expect(try target.store.dataDump() == source.store.dataDump())
        #expect(try target.assetFiles() == source.assetFiles())
    }

    @Test func aPicturesPhotoMissingFromTheArchiveIsDrawnAsTheDefaultAndABadOneIsRefused() throws {
        let (source, photo) = try picturedSource()
        let archive = source.url("pictures.zip")
        _ = try BackupCreator(appVersion: "0.9.0", timeZone: source.zone)
            .create(store: source.store, assetsDirectory: source.assets, destination: archive, at: source.now)
        let data = Array(try dataJSON(archive).utf8)
        let routinePhotos = try source.assetFiles().keys.filter { $0 != photo }.sorted()
        var entries = [TestEntry(name: "manifest.json", bytes: try manifest(for: data)), TestEntry(name: "data.json", bytes: data),
                       TestEntry(name: "assets/", bytes: [])]
        for name in routinePhotos { entries.append(TestEntry(name: "assets/\(name)", bytes: Array(try source.assetFiles()[name] ?? Data()))) }
        let missing = source.url("missing.zip")
        try makeZip(at: missing, entries)
        let target = try BackupFixture()
        _ = try Restorer(options: RestoreOptions(defaultChildName: "Child"))
            .restore(archive: missing, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { plan in
                #expect(plan.photosReplaced == 1)
                return true
            })
        #expect(try target.store.resolveChild("Mina").picture == nil)
        #expect(try target.store.resolveChild("준호 \"J\" \\ /").picture == .builtin(name: "bicycle"))

        // A picture naming something the contract does not allow is refused whole, nothing changed.
        let bad = Array(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"bicycle\"", with: "\"unicorn\"").utf8)
        let refused = source.url("bad.zip")
        try makeZip(at: refused, [TestEntry(name: "manifest.json", bytes: try manifest(for: bad)), TestEntry(name: "data.json", bytes: bad)])
        let before = try target.store.dump()
        #expect(throws: BackupError.self) {
            _ = try Restorer(options: RestoreOptions(defaultChildName: "Child"))
                .restore(archive: refused, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { _ in true })
        }
        #expect(try target.store.dump() == before)
    }
}
