import Foundation
import SteppieCore
import SteppieFiles
import SteppieSecurity
import SteppieStore

/// Writes one child's routines, history, feedback settings and photos as the backup archive the
/// iOS or Android app writes and reads (docs/backup.md, "Back to the phone"): only what that app
/// accepts, Linux-only things mapped to the nearest thing it has or left out, never a PIN hash.
public struct PhoneExporter: Sendable {
    /// The phone app an archive is written for.
    public enum Platform: String, Sendable, Codable, CaseIterable {
        case ios, android

        /// `backupSchemaVersion` and data.json's `schemaVersion`: iOS reads exactly 1; Android reads
        /// 1–2 and writes 2 (routine sets with `startTime`), so its own version is written.
        public var schemaVersion: Int { self == .ios ? 1 : 2 }
    }

    public let appVersion: String
    public let timeZone: TimeZone
    public let limits: BackupLimits

    public init(appVersion: String, timeZone: TimeZone, limits: BackupLimits = BackupLimits()) {
        self.appVersion = appVersion; self.timeZone = timeZone; self.limits = limits
    }

    /// Writes the archive of child `childId` for `platform` to `destination` (a file, or a folder
    /// that gets `steppie-backup-YYYYMMDD-HHmmss.zip`). Built owner-only in a temporary file
    /// beside the destination and renamed into place; on any failure nothing is left behind.
    public func export(store: Store, childId: UUID, for platform: Platform, assetsDirectory: URL,
                       destination: URL, at now: Date) throws -> PhoneExportReport {
        let target = OwnerOnly.kind(of: destination.path) == .directory
            ? destination.appendingPathComponent(BackupCreator.defaultFileName(at: now, in: timeZone)) : destination
        try StagingArea.files(target.path) { try OwnerOnly.checkOutputTarget(target.path) }
        let tempZip = target.deletingLastPathComponent().appendingPathComponent(".steppie-phone-\(UUID().uuidString.lowercased()).zip.tmp")
        do {
            return try write(store: store, childId: childId, platform: platform, assetsDirectory: assetsDirectory,
                             target: target, tempZip: tempZip, now: now)
        } catch {
            try? FileManager.default.removeItem(at: tempZip)
            if let e = error as? BackupError { throw e }
            if let e = error as? StoreError { throw BackupError.store(e) }
            throw BackupError.fileSystem(path: target.path, reason: "\(error)")
        }
    }

    private func write(store: Store, childId: UUID, platform: Platform, assetsDirectory: URL,
                       target: URL, tempZip: URL, now: Date) throws -> PhoneExportReport {
        let child = try store.child(id: childId)
        // One read transaction: the child's sets, every routine of them (deleted ones too, for the
        // history that points at them) and their logs; the other children's rows are not kept.
        let (rows, deviceLocale, scheduleSlots) = try store.export { snapshot, logs in
            let sets = snapshot.routineSets.filter { $0.childId == childId }
            let setIds = Set(sets.map(\.id))
            let routines = snapshot.routines.filter { setIds.contains($0.routineSetId) }
            var own: [DailyLog] = []
            try logs { if setIds.contains($0.routineSetId) { own.append($0) } }
            return (PhoneMapping.Rows(sets: sets, routines: routines, logs: own), snapshot.deviceSettings?.locale,
                    snapshot.schedules?.filter { $0.childId == childId }.count ?? 0)
        }
        let routineIds = Set(rows.routines.map(\.id))
        let recordings = try store.recordings().filter { routineIds.contains($0.routineId) }.count

        let photos = try PhotoPick(assetsDirectory: assetsDirectory, limit: limits.maxAssetBytes).pick(rows.routines)
        let mapping = PhoneMapping(platform: platform, timeZone: timeZone)
        let document = mapping.document(rows, child: child, deviceLocale: deviceLocale, photos: photos.exported, at: now)
        let ios = platform == .ios
        let data = try PhoneDocument.encoded(document, ios: ios)
        let checksum = SHA256.hex(of: Data(data))
        let manifest = PhoneManifest(backupSchemaVersion: platform.schemaVersion, createdAt: mapping.stamp(now),
                                     sourcePlatform: platform.rawValue, appVersion: appVersion,
                                     checksum: .init(algorithm: "sha256", dataJson: checksum))
        let manifestBytes = try PhoneDocument.encoded(manifest, ios: ios)

        // libzip gives its own temporary file the mode of the file it replaces: this empty
        // owner-only one makes every copy 0600.
        try StagingArea.files(tempZip.path) { close(try OwnerOnly.openForWriting(tempZip.path, exclusive: true)) }
        // iOS reads only stored entries (its reader refuses any compression method but 0);
        // Android deflates every entry.
        let zip = try ZipWriter(path: tempZip.path)
        try zip.add(name: "manifest.json", bytes: manifestBytes, compress: !ios)
        try zip.add(name: "data.json", bytes: data, compress: !ios)
        try zip.addDirectory("assets/", stored: ios)
        for (source, name) in photos.files {
            try zip.add(name: "assets/\(name)", file: assetsDirectory.appendingPathComponent(source).path, compress: !ios)
        }
        try zip.close()
        let size = try FileSystem.publish(tempZip, as: target)
        return PhoneExportReport(
            path: target.path, bytes: size, platform: platform, child: child.displayName, checksum: checksum,
            createdAt: manifest.createdAt,
            counts: PhoneExportReport.Counts(routineSets: document.routineSets.count, routines: document.routines.count,
                                             dailyLogs: document.dailyLogs.count, photos: photos.files.count),
            leftOut: PhoneExportReport.LeftOut(iconsMapped: mapping.mappedIcons(rows.routines), photosAsStar: photos.leftOut,
                                               scheduleSlots: scheduleSlots, recordings: recordings,
                                               leadTimesChanged: document.appSettings.notificationLeadTimes != child.profile.notificationLeadTimes))
    }
}

