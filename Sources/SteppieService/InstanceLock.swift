import Foundation
import SteppieFiles

/// One service per database: an exclusive `flock` on a file beside it, held for the service's
/// life (the kernel drops it when the process dies, even by SIGKILL). The file names the holder.
public final class InstanceLock {
    private let fd: Int32
    public let path: String

    /// Takes the lock or throws `alreadyRunning` naming the holder.
    public init(database: String, socket: String) throws {
        path = ServicePaths.lock(database: database)
        let fd: Int32
        do { fd = try OwnerOnly.openForWriting(path, truncate: false) } catch { throw ServiceError.file(error) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            close(fd)
            let parts = holder.split(separator: "\n").map(String.init)
            throw ServiceError.alreadyRunning(pid: parts.first.flatMap { Int32($0) }, socket: parts.count > 1 ? parts[1] : nil,
                                              database: database)
        }
        self.fd = fd
        _ = ftruncate(fd, 0)
        try? Descriptor.writeAll(fd, "\(getpid())\n\(socket)\n", path: path)
    }

    deinit {
        _ = ftruncate(fd, 0)
        close(fd)
    }
}
