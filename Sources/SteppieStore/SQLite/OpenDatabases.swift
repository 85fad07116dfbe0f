import SteppieFiles
import Synchronization

/// The database files this process has open through a `Store`.
///
/// POSIX record locks belong to the process, and closing *any* descriptor of a file drops them
/// all: a second `Store` on the same file that read its header with `open`/`close` would silently
/// release the first one's SQLite locks, and another process closing its connection would then
/// believe it was the last, checkpoint and delete the WAL under our feet (seen with the service's
/// guardian pages). So a file this process already holds is never opened outside SQLite again.
/// Process-wide by nature, like the locks it protects.
enum OpenDatabases {
    private static let counts = Mutex<[FileIdentity: Int]>([:])

    static func contains(_ file: FileIdentity) -> Bool { counts.withLock { $0[file] != nil } }

    static func retain(_ file: FileIdentity) { counts.withLock { $0[file, default: 0] += 1 } }

    static func release(_ file: FileIdentity) {
        counts.withLock {
            if let n = $0[file], n > 1 { $0[file] = n - 1 } else { $0[file] = nil }
        }
    }
}
