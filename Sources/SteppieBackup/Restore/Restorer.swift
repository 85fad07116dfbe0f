import Foundation
import SteppieCore
import SteppieFiles
import SteppieStore

/// Replaces the store's rows, the device settings and the photo folder with a backup's, as one
/// unit: validate everything first (no changes) → confirm → database rows and settings in one
/// transaction, during which the photo folders are swapped by rename → commit last. Any failure
/// rolls the transaction back and renames the old photo folder back: everything is as before.
public struct Restorer: Sendable {
    public let options: RestoreOptions

    public init(options: RestoreOptions) { self.options = options }

    /// Restores `archive` into `store` and `assetsDirectory`. `confirm` sees the validated plan
    /// (the CLI asks for the guardian PIN there); returning false cancels with nothing changed.
    /// Before the confirmation the archive is only read (photos are checked, not written); the
    /// photos are extracted into the owner-only staging folder only after it.
    public func restore(archive: URL, into store: Store, assetsDirectory: URL, at now: Date,
                        confirm: (RestorePlan) throws -> Bool, progress: ProgressHandler? = nil) throws -> RestoreReport {
        let assets = assetsDirectory.standardizedFileURL
        let parent = assets.deletingLastPathComponent()
        StagingArea.removeStale(in: parent)

        let loaded = try ArchiveLoader(limits: options.limits, defaultChildName: options.defaultChildName, now: now)
            .load(path: archive.path, progress: progress)
        // Holds the new photos until the swap, the old ones after it; gone in every outcome.
        let staging = try StagingArea.create(in: parent)
        defer { staging.remove() }
        let plan = BackupVerifier.plan(loaded, path: archive.path, replacing: try currentCounts(store, assets: assets))
        guard try confirm(plan) else { throw BackupError.cancelled }

        try extractPhotos(loaded, into: staging.newAssets)
        try replace(loaded.contents.snapshot, store: store, assets: assets, newAssets: staging.newAssets,
                    oldAssets: staging.oldAssets, progress: progress)
        return RestoreReport(plan: plan, needsNewPin: loaded.contents.needsNewPin)
    }

    /// The second pass over the archive: every photo is read and recognised again (the file is
    /// the one checked, still open) and written 0600 into the 0700 folder `directory`.
    private func extractPhotos(_ loaded: LoadedBackup, into directory: URL) throws {
        try StagingArea.files(directory.path) { _ = try OwnerOnly.createDirectories(directory.path) }
        for (name, entry) in loaded.assetEntries {
            let bytes = try ArchiveLoader.photo(loaded.zip, entry, limit: options.limits.maxAssetBytes, budget: nil)
            let path = directory.appendingPathComponent(name).path
            try StagingArea.files(path) {
                let fd = try OwnerOnly.openForWriting(path, exclusive: true)
                defer { close(fd) }
                try bytes.withUnsafeBytes { try Descriptor.writeAll(fd, $0, path: path) }
            }
        }
    }

    private func replace(_ snapshot: Snapshot, store: Store, assets: URL, newAssets: URL, oldAssets: URL,
                         progress: ProgressHandler?) throws {
        var step = RestoreStep.database
        var movedOld = false, movedNew = false
        func ran(_ done: RestoreStep) throws {
            progress?(BackupProgress(phase: "restoring", done: RestoreStep.allCases.firstIndex(of: done).map { $0 + 1 } ?? 0,
                                     total: RestoreStep.allCases.count, item: done.rawValue))
            if options.failAt == done { throw InjectedFailure(step: done) }
        }
        do {
            // The transaction commits last: until then every step can be undone.
            try store.db.transaction {
                try store.replaceAll(with: snapshot)
                try ran(.database)
                step = .settings
                try store.replaceDeviceSettings(snapshot.deviceSettings)
                try ran(.settings)
                step = .assets
                if FileSystem.exists(assets) {
                    try FileSystem.rename(assets, to: oldAssets)
                    movedOld = true
                }
                try FileSystem.rename(newAssets, to: assets)
                movedNew = true
                try ran(.assets)
            }
        } catch {
            // The database rolled back with the transaction; put the photo folder back too.
            do {
                if movedNew { try FileSystem.rename(assets, to: newAssets) }
                if movedOld { try FileSystem.rename(oldAssets, to: assets) }
            } catch let undo {
                throw BackupError.rollbackFailed(step: step, reason: Self.describe(error), rollback: Self.describe(undo))
            }
            throw BackupError.restoreFailed(step: step, reason: Self.describe(error))
        }
    }

    private func currentCounts(_ store: Store, assets: URL) throws -> BackupCounts {
        do {
            let counts = try store.db.queryFirst("""
                SELECT (SELECT count(*) FROM children), (SELECT count(*) FROM routine_sets),
                       (SELECT count(*) FROM routines), (SELECT count(*) FROM daily_logs)
                """) { BackupCounts(children: $0.int(0), routineSets: $0.int(1), routines: $0.int(2), dailyLogs: $0.int(3), assets: 0) }
            var result = counts ?? BackupCounts(children: 0, routineSets: 0, routines: 0, dailyLogs: 0, assets: 0)
            result.assets = try FileSystem.files(in: assets).count
            return result
        } catch let e as SQLiteError {
            throw BackupError.store(.sqlite(e))
        }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case let e as InjectedFailure: return "injected failure after \(e.step.rawValue)"
        case let e as StoreError: return "\(e)"
        case let e as SQLiteError: return e.description
        case let e as BackupError: return "\(e)"
        default: return "\(error)"
        }
    }
}

/// The failure `RestoreOptions.failAt` injects.
struct InjectedFailure: Error {
    let step: RestoreStep
}