/// The result of `PhoneExporter.export`, ready for `--json`.
public struct PhoneExportReport: Sendable, Equatable, Codable {
    public struct Counts: Sendable, Equatable, Codable {
        public var routineSets: Int
        public var routines: Int
        public var dailyLogs: Int
        public var photos: Int
    }

    /// What the phone cannot hold, counted (docs/backup.md, "What a phone export leaves out").
    public struct LeftOut: Sendable, Equatable, Codable {
        /// Builtin icons the phone does not have, written as its nearest icon.
        public var iconsMapped: Int
        /// Photo icons whose file is missing, too large or not a JPEG/PNG image: written as `star`.
        public var photosAsStar: Int
        /// The child's weekly schedule slots (the phones have none).
        public var scheduleSlots: Int
        /// Recorded titles of the child's routines (the phones have none).
        public var recordings: Int
        /// The reminder lead times were changed to what the phone accepts (iOS: 5 and 10 minutes).
        public var leadTimesChanged: Bool
    }

    public var path: String
    public var bytes: UInt64
    public var platform: PhoneExporter.Platform
    public var child: String
    /// SHA-256 of data.json, as in the manifest.
    public var checksum: String
    public var createdAt: String
    public var counts: Counts
    public var leftOut: LeftOut
}

/// The photos that travel: the file exists, is at most 5 MiB, has a photo name and is a JPEG or
/// PNG image within the size in pixels a restore accepts. iOS reads only `.jpg` and `.png`, so a
/// `.jpeg` file travels as `.jpg`.
private struct PhotoPick {
    let assetsDirectory: URL
    let limit: UInt64

    /// `files`: (file here, name in the archive); `exported`: a routine photo's name → its name
    /// in the archive; `leftOut`: routines whose photo does not travel (they show `star`).
    struct Result { var files: [(String, String)] = []; var exported: [String: String] = [:]; var leftOut = 0 }

    func pick(_ routines: [Routine]) throws -> Result {
        var result = Result()
        var refused = Set<String>()
        for r in routines {
            guard case .photo(_, let name) = r.icon else { continue }
            if result.exported[name] != nil { continue }
            if refused.contains(name) { result.leftOut += 1; continue }
            guard usable(name) else { refused.insert(name); result.leftOut += 1; continue }
            var exported = name
            let lower = name.lowercased()
            if lower.hasSuffix(".jpeg") { exported = String(name.dropLast(5)) + ".jpg" }
            if result.files.contains(where: { $0.1 == exported }) { exported = "routine-photo-\(UUID().uuidString.lowercased()).jpg" }
            result.files.append((name, exported))
            result.exported[name] = exported
        }
        return result
    }

    private func usable(_ name: String) -> Bool {
        guard (try? Validator.photoAssetName(name)) != nil else { return false }
        let url = assetsDirectory.appendingPathComponent(name)
        guard OwnerOnly.kind(of: url.path) == .regular,
              let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.uint64Value,
              size <= limit, let bytes = FileManager.default.contents(atPath: url.path) else { return false }
        return PhotoContent.recognise(Array(bytes))?.fitsLimits == true
    }
}
