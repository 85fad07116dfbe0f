import Foundation
import SteppieCore
import SteppieFiles
import SteppieSecurity
import SteppieStore
import SteppieSync

/// Where photos and recordings are kept beside a database, found and written by their content's
/// hash (docs/sync.md, "Photos and recordings"): photos in the assets folder as
/// `routine-photo-<sha256>.<ext>`, recordings in `recordings/` as `<sha256>.audio` (or under the
/// name this device recorded them with). Every write is a temporary file, synced, then renamed:
/// a reader never sees half a photo.
package struct SyncBlobFiles: Sendable {
    /// The photos (`assets/` beside the database).
    package let assets: URL
    /// The recordings (`recordings/` beside the database).
    package let recordings: URL
    /// What a blob's bytes are (the file at the path holds them): a photo of a kind the guardian
    /// pages take, or a recording `RecordingCheck` passes; the refusal otherwise. Given by the
    /// command line, which owns the photo and audio checks.
    package let check: @Sendable (_ bytes: [UInt8], _ path: String) -> Result<SyncBlob.Kind, SyncRefusal>

    package init(databasePath: String, check: @escaping @Sendable ([UInt8], String) -> Result<SyncBlob.Kind, SyncRefusal>) {
        let folder = URL(fileURLWithPath: databasePath).deletingLastPathComponent()
        assets = folder.appendingPathComponent("assets", isDirectory: true)
        recordings = folder.appendingPathComponent("recordings", isDirectory: true)
        self.check = check
    }

    /// A device's files: no check (the hub checked what it gives; the hash is checked here).
    package init(databasePath: String) {
        self.init(databasePath: databasePath) { _, _ in .failure(.malformed(reason: "no content check on a device")) }
    }

    /// The path of the blob's file where it would be kept.
    package func path(of blob: SyncBlob) -> String {
        switch blob.kind {
        case .photo: assets.appendingPathComponent(blob.fileName).path
        case .recording: recordings.appendingPathComponent(blob.fileName).path
        }
    }

    /// The path of a file here holding the bytes named `sha256` (a photo of any extension, a
    /// recording under its hash or the name it was recorded with), nil when there is none.
    package func locate(_ sha256: String, store: Store) -> String? {
        guard SyncBlob.isHash(sha256) else { return nil }
        for ext in SyncBlob.photoExtensions {
            let path = assets.appendingPathComponent(SyncBlob.photoFileName(sha256: sha256, ext: ext)).path
            if OwnerOnly.kind(of: path) == .regular { return path }
        }
        let hashed = recordings.appendingPathComponent(SyncBlob(sha256: sha256, kind: .recording).fileName).path
        if OwnerOnly.kind(of: hashed) == .regular { return hashed }
        if let name = try? store.syncRecordingFile(sha256: sha256), RecordingCheck.isFileName(name) {
            let path = recordings.appendingPathComponent(name).path
            if OwnerOnly.kind(of: path) == .regular { return path }
        }
        return nil
    }

    /// The bytes of a file, when it is at most `limit` bytes.
    package static func read(_ path: String, limit: Int = RecordingCheck.maximumBytes) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: path), data.count <= limit else { return nil }
        return Array(data)
    }

    /// Writes `bytes` owner-only to `path` through a temporary file in the same folder (synced,
    /// then renamed over it).
    package static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let directory = OwnerOnly.parent(of: path)
        _ = try OwnerOnly.createDirectories(directory)
        let temporary = directory + "/.sync-" + UUID().uuidString.lowercased() + ".part"
        let fd = try OwnerOnly.openForWriting(temporary, exclusive: true)
        do {
            defer { close(fd) }
            try bytes.withUnsafeBytes { try Descriptor.writeAll(fd, $0, path: temporary) }
            try Descriptor.sync(fd, path: temporary)
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw StoreError.fileSystem(path: path, reason: String(cString: strerror(code)))
        }
    }

    /// The hub's store of a blob sent by a device: the name must be the bytes' SHA-256, the size
    /// within the recording limit (a photo's within 5 MiB), the content a photo or a recording the
    /// guardian pages would take; then it is kept once under its hash. Refused: nothing is kept.
    /// True when it was stored now, false when it was here already.
    package func store(_ bytes: [UInt8], sha256: String, store: Store) -> Result<Bool, SyncRefusal> {
        if let refusal = SyncBlob.refusal(name: sha256, count: bytes.count, sha256: { SHA256.hex(of: Data(bytes)) }) {
            return .failure(refusal)
        }
        if locate(sha256, store: store) != nil { return .success(false) }
        let temporaryDirectory = recordings.path
        let temporary = temporaryDirectory + "/.sync-check-" + UUID().uuidString.lowercased() + ".part"
        do {
            _ = try OwnerOnly.createDirectories(temporaryDirectory)
            let fd = try OwnerOnly.openForWriting(temporary, exclusive: true)
            defer { close(fd) }
            try bytes.withUnsafeBytes { try Descriptor.writeAll(fd, $0, path: temporary) }
            try Descriptor.sync(fd, path: temporary)
        } catch {
            unlink(temporary)
            return .failure(.unavailable)
        }
        defer { unlink(temporary) }
        let kind: SyncBlob.Kind
        switch check(bytes, temporary) {
        case .success(let k): kind = k
        case .failure(let refusal): return .failure(refusal)
        }
        do {
            try Self.writeAtomically(bytes, to: path(of: SyncBlob(sha256: sha256, kind: kind)))
        } catch {
            return .failure(.unavailable)
        }
        return .success(true)
    }
}
