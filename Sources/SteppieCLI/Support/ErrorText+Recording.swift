import Foundation

extension ErrorText {
    /// A recording error in the user's language.
    static func recording(_ e: RecordingError, _ t: Messages) -> String {
        switch e {
        case .notFound(let path): t("cli.error.recording.notFound", ["path": path])
        case .tooLarge(let path, let bytes):
            t("cli.error.recording.tooLarge", ["path": path, "size": String(format: "%.1f", Double(bytes) / 1_048_576)])
        case .notAudio(let path, let reason): t("cli.error.recording.notAudio", ["path": path, "reason": reason])
        case .tooLong(let path, let ms):
            t("cli.error.recording.tooLong", ["path": path, "seconds": String(format: "%.1f", Double(ms) / 1000)])
        case .silent(let path): t("cli.error.recording.silent", ["path": path])
        case .copyFailed(let path, let reason): t("cli.error.recording.copy", ["path": path, "reason": reason])
        case .none(let title, let locale): t("cli.error.recording.none", ["title": title, "locale": locale])
        }
    }
}
