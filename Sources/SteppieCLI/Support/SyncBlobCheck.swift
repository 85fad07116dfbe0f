import SteppieBackup
import SteppieCore
import SteppieFeedback
import SteppieSync

/// The hub's check of content a device sends (docs/sync.md, "Photos and recordings"): the
/// checks the guardian pages make — a photo as `PhotoFile.check` takes it (JPEG or PNG, ≤ 5 MiB,
/// within the pixel limits), else a recording as `RecordingCheck` takes it (decoded by
/// libsndfile, 1…30 s, some sound, ≤ 10 MiB). Anything else is refused as malformed.
enum SyncBlobCheck {
    static func check(_ bytes: [UInt8], path: String) -> Result<SyncBlob.Kind, SyncRefusal> {
        if PhotoContent.recognise(bytes) != nil {
            switch PhotoFile.check(bytes) {
            case .success(let kind): return .success(.photo(ext: PhotoFile.fileExtension(kind)))
            case .failure(.tooLarge): return .failure(.tooLarge)
            case .failure(.pixels(let kind)): return .failure(.malformed(reason: "a photo of \(kind.width) × \(kind.height) pixels"))
            case .failure(.notPhoto): return .failure(.malformed(reason: "not a photo"))
            }
        }
        switch RecordingCheck.check(path: path, bytes: bytes.count, decode: SoundFile.decodeRecording) {
        case .success: return .success(.recording)
        case .failure(.tooLarge(_)): return .failure(.tooLarge)
        case .failure(let refusal): return .failure(.malformed(reason: "neither a photo nor a recording (\(refusal))"))
        }
    }
}
