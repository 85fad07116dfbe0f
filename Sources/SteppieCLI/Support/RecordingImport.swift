import Foundation
import SteppieFiles
import SteppieFeedback

/// Checks a guardian's audio file and copies it into the recordings folder beside the database.
enum RecordingImport {
    /// The largest file accepted: 10 MiB.
    static let maximumBytes = 10 * 1_048_576
    /// The longest recording accepted: 30 s.
    static let maximumMilliseconds = 30_000
    /// File types kept, by extension (the file is still checked by decoding it).
    static let extensions = ["wav", "wave", "flac", "ogg", "oga"]

    /// A checked file: its decoded length and the extension it will be stored with.
    struct Checked: Equatable {
        var milliseconds: Int
        var fileExtension: String
    }

    /// Decodes `path` with libsndfile and checks size, length and that it holds sound.
    static func check(_ path: String) throws -> Checked {
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: path) } catch {
            throw RecordingError.notFound(path: path)
        }
        let bytes = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard bytes <= maximumBytes else { throw RecordingError.tooLarge(path: path, bytes: bytes) }
        let samples: [Float]
        do { samples = try SoundFile.read(path: path) } catch let FeedbackError.soundFile(_, reason) {
            throw RecordingError.notAudio(path: path, reason: reason)
        }
        let milliseconds = Int((Double(samples.count) * 1000 / Double(SampleFormat.rate)).rounded())
        guard milliseconds <= maximumMilliseconds else { throw RecordingError.tooLong(path: path, milliseconds: milliseconds) }
        guard milliseconds > 0, samples.contains(where: { abs($0) > 0.001 }) else { throw RecordingError.silent(path: path) }
        let ext = (path as NSString).pathExtension.lowercased()
        return Checked(milliseconds: milliseconds, fileExtension: extensions.contains(ext) ? ext : "audio")
    }

    /// Copies `path` into `directory` as `<uuid>.<ext>` and returns the new file name.
    static func copy(_ path: String, as ext: String, into directory: URL) throws -> String {
        let name = UUID().uuidString.lowercased() + "." + ext
        let target = directory.appendingPathComponent(name)
        do {
            // A guardian's voice: owner-only folder and file, whatever the umask or the source's mode.
            try OwnerOnly.createDirectories(directory.path)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let fd = try OwnerOnly.openForWriting(target.path, exclusive: true)
            defer { close(fd) }
            try bytes.withUnsafeBytes { try Descriptor.writeAll(fd, $0, path: target.path) }
            try Descriptor.sync(fd, path: target.path)
        } catch {
            throw RecordingError.copyFailed(path: target.path, reason: String(describing: error))
        }
        return name
    }
}
