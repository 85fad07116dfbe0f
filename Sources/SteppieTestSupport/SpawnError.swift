#if canImport(Glibc)
import Glibc
#endif

/// Why a child process could not be started.
public enum SpawnError: Error, Equatable, CustomStringConvertible {
    /// A bare program name matched no executable file in any folder of `PATH`.
    case notFound(program: String, path: String)
    /// `pipe(2)` failed with this errno (too many open files, most likely).
    case pipe(errno: Int32)
    /// `posix_spawn` failed with this error number.
    case spawn(path: String, error: Int32)

    public var description: String {
        switch self {
        case let .notFound(program, path): "cannot start \(program): not found in PATH (\(path)); install it or give its full path"
        case let .pipe(errno): "cannot create a pipe: \(String(cString: strerror(errno)))"
        case let .spawn(path, error): "cannot start \(path): \(String(cString: strerror(error)))"
        }
    }
}
