import Foundation
import SteppieCore

/// Why a recording was refused or could not be attached or removed, as comparable values.
enum RecordingError: Error, Equatable {
    /// No file at the path.
    case notFound(path: String)
    /// Bigger than `RecordingCheck.maximumBytes`.
    case tooLarge(path: String, bytes: Int)
    /// libsndfile cannot decode it as audio (not WAV, FLAC or OGG, or damaged).
    case notAudio(path: String, reason: String)
    /// Longer than 30 seconds.
    case tooLong(path: String, milliseconds: Int)
    /// Decodes, but holds no sound.
    case silent(path: String)
    /// The copy into the recordings folder failed.
    case copyFailed(path: String, reason: String)
    /// `--remove` for a routine without a recording in that language.
    case none(title: String, locale: String)
}

extension RecordingError {
    /// The shared check's refusal of the file at `path`, in the command line's words.
    init(_ refusal: RecordingRefusal, path: String) {
        switch refusal {
        case .empty: self = .notAudio(path: path, reason: "empty file")
        case .tooLarge(let bytes): self = .tooLarge(path: path, bytes: bytes)
        case .notAudio(let reason): self = .notAudio(path: path, reason: reason)
        case .tooLong(let ms): self = .tooLong(path: path, milliseconds: ms)
        case .silent: self = .silent(path: path)
        }
    }
}

extension RecordingError: CatalogDescribable {
    /// A recording refused, or one that could not be attached or removed, in the reader's words.
    var catalogMessage: CatalogMessage {
        switch self {
        case .notFound(let path): CatalogMessage("cli.error.recording.notFound", ["path": .detail(path)])
        case .tooLarge(let path, let bytes):
            CatalogMessage("cli.error.recording.tooLarge", ["path": .detail(path), "size": .text(String(format: "%.1f", Double(bytes) / 1_048_576))])
        case .notAudio(let path, let reason): CatalogMessage("cli.error.recording.notAudio", ["path": .detail(path), "reason": .detail(reason)])
        case .tooLong(let path, let ms):
            CatalogMessage("cli.error.recording.tooLong", ["path": .detail(path), "seconds": .text(String(format: "%.1f", Double(ms) / 1000))])
        case .silent(let path): CatalogMessage("cli.error.recording.silent", ["path": .detail(path)])
        case .copyFailed(let path, let reason): CatalogMessage("cli.error.recording.copy", ["path": .detail(path), "reason": .detail(reason)])
        case .none(let title, let locale): CatalogMessage("cli.error.recording.none", text: ["title": title, "locale": locale])
        }
    }
}
