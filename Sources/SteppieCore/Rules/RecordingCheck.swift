import Foundation

/// A decoded recording as the check sees it: its length and its loudest sample.
public struct DecodedAudio: Sendable, Equatable {
    public var milliseconds: Int
    /// The largest absolute sample value, 0…1.
    public var peak: Float

    public init(milliseconds: Int, peak: Float) { self.milliseconds = milliseconds; self.peak = peak }
}

/// Decodes an audio file at a path, or says in libsndfile's words why it cannot. The live one is
/// `SoundFile.decodeRecording` (SteppieFeedback owns libsndfile); the pages, the command line and
/// restores are handed it, so that this module and the ones above it never open the C library.
public typealias AudioDecoder = @Sendable (_ path: String) -> Result<DecodedAudio, AudioDecodeFailure>

/// Why a file could not be decoded as audio.
public struct AudioDecodeFailure: Error, Sendable, Equatable {
    public var reason: String
    public init(reason: String) { self.reason = reason }

    /// A decoder that decodes nothing (for callers that were given none): every file is refused.
    public static let unavailable: AudioDecoder = { _ in .failure(AudioDecodeFailure(reason: "no audio decoder")) }
}

/// Why a recording was refused, before anything was kept.
public enum RecordingRefusal: Error, Sendable, Equatable {
    /// No bytes at all.
    case empty
    /// Bigger than `RecordingCheck.maximumBytes`.
    case tooLarge(bytes: Int)
    /// libsndfile cannot decode it (not WAV, FLAC or OGG, or damaged).
    case notAudio(reason: String)
    /// Longer than `RecordingCheck.maximumMilliseconds`.
    case tooLong(milliseconds: Int)
    /// Decodes, but holds no sound (or no samples).
    case silent
}

/// The one rule for a recording, wherever it comes from (`steppie routine record`, the routine
/// page's microphone, a backup being restored): at most 10 MiB, decodable by libsndfile, 1…30000
/// ms long, with some sound. Nothing is trimmed.
public enum RecordingCheck {
    /// The largest file accepted: 10 MiB.
    public static let maximumBytes = 10 * 1_048_576
    /// The longest recording accepted: 30 s (the contract's `durationMs` range).
    public static let maximumMilliseconds = 30_000
    /// Extensions a recording is kept with (the file is still judged by decoding it); any other
    /// file is kept as `.audio`.
    public static let extensions = ["wav", "wave", "flac", "ogg", "oga"]
    /// Below this peak a recording counts as silent.
    static let silence: Float = 0.001

    /// The recording's length in milliseconds when the file at `path` (of `bytes` bytes) passes.
    public static func check(path: String, bytes: Int, decode: AudioDecoder) -> Result<Int, RecordingRefusal> {
        guard bytes > 0 else { return .failure(.empty) }
        guard bytes <= maximumBytes else { return .failure(.tooLarge(bytes: bytes)) }
        switch decode(path) {
        case .failure(let failure): return .failure(.notAudio(reason: failure.reason))
        case .success(let audio):
            guard audio.milliseconds <= maximumMilliseconds else { return .failure(.tooLong(milliseconds: audio.milliseconds)) }
            guard audio.milliseconds > 0, audio.peak > silence else { return .failure(.silent) }
            return .success(audio.milliseconds)
        }
    }

    /// Whether `name` is a recording's file name: a lowercase UUID and one of `extensions`.
    public static func isFileName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, (extensions + ["audio"]).contains(String(parts[1])) else { return false }
        // A recording that came through sync is named by the SHA-256 of its bytes (docs/sync.md).
        if parts[0].utf8.count == 64 { return parts[0].utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) } }
        guard parts[0].count == 36, let id = UUID(uuidString: String(parts[0])) else { return false }
        return id.uuidString.lowercased() == parts[0]
    }
}
