import Foundation
import SteppieCore
import SteppieFiles
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
    /// A target that exists but is not a regular file (a FIFO, a device) is refused before any
    /// work, and left untouched. The archive is built owner-only (0600) in a temporary file
    /// beside the destination and renamed into place; on any failure no file is left behind.
    public func create(store: Store, assetsDirectory: URL, destination: URL, at now: Date,
                       progress: ProgressHandler? = nil) throws -> BackupCreateReport {
        let target = OwnerOnly.kind(of: destination.path) == .directory
            ? destination.appendingPathComponent(Self.defaultFileName(at: now, in: timeZone)) : destination
        try StagingArea.files(target.path) { try OwnerOnly.checkOutputTarget(target.path) }
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
        // data.json streams from one read transaction into a temporary file while it is hashed:
        // the logs go from SQLite to the file row by row, never all in memory.
        // Recordings whose file is there, well named, a regular file within the limit (a restore
        // refuses anything else); read before the snapshot, so every one names a routine in it.
        let recordings = try recordingsToWrite(store)
        let (snapshot, logCount, checksum) = try store.export { snapshot, logs in
            let out = try JSONOutput(path: tempData.path)
            let count = try DataFileWriter(timeZone: timeZone).write(snapshot, logs: logs, recordings: recordings.map(\.recording),
                                                                     exportedAt: now, to: out)
            return (snapshot, count, try out.finish())
        }
        // Only well-named photos that are JPEG or PNG images travel (a restore refuses anything
        // else); anything else in the folder is not part of the data.
        let named = try FileSystem.files(in: assetsDirectory).filter { (try? Validator.photoAssetName($0.name)) != nil }
        for p in named where p.size > limits.maxAssetBytes {
            throw BackupError.entryTooLarge(name: "assets/\(p.name)", size: p.size, limit: limits.maxAssetBytes)
        }
        let scratch = PhotoScratch(limit: Int(limits.maxAssetBytes))
        let photos = named.filter { scratch.isImage(assetsDirectory.appendingPathComponent($0.name)) }
        let total = photos.count + (recordings.isEmpty ? 3 : recordings.count + 4)
        var done = 0
        func step(_ item: String) { done += 1; progress?(BackupProgress(phase: "writing", done: done, total: total, item: item)) }

        let createdAt = StampFormatter(timeZone: timeZone).format(now)
        let manifest = BackupManifest(app: "Steppie", backupSchemaVersion: BackupManifest.currentSchemaVersion, createdAt: createdAt,
                                      sourcePlatform: .linux, appVersion: appVersion, dataFile: "data.json", assetDirectory: "assets",
                                      checksum: .init(algorithm: "sha256", dataJson: checksum))
        // libzip writes a temporary file of its own and gives it the mode of the file it replaces:
        // an empty owner-only file here makes every copy 0600.
        try StagingArea.files(tempZip.path) { close(try OwnerOnly.openForWriting(tempZip.path, exclusive: true)) }
        let zip = try ZipWriter(path: tempZip.path)
        try zip.add(name: "manifest.json", bytes: try manifest.encoded(), compress: true)
        step("manifest.json")
        try zip.add(name: "data.json", file: tempData.path, compress: true, level: Self.dataCompressionLevel)
        step("data.json")
        try zip.addDirectory("assets/")
        step("assets/")
        for p in photos {
            // JPEG and PNG are compressed already: store them.
            try zip.add(name: "assets/\(p.name)", file: assetsDirectory.appendingPathComponent(p.name).path, compress: false)
            step("assets/\(p.name)")
        }
        // The folder entry only when there are recordings: a backup without any has the same
        // entries as before recordings travelled (data.json still says `recordings: []`).
        if !recordings.isEmpty {
            try zip.addDirectory("recordings/")
            step("recordings/")
        }
        for r in recordings {
            try zip.add(name: "recordings/\(r.recording.fileName)", file: r.path, compress: true)
            step("recordings/\(r.recording.fileName)")
        }
        try zip.close()
        let size = try FileSystem.publish(tempZip, as: target)
        return BackupCreateReport(path: target.path, bytes: size, checksum: checksum, createdAt: createdAt,
                                  counts: BackupCounts(children: snapshot.children.count, routineSets: snapshot.routineSets.count,
                                                       routines: snapshot.routines.count, dailyLogs: logCount,
                                                       assets: photos.count, scheduleSlots: snapshot.schedules?.count))
    }

    /// The recordings a backup carries, with their files' paths.
    private func recordingsToWrite(_ store: Store) throws -> [(recording: RoutineRecording, path: String)] {
        let all: [RoutineRecording]
        do { all = try store.recordings() } catch let e as SQLiteError { throw BackupError.store(.sqlite(e)) }
        return all.compactMap { r in
            guard let path = store.recordingPath(r) else { return nil }
            var st = stat()
            guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size > 0,
                  Int(st.st_size) <= RecordingCheck.maximumBytes else { return nil }
            return (r, path)
        }
    }

    /// The deflate level of data.json (libzip's own default is 9). Measured on the 10-year
    /// fixture's 336 MiB data.json (docs/backup.md, "Backups at scale"): level 1 deflates in half
    /// the time of 6 and a third of 9, for an entry 10–14 % larger.
    static let dataCompressionLevel: UInt32 = 1
}

/// Reads candidate photos into one reusable buffer to recognise them as a restore would.
private final class PhotoScratch {
    private var bytes: [UInt8]
    private let limit: Int

    init(limit: Int) { self.limit = limit; bytes = [UInt8](repeating: 0, count: limit) }

    /// Whether the file at `url` is a JPEG or PNG image within the size in pixels, judged as a restore judges it. Opened
    /// without blocking and checked to be a regular file, so a FIFO in the folder cannot hang us.
    func isImage(_ url: URL) -> Bool {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return false }
        let limit = self.limit
        var filled = 0
        while filled < limit {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress.map { $0 + filled }, limit - filled) }
            if n < 0 { if errno == EINTR { continue }; return false }
            if n == 0 { break }
            filled += n
        }
        // Over the size in pixels a restore refuses, a photo would make the whole backup unrestorable.
        return bytes.withUnsafeBytes { PhotoContent.recognise(UnsafeRawBufferPointer(rebasing: $0[0..<filled])) }?.fitsLimits == true
    }
}
