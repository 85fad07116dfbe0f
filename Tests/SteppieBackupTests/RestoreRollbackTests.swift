import Foundation
import Testing
import SteppieCore
@testable import SteppieBackup
@testable import SteppieStore

@Suite struct RestoreRollbackTests {
    /// A target with its own data and photos, and an archive of a different store.
    static func setUp() throws -> (source: BackupFixture, target: BackupFixture, archive: URL) {
        let source = try BackupFixture()
        try source.populate()
        try source.store.addChild(name: "Third", at: source.now)
        try Data(png(payload: [1, 2, 3])).write(to: source.assets.appendingPathComponent("routine-photo-extra.png"))
        let archive = source.url("b.zip")
        _ = try BackupCreator(appVersion: "1", timeZone: source.zone).create(store: source.store, assetsDirectory: source.assets,
                                                                             destination: archive, at: source.now)
        let target = try BackupFixture()
        try target.populate()
        return (source, target, archive)
    }

    @Test(arguments: RestoreStep.allCases)
    func aFailureAtAnyStepPutsEverythingBack(_ step: RestoreStep) throws {
        let (source, target, archive) = try Self.setUp()
        defer { withExtendedLifetime(source) {} }
        let before = (try target.store.dump(), try target.assetFiles(), try target.databaseFolder())
        #expect(before.0 != (try source.store.dump()))
        var steps: [String] = []
        #expect(throws: BackupError.restoreFailed(step: step, reason: "injected failure after \(step.rawValue)")) {
            try Restorer(options: RestoreOptions(defaultChildName: "Child", failAt: step))
                .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now,
                         confirm: { _ in true }, progress: { if $0.phase == "restoring" { steps.append($0.item ?? "") } })
        }
        #expect(steps == RestoreStep.allCases.prefix { $0 != step }.map(\.rawValue) + [step.rawValue])
        #expect(try target.store.dump() == before.0)
        #expect(try target.assetFiles() == before.1)
        #expect(try target.databaseFolder() == before.2)
        #expect(try target.store.integrityProblems().isEmpty)

        // The same restore without the injected failure goes through.
        _ = try Restorer(options: RestoreOptions(defaultChildName: "Child"))
            .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { _ in true })
        #expect(try target.store.dataDump() == source.store.dataDump())
        #expect(try target.assetFiles() == source.assetFiles())
    }

    @Test func aFailureWhenThereWasNoPhotoFolderLeavesNone() throws {
        let (source, target, archive) = try Self.setUp()
        defer { withExtendedLifetime(source) {} }
        try FileManager.default.removeItem(at: target.assets)
        let before = try target.store.dump()
        #expect(throws: BackupError.restoreFailed(step: .assets, reason: "injected failure after assets")) {
            try Restorer(options: RestoreOptions(defaultChildName: "Child", failAt: .assets))
                .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { _ in true })
        }
        #expect(!FileManager.default.fileExists(atPath: target.assets.path))
        #expect(try target.store.dump() == before)
    }

    @Test func declinedConfirmationChangesNothing() throws {
        let (source, target, archive) = try Self.setUp()
        defer { withExtendedLifetime(source) {} }
        let before = (try target.store.dump(), try target.assetFiles(), try target.databaseFolder())
        var seen: RestorePlan?
        #expect(throws: BackupError.cancelled) {
            try Restorer(options: RestoreOptions(defaultChildName: "Child"))
                .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now,
                         confirm: { seen = $0; return false })
        }
        #expect(seen?.counts.children == 3)
        #expect(seen?.replacing?.children == 2)
        #expect(seen?.replacing?.assets == 2)
        #expect(try target.store.dump() == before.0)
        #expect(try target.assetFiles() == before.1)
        #expect(try target.databaseFolder() == before.2)
    }

    @Test func aStoreRefusalRollsBackToo() throws {
        // A row the contract refuses makes replaceAll throw and roll back on its own.
        let (source, target, archive) = try Self.setUp()
        defer { withExtendedLifetime(source) {} }
        let before = try target.store.dump()
        let loaded = try ArchiveLoader(limits: BackupLimits(), defaultChildName: "C", now: target.now)
            .load(path: archive.path, progress: nil)
        var snapshot = loaded.contents.snapshot
        snapshot.routines[0].order = -1
        #expect(throws: StoreError.self) { try target.store.replaceAll(with: snapshot) }
        #expect(try target.store.dump() == before)
    }
}
