import Foundation
import SteppieCore
@testable import SteppieBackup
import Testing

/// A backup's photo is held to the same size in pixels as one from the guardian pages (issue 24,
/// class 10): a few bytes claiming 30 000 × 30 000 are refused, on verify and on restore, with
/// nothing changed; ordinary photos travel as before.
@Suite struct PhotoDimensionTests {
    /// The good archive of `source` with its first photo's bytes replaced by `photo`.
    static func archive(_ source: BackupFixture, photo: [UInt8]) throws -> URL {
        let (good, _) = try CorruptArchiveTests.goodParts(source)
        let zip = try ZipReader(path: good.path)
        var entries: [TestEntry] = []
        var replaced = false
        for e in try zip.entries() {
            var bytes = e.name.hasSuffix("/") ? [] : try zip.readAll(e, limit: 1 << 30)
            if !replaced, e.name.hasPrefix("assets/routine-photo-") { bytes = photo; replaced = true }
            entries.append(TestEntry(name: e.name, bytes: bytes))
        }
        #expect(replaced)
        let out = source.url("photo-\(UUID().uuidString.prefix(6)).zip")
        try makeZip(at: out, entries)
        return out
    }

    static let huge: [(String, [UInt8])] = [
        ("png 30000x30000", png(width: 30_000, height: 30_000)),
        ("png 8193x2", png(width: 8193, height: 2)),
        ("png 8000x8000", png(width: 8000, height: 8000)),
        ("jpeg 65535x65535", jpeg(width: 65_535, height: 65_535)),
        ("jpeg 2x9000", jpeg(width: 2, height: 9000)),
    ]

    @Test func hugeDimensionsAreRefusedWithNothingChanged() throws {
        for (name, photo) in Self.huge {
            let source = try BackupFixture()
            let archive = try Self.archive(source, photo: photo)
            let target = try BackupFixture()
            try target.populate()
            let before = (try target.store.dump(), try target.assetFiles(), try target.databaseFolder())
            #expect(throws: BackupError.self, "\(name): verify") { try BackupVerifier().verify(archive: archive, at: target.now) }
            var confirmed = false
            do {
                _ = try Restorer(options: RestoreOptions(defaultChildName: "Child"))
                    .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now,
                             confirm: { _ in confirmed = true; return true })
                Issue.record("\(name) was restored")
            } catch let e as BackupError {
                guard case .imageTooLarge(let entry, let width, let height) = e else { Issue.record("\(name): \(e)"); continue }
                #expect(entry.hasPrefix("assets/routine-photo-"), "\(name): \(entry)")
                #expect(!PhotoContent.png(width: width, height: height).fitsLimits, "\(name): \(width) × \(height)")
            }
            #expect(!confirmed, "\(name): refused before the confirmation")
            #expect(try target.store.dump() == before.0, "\(name)")
            #expect(try target.assetFiles() == before.1, "\(name)")
            #expect(try target.databaseFolder() == before.2, "\(name)")
        }
    }

    @Test func theLimitsAreASideAndAPixelCount() {
        #expect(PhotoContent.recognise(png(width: 30_000, height: 30_000))?.fitsLimits == false)
        #expect(PhotoContent.recognise(jpeg(width: 8192, height: 4882))?.fitsLimits == true)    // 39.99 MP
        #expect(PhotoContent.recognise(jpeg(width: 8192, height: 4883))?.fitsLimits == false)   // 40.0002 MP
        #expect(PhotoContent.recognise(png(width: 8193, height: 1))?.fitsLimits == false)
        #expect(PhotoContent.recognise(png(width: 1, height: 8192))?.fitsLimits == true)
        #expect(PhotoContent.recognise(jpeg(width: 4032, height: 3024))?.fitsLimits == true)
        #expect(BackupLimits().maxAssetBytes == UInt64(PhotoContent.maxBytes))
    }

    /// A photo over the limits on the device (taken before the limits existed) stays out of a new
    /// backup, which would otherwise be one that no restore accepts.
    @Test func aPhotoOverTheLimitsStaysOutOfANewBackup() throws {
        let source = try BackupFixture()
        try source.populate()
        let names = try source.assetFiles().keys.sorted()
        let huge = try #require(names.first)
        try Data(png(width: 30_000, height: 30_000)).write(to: source.assets.appendingPathComponent(huge))
        let archive = source.url("b.zip")
        let report = try BackupCreator(appVersion: "1", timeZone: source.zone).create(store: source.store, assetsDirectory: source.assets,
                                                                                      destination: archive, at: source.now)
        #expect(report.counts.assets == names.count - 1)
        let target = try BackupFixture()
        _ = try Restorer(options: RestoreOptions(defaultChildName: "Child"))
            .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { _ in true })
        #expect(try target.assetFiles().keys.sorted() == Array(names.dropFirst()))
    }

    @Test func ordinaryDimensionsTravel() throws {
        for (name, photo) in [("png 4032x3024", png(width: 4032, height: 3024)), ("jpeg 8192x4096", jpeg(width: 8192, height: 4096)),
                              ("jpeg 6000x6000", jpeg(width: 6000, height: 6000))] {
            let source = try BackupFixture()
            let archive = try Self.archive(source, photo: photo)
            let target = try BackupFixture()
            _ = try Restorer(options: RestoreOptions(defaultChildName: "Child"))
                .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { _ in true })
            #expect(try target.assetFiles().values.contains(Data(photo)), "\(name)")
        }
    }
}
