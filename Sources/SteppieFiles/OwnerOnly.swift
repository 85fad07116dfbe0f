#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Files and folders that only their owner can read: the database (PIN hashes), backups,
/// recordings and staging folders. Modes are set explicitly after creation, so the umask never
/// widens them, and looser existing ones are tightened on open.
public enum OwnerOnly {
    /// Mode of every file Steppie creates: read and write for the owner only.
    public static let fileMode: mode_t = 0o600
    /// Mode of every folder Steppie creates: the owner only.
    public static let directoryMode: mode_t = 0o700

    /// What `path` is (symbolic links followed), or nil when nothing is there.
    public static func kind(of path: String) -> FileKind? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return kind(mode: st.st_mode)
    }

    static func kind(mode: mode_t) -> FileKind {
        switch mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFIFO: return .fifo
        case S_IFCHR: return .characterDevice
        case S_IFBLK: return .blockDevice
        case S_IFSOCK: return .socket
        default: return .other
        }
    }

    /// Refuses `path` when something other than a regular file is there; a missing path is fine.
    /// Every option that names a file to write calls this before writing anything.
    public static func checkOutputTarget(_ path: String) throws(FileRefusal) {
        if let k = kind(of: path), k != .regular { throw .notRegularFile(path: path, kind: k) }
    }

    /// Creates `path` and its missing parents as 0700 folders; existing folders are left as they are.
    /// Returns the folders it created, outermost first.
    @discardableResult
    public static func createDirectories(_ path: String) throws(FileRefusal) -> [String] {
        var missing: [String] = []
        var current = path
        while !current.isEmpty, current != "/", current != "." {
            if let k = kind(of: current) {
                guard k == .directory else { throw .notDirectory(path: current, kind: k) }
                break
            }
            missing.append(current)
            current = parent(of: current)
        }
        for dir in missing.reversed() {
            if mkdir(dir, directoryMode) != 0 {
                let e = errno
                // Another process may have made it between the check and here.
                if e == EEXIST, kind(of: dir) == .directory { continue }
                throw systemError(dir, "mkdir", e)
            }
            guard chmod(dir, directoryMode) == 0 else { throw systemError(dir, "chmod", errno) }
        }
        return missing.reversed()
    }

    /// Opens a regular file for writing, created 0600 when missing; refuses anything that is not a
    /// regular file without touching it. The caller owns (and closes) the descriptor.
    public static func openForWriting(_ path: String, truncate: Bool = true, append: Bool = false,
                                      exclusive: Bool = false) throws(FileRefusal) -> Int32 {
        try checkOutputTarget(path)
        var flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK
        if truncate && !append { flags |= O_TRUNC }
        if append { flags |= O_APPEND }
        if exclusive { flags |= O_EXCL }
        let fd = open(path, flags, fileMode)
        guard fd >= 0 else { throw systemError(path, "open", errno) }
        // O_NONBLOCK only kept a FIFO swapped in after the check from hanging the open.
        var st = stat()
        guard fstat(fd, &st) == 0, kind(mode: st.st_mode) == .regular else {
            let k = kind(mode: st.st_mode)
            close(fd)
            throw .notRegularFile(path: path, kind: k)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        if st.st_mode & 0o077 != 0, fchmod(fd, fileMode) != 0 {
            let e = errno
            close(fd)
            throw systemError(path, "chmod", e)
        }
        return fd
    }

    /// Creates an empty 0600 regular file at `path` unless something is already there.
    /// Returns true when it created one.
    @discardableResult
    public static func createFileIfMissing(_ path: String) throws(FileRefusal) -> Bool {
        if kind(of: path) != nil { return false }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        if fd < 0 {
            let e = errno
            if e == EEXIST { return false }
            throw systemError(path, "open", e)
        }
        defer { close(fd) }
        guard fchmod(fd, fileMode) == 0 else { throw systemError(path, "chmod", errno) }
        return true
    }

    /// Removes group and other permissions from an existing file or folder. Returns the old
    /// permission bits when it changed them (so the caller can say so), nil when they were fine
    /// or nothing is there.
    @discardableResult
    public static func tighten(_ path: String) throws(FileRefusal) -> mode_t? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        let permissions = st.st_mode & 0o7777
        guard permissions & 0o077 != 0 else { return nil }
        guard chmod(path, permissions & 0o700) == 0 else { throw systemError(path, "chmod", errno) }
        return permissions
    }

    /// The permission bits of `path` (symbolic links followed), or nil when nothing is there.
    public static func permissions(of path: String) -> mode_t? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return st.st_mode & 0o7777
    }

    /// The folder that holds `path` ("." for a bare name).
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    static func systemError(_ path: String, _ operation: String, _ e: Int32) -> FileRefusal {
        .system(path: path, operation: operation, errno: e, reason: String(cString: strerror(e)))
    }
}

/// Which file a path names right now (device and inode): a path whose identity changed was
/// replaced, and one with none was deleted.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    /// The identity of what `path` names now, or nil when nothing is there.
    public init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }

    /// The identity of the open descriptor `fd`, or nil when it cannot be asked.
    public init?(descriptor fd: Int32) {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }

    /// True when what `fd` has open is no longer what `path` names: the node was deleted (a device
    /// unplugged), or `path` now names another file, or nothing.
    public static func isGone(_ fd: Int32, path: String) -> Bool {
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_nlink > 0 else { return true }
        guard let now = FileIdentity(path: path) else { return true }
        return now.device != UInt64(st.st_dev) || now.inode != UInt64(st.st_ino)
    }
}

extension OwnerOnly {
    /// The first `count` bytes of a regular file (fewer when it is shorter); nil when unreadable.
    public static func head(of path: String, count: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress.map { $0 + filled }, count - filled) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { break }
            filled += n
        }
        return Array(buffer.prefix(filled))
    }
}
