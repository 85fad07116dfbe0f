#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing whole buffers to a descriptor, with every failure (a full disk, a closed pipe) returned
/// as a value instead of a trap. `SIGPIPE` must be ignored by the process (`ignoreBrokenPipe()`),
/// so a closed reader shows up here as `EPIPE`.
public enum Descriptor {
    /// Writes all of `bytes` to `fd`, retrying short writes and `EINTR`; `path` names it in errors.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(FileRefusal) {
        guard var next = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let n = write(fd, next, left)
            if n < 0 {
                let e = errno
                if e == EINTR { continue }
                throw OwnerOnly.systemError(path, "write", e)
            }
            if n == 0 { throw OwnerOnly.systemError(path, "write", EIO) }
            next += n
            left -= n
        }
    }

    /// Writes the UTF-8 of `text` to `fd`.
    public static func writeAll(_ fd: Int32, _ text: String, path: String) throws(FileRefusal) {
        var copy = text
        let result: Result<Void, FileRefusal> = copy.withUTF8 { buffer in
            do throws(FileRefusal) {
                try writeAll(fd, UnsafeRawBufferPointer(buffer), path: path)
                return .success(())
            } catch { return .failure(error) }
        }
        try result.get()
    }

    /// Flushes `fd` to stable storage.
    public static func sync(_ fd: Int32, path: String) throws(FileRefusal) {
        guard fsync(fd) == 0 else { throw OwnerOnly.systemError(path, "fsync", errno) }
    }

    /// Makes writes to a closed pipe fail with `EPIPE` instead of killing the process.
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }
}
