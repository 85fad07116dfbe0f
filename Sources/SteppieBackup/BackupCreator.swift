import Foundation
import SteppieCore
import SteppieStore

/// Writes a backup archive of the whole store and its photos.
public struct BackupCreator: Sendable {
    public let appVersion: String
    public let timeZone: TimeZone
    public let limits: BackupLimits

    public init(appVersion: String, timeZone: TimeZone, limits: BackupLimits = BackupLimits()) {
        self.appVersion = appVersion; self.timeZone = timeZone; self.limits = limits
    }

    /// `steppie-backup-YYYYMMDD-HHmmss.zip` in local time.
    public static func defaultFileName(at date: Date, in timeZone: TimeZone) -> String {
        let stamp = StampFormatter(timeZone: timeZone).format(date)   // 2026-03-08T07:30:00.000+09:00
        let digits = Array(stamp.prefix(19)).filter(\.isNumber)
        return "steppie-backup-\(String(digits.prefix(8)))-\(String(digits.dropFirst(8).prefix(6))).zip"
    }

    /// Where the photos of the database at `databasePath` live: `<db dir>/assets`.
    public static func assetsDirectory(forDatabase databasePath: String) -> URL {
        URL(fileURLWithPath: databasePath).deletingLastPathComponent().appendingPathComponent("assets", isDirectory: true)
    }

    /// Writes the backup to `destination` (a file, or a directory that gets the default name).
    /// The archive is built in a temporary file beside the destination and renamed into place;
    /// on any failure no file is left behind.
    public func create(store: Store, assetsDirectory: URL, destination: URL, at now: Date,
                       progress: ProgressHandler? = nil) throws -> BackupCreateReport {
        var isDirectory: ObjCBool = false
        let target = FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory) && isDirectory.boolValue
            ? destination.appendingPathComponent(Self.defaultFileName(at: now, in: timeZone)) : destination
        let folder = target.deletingLastPathComponent()
        let token = UUID().uuidString.lowercased()
        let tempZip = folder.appendingPathComponent(".steppie-backup-\(token).zip.tmp")
        let tempData = folder.appendingPathComponent(".steppie-backup-\(token).data.json")
        defer { try? FileManager.default.removeItem(at: tempData) }
        do {
            return try write(store: store, assetsDirectory: assetsDirectory, target: target, tempZip: tempZip,
                             tempData: tempData, now: now, progress: progress)
        } catch {
            try? FileManager.default.removeItem(at: tempZip)
            if let e = error as? BackupError { throw e }
            if let e = error as? StoreError { throw BackupError.store(e) }
            throw BackupError.fileSystem(path: target.path, reason: "\(error)")
        }
    }

    private func write(store: Store, assetsDirectory: URL, target: URL, tempZip: URL, tempData: URL, now: Date,
                       progress: ProgressHandler?) throws -> BackupCreateReport {
        let snapshot = try store.snapshot()
        // Only well-named photos travel; anything else in the folder is not part of the data.
        let photos = try FileSystem.files(in: assetsDirectory).filter { (try? Validator.photoAssetName($0.name)) != nil }
        for p in photos where p.size > limits.maxAssetBytes {
            throw BackupError.entryTooLarge(name: "assets/\(p.name)", size: p.size, limit: limits.maxAssetBytes)
        }
        let total = photos.count + 3
        var done = 0
        func step(_ item: String) { done += 1; progress?(BackupProgress(phase: "writing", done: done, total: total, item: item)) }

        let out = try JSONOutput(path: tempData.path)
        try DataFileWriter(timeZone: timeZone).write(snapshot, exportedAt: now, to: out)
        let checksum = try out.finish()
        let createdAt = StampFormatter(timeZone: timeZone).format(now)
        let manifest = BackupManifest(app: "Steppie", backupSchemaVersion: BackupManifest.currentSchemaVersion, createdAt: createdAt,
                                      sourcePlatform: .linux, appVersion: appVersion, dataFile: "data.json", assetDirectory: "assets",
                                      checksum: .init(algorithm: "sha256", dataJson: checksum))
        let zip = try ZipWriter(path: tempZip.path)
        try zip.add(name: "manifest.json", bytes: try manifest.encoded(), compress: true)
        step("manifest.json")
        try zip.add(name: "data.json", file: tempData.path, compress: true)
        step("data.json")
        try zip.addDirectory("assets/")
        step("assets/")
        for p in photos {
            // JPEG and PNG are compressed already: store them.
            try zip.add(name: "assets/\(p.name)", file: assetsDirectory.appendingPathComponent(p.name).path, compress: false)
            step("assets/\(p.name)")
        }
        try zip.close()
        try FileSystem.rename(tempZip, to: target)
        let size = (try? FileManager.default.attributesOfItem(atPath: target.path)[.size] as? NSNumber)??.uint64Value ?? 0
        return BackupCreateReport(path: target.path, bytes: size, checksum: checksum, createdAt: createdAt,
                                  counts: BackupCounts(children: snapshot.children.count, routineSets: snapshot.routineSets.count,
                                                       routines: snapshot.routines.count, dailyLogs: snapshot.dailyLogs.count,
                                                       assets: photos.count))
    }
}
