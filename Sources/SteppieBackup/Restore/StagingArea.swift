import Foundation
import SteppieFiles

/// The folder a restore stages photos in, `.steppie-restore-<id>` beside the photo folder:
/// owner-only (0700), holding an exclusive `flock` on its `lock` file for the restore's whole
/// life. A restore that was killed leaves its folder behind with the lock released; the next
/// restore removes every such folder whose lock it can take (`removeStale(in:)`).
final class StagingArea {
    static let prefix = ".steppie-restore-"
    static let lockName = "lock"

    let url: URL
    private var lock: Int32

    /// Where the backup's photos are extracted after the confirmation.
    var newAssets: URL { url.appendingPathComponent("assets", isDirectory: true) }
    /// Where the current photo folder goes during the swap.
    var oldAssets: URL { url.appendingPathComponent("old-assets", isDirectory: true) }
    /// Where a Linux backup's recordings are extracted after the confirmation.
    var newRecordings: URL { url.appendingPathComponent("recordings", isDirectory: true) }
    /// Where the current recordings folder goes during the swap.
    var oldRecordings: URL { url.appendingPathComponent("old-recordings", isDirectory: true) }

    private init(url: URL, lock: Int32) { self.url = url; self.lock = lock }

    deinit { if lock >= 0 { close(lock) } }

    /// Creates a new staging folder in `parent` and takes its lock.
    static func create(in parent: URL) throws -> StagingArea {
        // A cleanup in another process may remove a folder between its mkdir and its lock: try again.
        for _ in 0..<3 {
            let url = parent.appendingPathComponent(prefix + UUID().uuidString.lowercased(), isDirectory: true)
            try files(url.path) { _ = try OwnerOnly.createDirectories(url.path) }
            let lockPath = url.appendingPathComponent(lockName).path
            let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, OwnerOnly.fileMode)
            guard fd >= 0 else { throw BackupError.fileSystem(path: lockPath, reason: String(cString: strerror(errno))) }
            while flock(fd, LOCK_EX) != 0 {
                let e = errno
                if e == EINTR { continue }
                close(fd)
                throw BackupError.fileSystem(path: lockPath, reason: "flock: \(String(cString: strerror(e)))")
            }
            var held = stat(), named = stat()
            if fstat(fd, &held) == 0, stat(lockPath, &named) == 0, held.st_dev == named.st_dev, held.st_ino == named.st_ino {
                return StagingArea(url: url, lock: fd)
            }
            close(fd)
        }
        throw BackupError.fileSystem(path: parent.path, reason: "the staging folder was removed while it was being created")
    }

    /// Removes the folder with everything in it, then releases the lock.
    func remove() {
        try? FileManager.default.removeItem(at: url)
        if lock >= 0 { close(lock) }
        lock = -1
    }

    static let swapName = "swap"

    /// Marks the photo swap as begun (before the transaction that does it), saying whether a
    /// photo folder existed: a killed restore's swap is undone from it (`Restorer.recover`).
    /// `hadRecordings` is nil when the recordings folder is not swapped (a backup without them).
    func beginSwap(hadAssets: Bool, hadRecordings: Bool? = nil) throws {
        let path = url.appendingPathComponent(Self.swapName).path
        try Self.files(path) {
            let fd = try OwnerOnly.openForWriting(path)
            defer { close(fd) }
            var byte: [UInt8] = [hadAssets ? 0x31 : 0x30]
            if let hadRecordings { byte.append(hadRecordings ? 0x31 : 0x30) }
            try byte.withUnsafeBytes { try Descriptor.writeAll(fd, $0, path: path) }
            guard fsync(fd) == 0 else { throw FileRefusal.system(path: path, operation: "fsync", errno: errno, reason: String(cString: strerror(errno))) }
        }
        try FileSystem.sync(url)
    }

    /// The swap is over (committed, or put back): the folder is plain leftovers from now on.
    func endSwap() {
        unlink(url.appendingPathComponent(Self.swapName).path)
        try? FileSystem.sync(url)
    }

    /// Whether `staging` began a swap and, if it did, whether a photo folder existed then.
    static func swapMarker(in staging: URL) -> Bool? { swapMarkers(in: staging)?.assets }

    /// The swap marker whole: whether a photo folder existed, and — when the recordings folder was
    /// swapped too — whether one existed (nil: it was not swapped; a marker of one byte).
    static func swapMarkers(in staging: URL) -> (assets: Bool, recordings: Bool?)? {
        guard let bytes = OwnerOnly.head(of: staging.appendingPathComponent(swapName).path, count: 2), let first = bytes.first else {
            return nil
        }
        return (first == 0x31, bytes.count > 1 ? bytes[1] == 0x31 : nil)
    }

    /// Removes every `.steppie-restore-*` folder in `parent` whose lock can be taken: its restore
    /// was killed. A folder whose lock is held belongs to a restore running now and stays.
    /// `settle` runs first on each such folder (with its lock held) and may keep it by returning
    /// false. Best effort: a folder that cannot be removed is left for the next time.
    static func removeStale(in parent: URL, settle: (URL) -> Bool = { _ in true }) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let path = parent.appendingPathComponent(name).path
            var st = stat()
            guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else { continue }
            let fd = open(path + "/" + lockName, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, OwnerOnly.fileMode)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
            guard settle(URL(fileURLWithPath: path, isDirectory: true)) else { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Runs a SteppieFiles operation, turning its refusal into a backup error.
    @discardableResult
    static func files<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as FileRefusal {
            switch error {
            case .notRegularFile(let p, let kind), .notDirectory(let p, let kind): throw BackupError.notRegularFile(path: p, kind: kind)
            case .missing(let p): throw BackupError.fileSystem(path: p, reason: String(cString: strerror(ENOENT)))
            case .system(let p, let operation, _, let reason): throw BackupError.fileSystem(path: p, reason: "\(operation): \(reason)")
            }
        }
    }
}
