import Foundation
import SteppieCore
import SteppieFeedback
import SteppieFiles
import SteppieStore

/// `steppie routine record ROUTINE-ID --locale ko|en FILE` and `… --remove ROUTINE-ID --locale ko|en`:
/// a guardian's recording of a routine title, played by child mode instead of synthesized speech.
///
/// The global `--locale` names the recording's language here (and, as everywhere, the language
/// of the command's own messages).
enum RecordingCommands {
    static func record(_ c: Context) throws -> Int32 {
        let locale = try recordingLocale(c)
        let routineId = try Ids.parse(c.invocation.argument("ROUTINE-ID"), argument: "ROUTINE-ID")
        let store = try c.store()
        let routine = try store.routine(id: routineId)
        if c.invocation.flag("--remove") {
            guard try store.discardRecording(routineId: routineId, locale: locale) != nil else {
                throw RecordingError.none(title: c.resolve(routine.title), locale: locale)
            }
            c.console.print(c.text("cli.routine.recordingRemoved", ["title": c.resolve(routine.title), "locale": locale]))
            return 0
        }
        let path = c.invocation.argument("FILE") ?? ""   // FILE or --remove: the tree's rules
        let (bytes, ext) = try RecordingImport.read(path)
        let kept: KeptRecording
        do {
            kept = try store.keepRecording(bytes, routineId: routineId, locale: locale, fileExtension: ext,
                                           decode: SoundFile.decodeRecording, at: c.now)
        } catch let refusal as RecordingRefusal {
            throw RecordingError(refusal, path: path)
        } catch let refusal as FileRefusal {
            throw RecordingError.copyFailed(path: store.recordingsDirectory?.path ?? path, reason: String(describing: refusal))
        } catch StoreError.fileSystem(let at, let reason) {
            throw RecordingError.copyFailed(path: at, reason: reason)
        }
        let checked = kept.recording.durationMs
        c.console.print(c.text("cli.routine.recorded", [
            "title": c.resolve(routine.title), "locale": locale,
            "seconds": String(format: "%.1f", Double(checked) / 1000),
        ]))
        return 0
    }

    /// `ko` or `en` from the global `--locale`, which the tree's rules require for this command.
    private static func recordingLocale(_ c: Context) throws -> String { c.invocation.value("--locale") ?? "ko" }
}
