import Foundation
import SteppieCore
import SteppieStore

/// Checks a backup archive completely without changing anything.
public struct BackupVerifier: Sendable {
    public let limits: BackupLimits
    /// Decodes the backup's recordings (`SoundFile.decodeRecording`); without one, a backup that
    /// carries recordings is refused.
    public let decodeAudio: AudioDecoder

    public init(limits: BackupLimits = BackupLimits(), decodeAudio: @escaping AudioDecoder = AudioDecodeFailure.unavailable) {
        self.limits = limits; self.decodeAudio = decodeAudio
    }

    /// Every check of a restore (entries, sizes, manifest, checksum, JSON, entities and
    /// references); returns what the backup holds, or throws the first problem found.
    /// `naming` adds the backup's child and set names to the plan.
    /// `holdings` (the device's children now): a Linux backup's plan also says, child by child,
    /// what it replaces and brings (`scope`), as the restore's own confirmation does.
    public func verify(archive: URL, defaultChildName: String = "Child", at now: Date, naming: Bool = false,
                       holdings: [ChildHoldings]? = nil, progress: ProgressHandler? = nil) throws -> RestorePlan {
        let loaded = try ArchiveLoader(limits: limits, defaultChildName: defaultChildName, now: now, decodeAudio: decodeAudio)
            .load(path: archive.path, progress: progress)
        var plan = Self.plan(loaded, path: archive.path, replacing: nil)
        if naming {
            plan.childNames = loaded.contents.snapshot.children.map(\.displayName)
            plan.setNames = loaded.contents.snapshot.routineSets.filter { $0.deletedAt == nil }.map(\.name)
        }
        if let holdings, loaded.manifest.sourcePlatform == .linux {
            plan.scope = Restorer.scope(.device, loaded: loaded, holdings: holdings)
        }
        return plan
    }

    static func plan(_ loaded: LoadedBackup, path: String, replacing: BackupCounts?) -> RestorePlan {
        let s = loaded.contents.snapshot
        return RestorePlan(path: path, sourcePlatform: loaded.manifest.sourcePlatform,
                           backupSchemaVersion: loaded.manifest.backupSchemaVersion, createdAt: loaded.manifest.createdAt,
                           appVersion: loaded.manifest.appVersion, dataBytes: loaded.dataBytes, checksum: loaded.checksum,
                           counts: BackupCounts(children: s.children.count, routineSets: s.routineSets.count, routines: s.routines.count,
                                                dailyLogs: loaded.contents.logs.count, assets: loaded.assets.count,
                                                scheduleSlots: s.schedules?.count),
                           photosReplaced: loaded.contents.photosReplaced, iconsReplaced: loaded.contents.iconsReplaced,
                           needsNewPin: loaded.contents.needsNewPin, replacing: replacing)
    }
}
