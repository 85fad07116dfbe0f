import Foundation
import SteppieCore

/// Reads a guardian's audio file for `steppie routine record`; `Store.keepRecording` checks and keeps it.
enum RecordingImport {
    /// The file's bytes and its extension (lowercased), refused when missing or over the size
    /// limit before it is read into memory.
    static func read(_ path: String) throws -> (Data, String) {
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: path) } catch {
            throw RecordingError.notFound(path: path)
        }
        let bytes = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard bytes <= RecordingCheck.maximumBytes else { throw RecordingError.tooLarge(path: path, bytes: bytes) }
        guard let data = FileManager.default.contents(atPath: path) else { throw RecordingError.notFound(path: path) }
        return (data, (path as NSString).pathExtension.lowercased())
    }
}
