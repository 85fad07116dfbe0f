import Foundation
import Glibc
import SteppieFiles
import SteppieSecurity
import SteppieStore
import SteppieSync
import SteppieSyncHTTP

/// A device's side of a fresh copy given as one file (docs/sync.md, "A fresh copy as one file"):
/// the file is fetched piece by piece into `<database>.copy-<name>` beside the database
/// (owner-only), so a device stopped part of the way goes on from the bytes it has; it is taken
/// only when its length and SHA-256 are the ones the hub's reply gave, then deleted.
package enum SyncCopyFetch {
    /// Where the file named `name` is fetched to for the database at `databasePath`.
    package static func path(databasePath: String, name: String) -> String { databasePath + ".copy-" + name }

    /// A fetched copy file, locked against this device's other Steppie processes until `release`
    /// (after it was applied and deleted).
    package final class Fetched {
        package let path: String
        private let handle: FileHandle

        init(path: String, handle: FileHandle) {
            self.path = path
            self.handle = handle
        }

        /// Gives up the lock (closing the file).
        package func release() { try? handle.close() }

        deinit { release() }
    }

    /// Fetches the file (going on from what is here already) and returns it, locked; nil when the
    /// hub no longer has it for this device (the copy is then asked for again). Bytes that do not
    /// hash to the reply's SHA-256 are thrown away and `badResponse` is thrown. While one process
    /// of the device (the service, a `sync now`, the guardian page) fetches and applies a file, it
    /// holds an exclusive `flock` on it: another finds it held and throws `syncCopyFileBusy`
    /// instead of writing into it too (two writers appending to one file spoiled it for both).
    package static func fetch(_ file: CopyFile, databasePath: String, client: SyncHubClient) throws -> Fetched? {
        guard CopyFile.isName(file.name), SyncBlob.isHash(file.sha256) else {
            throw SyncTransportError.badResponse(reason: "a copy file's name or hash cannot be read")
        }
        let path = path(databasePath: databasePath, name: file.name)
        _ = try OwnerOnly.createFileIfMissing(path)
        // Closed on exec: a process this one starts while it holds the file must not inherit the
        // descriptor, and with it the lock, for as long as that process runs (`FileHandle`'s own
        // opening leaves it open across exec).
        let fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw StoreError.fileSystem(path: path, reason: "cannot be opened for writing") }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        guard flock(handle.fileDescriptor, LOCK_EX | LOCK_NB) == 0, sameFile(handle.fileDescriptor, path) else {
            // Held by another process, or it took the file and removed it since we opened it.
            try? handle.close()
            throw StoreError.syncCopyFileBusy
        }
        let fetched = Fetched(path: path, handle: handle)
        Store.removeCopyFiles(databasePath: databasePath, keeping: path)
        var offset = try handle.seekToEnd()
        if offset > file.bytes {
            try handle.truncate(atOffset: 0)
            offset = 0
        }
        while offset < file.bytes {
            guard let piece = try client.copyChunk(file.name, offset: offset) else {
                try? FileManager.default.removeItem(atPath: path)
                return nil
            }
            guard !piece.isEmpty, UInt64(piece.count) <= file.bytes - offset else {
                throw SyncTransportError.badResponse(reason: "a copy file's piece does not fit the file")
            }
            try handle.write(contentsOf: piece)
            offset += UInt64(piece.count)
            SyncFault.reached("copy-piece")   // part of the file is here; none of it taken
        }
        try handle.synchronize()
        guard let (bytes, sha) = SyncCopyFiles.measure(path), bytes == file.bytes, sha == file.sha256 else {
            try? FileManager.default.removeItem(atPath: path)
            throw SyncTransportError.badResponse(reason: "the copy file does not hash to what the hub said")
        }
        return fetched
    }

    /// Whether `path` still names the open file `fd` (not removed or replaced since it was opened).
    package static func sameFile(_ fd: Int32, _ path: String) -> Bool {
        var opened = stat(), named = stat()
        guard fstat(fd, &opened) == 0, stat(path, &named) == 0 else { return false }
        return opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
    }
}
