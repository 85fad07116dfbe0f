import Foundation
import SteppieCore
import SteppieFiles
import SteppieSecurity

/// What keeping a recording did: the new row, and the one it replaced (its file already removed).
public struct KeptRecording: Sendable, Equatable {
    public var recording: RoutineRecording
    public var replaced: RoutineRecording?
}

/// Keeping a guardian's recording: the one path of `steppie routine record` and the routine page.
extension Store {
    /// Writes `bytes` owner-only as `recordings/<uuid>.<ext>`, checks the written file with
    /// `RecordingCheck` (decoded by `decode`), and attaches it to the routine in `locale`,
    /// replacing (and deleting the file of) any earlier one. Refused or failed: no file stays and
    /// the database is unchanged. Throws `RecordingRefusal`, `StoreError` (unknown routine, a
    /// locale outside the contract, no folder for an in-memory database) or `FileRefusal`.
    public func keepRecording(_ bytes: Data, routineId: UUID, locale: String, fileExtension: String,
                              decode: AudioDecoder, at now: Date) throws -> KeptRecording {
        guard !bytes.isEmpty else { throw RecordingRefusal.empty }
        guard bytes.count <= RecordingCheck.maximumBytes else { throw RecordingRefusal.tooLarge(bytes: bytes.count) }
        _ = try routine(id: routineId)
        guard let directory = recordingsDirectory else {
            throw StoreError.fileSystem(path: ":memory:", reason: "an in-memory database has no folder for recordings")
        }
        let ext = RecordingCheck.extensions.contains(fileExtension.lowercased()) ? fileExtension.lowercased() : "audio"
        let name = UUID().uuidString.lowercased() + "." + ext
        let path = directory.appendingPathComponent(name).path
        // A guardian's voice: owner-only folder and file, whatever the umask.
        _ = try OwnerOnly.createDirectories(directory.path)
        let fd = try OwnerOnly.openForWriting(path, exclusive: true)
        do {
            defer { close(fd) }
            try bytes.withUnsafeBytes { try Descriptor.writeAll(fd, $0, path: path) }
            try Descriptor.sync(fd, path: path)
        } catch {
            unlink(path)
            throw error
        }
        do {
            let milliseconds = try RecordingCheck.check(path: path, bytes: bytes.count, decode: decode).get()
            // The content's address: sync sends the bytes once by it (docs/sync.md).
            let recording = RoutineRecording(routineId: routineId, locale: locale, fileName: name, durationMs: milliseconds, createdAt: now,
                                             sha256: SHA256.hex(of: bytes))
            let replaced = try setRecording(recording)
            if let replaced { unlink(directory.appendingPathComponent(replaced.fileName).path) }
            return KeptRecording(recording: recording, replaced: replaced)
        } catch {
            unlink(path)   // the database is unchanged: leave no stray file either
            throw error
        }
    }

    /// Removes the recording of a routine in `locale` and its file; returns it (nil: there was none).
    @discardableResult
    public func discardRecording(routineId: UUID, locale: String) throws -> RoutineRecording? {
        guard let removed = try removeRecording(routineId: routineId, locale: locale) else { return nil }
        if let directory = recordingsDirectory { unlink(directory.appendingPathComponent(removed.fileName).path) }
        return removed
    }

    /// The path of a kept recording's file, when its name is a recording's (never a path elsewhere).
    public func recordingPath(_ recording: RoutineRecording) -> String? {
        guard RecordingCheck.isFileName(recording.fileName), let directory = recordingsDirectory else { return nil }
        return directory.appendingPathComponent(recording.fileName).path
    }
}
