import Foundation
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

    /// Fetches the file (going on from what is here already) and returns its path; nil when the
    /// hub no longer has it for this device (the copy is then asked for again). Bytes that do not
    /// hash to the reply's SHA-256 are thrown away and `badResponse` is thrown.
    static func fetch(_ file: CopyFile, databasePath: String, client: SyncHubClient) throws -> String? {
        guard CopyFile.isName(file.name), SyncBlob.isHash(file.sha256) else {
            throw SyncTransportError.badResponse(reason: "a copy file's name or hash cannot be read")
        }
        let path = path(databasePath: databasePath, name: file.name)
        Store.removeCopyFiles(databasePath: databasePath, keeping: path)
        _ = try OwnerOnly.createFileIfMissing(path)
        guard let handle = FileHandle(forUpdatingAtPath: path) else {
            throw StoreError.fileSystem(path: path, reason: "cannot be opened for writing")
        }
        defer { try? handle.close() }
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
        return path
    }
}
