#if canImport(Glibc)
import Glibc
#endif
import SteppieFiles

/// Why the control socket's folder is not trusted, as values the command line says.
public enum SocketFolderRefusal: Error, Equatable, Sendable {
    /// The folder is a symbolic link: it could lead anywhere (another user's folder, planted in /tmp).
    case symbolicLink(path: String)
    /// Something other than a folder is there.
    case notDirectory(path: String, kind: FileKind)
    /// The folder belongs to another user, who could replace the socket in it.
    case otherOwner(path: String, uid: UInt32)
    /// A folder every user writes in (sticky, like /tmp itself): not the service's to close.
    case shared(path: String)
    /// Its parents could not be made.
    case file(FileRefusal)
    /// The system refused `operation` on the folder.
    case system(path: String, operation: String, errno: Int32)
}

/// The control socket's folder, made and checked without following a symbolic link: with no
/// `XDG_RUNTIME_DIR` it is `/tmp/steppie-<uid>`, a name any local user can take first (issue 24,
/// class 3). Checked through a descriptor opened with `O_NOFOLLOW`, so what is checked and
/// tightened is the folder itself, never what a link points to.
package enum SocketFolder {
    /// For the service: makes `path` (mode 0700) when missing, then requires a real folder owned
    /// by this user and makes its mode exactly 0700. A link, a file, another user's folder or one
    /// every user shares (sticky) is refused with nothing changed.
    package static func prepare(_ path: String) throws(SocketFolderRefusal) {
        var st = stat()
        if lstat(path, &st) != 0 {
            let e = errno
            guard e == ENOENT else { throw .system(path: path, operation: "lstat", errno: e) }
            // Its parents ($XDG_RUNTIME_DIR, STEPPIE_SOCKET's folders) are made as every Steppie folder.
            do { try OwnerOnly.createDirectories(OwnerOnly.parent(of: path)) } catch { throw .file(error) }
            // mkdir never follows a link: a name taken since (by a link or anything) is EEXIST and checked below.
            if mkdir(path, OwnerOnly.directoryMode) != 0, errno != EEXIST {
                throw .system(path: path, operation: "mkdir", errno: errno)
            }
        }
        let (fd, mode) = try openFolder(path)
        defer { close(fd) }
        // Ours and a real folder (the descriptor says so): only now may its mode change, and only
        // through that descriptor. A folder in /tmp (sticky) cannot be renamed or removed by anyone
        // else once it is ours, so the socket bound by path next lands in this folder.
        // Root's own /tmp named by STEPPIE_SOCKET=/tmp/x.sock would be closed to everyone: refused instead.
        if mode & S_ISVTX != 0 { throw .shared(path: path) }
        if mode != OwnerOnly.directoryMode, fchmod(fd, OwnerOnly.directoryMode) != 0 {
            throw .system(path: path, operation: "chmod", errno: errno)
        }
    }

    /// For a client: true when `path` is a real folder of this user, false when nothing is there
    /// (no service runs); a link, a file or another user's folder is refused. Changes nothing.
    package static func check(_ path: String) throws(SocketFolderRefusal) -> Bool {
        do {
            let (fd, _) = try openFolder(path)
            close(fd)
            return true
        } catch .system(_, _, let e) where e == ENOENT {
            return false
        }
    }

    /// A descriptor on the folder itself (never through a link), checked to be a folder of this
    /// user, and its permission bits.
    private static func openFolder(_ path: String) throws(SocketFolderRefusal) -> (fd: Int32, mode: mode_t) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw refusal(path, errno: errno) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = errno
            close(fd)
            throw .system(path: path, operation: "fstat", errno: e)
        }
        guard st.st_uid == getuid() else {
            close(fd)
            throw .otherOwner(path: path, uid: st.st_uid)
        }
        return (fd, st.st_mode & 0o7777)
    }

    /// What an `open` that refused `path` met there.
    private static func refusal(_ path: String, errno e: Int32) -> SocketFolderRefusal {
        var st = stat()
        if lstat(path, &st) == 0 {
            if st.st_mode & S_IFMT == S_IFLNK { return .symbolicLink(path: path) }
            if st.st_mode & S_IFMT != S_IFDIR { return .notDirectory(path: path, kind: OwnerOnly.kind(of: path) ?? .other) }
        }
        if e == ELOOP { return .symbolicLink(path: path) }
        return .system(path: path, operation: "open", errno: e)
    }
}
