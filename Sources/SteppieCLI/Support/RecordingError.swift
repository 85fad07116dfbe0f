/// Why a recording was refused or could not be attached or removed, as comparable values.
enum RecordingError: Error, Equatable {
    /// No file at the path.
    case notFound(path: String)
    /// Bigger than `RecordingImport.maximumBytes`.
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
