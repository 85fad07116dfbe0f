import Foundation
import SteppieCore
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
            guard let removed = try store.removeRecording(routineId: routineId, locale: locale) else {
                throw RecordingError.none(title: c.resolve(routine.title), locale: locale)
            }
            deleteFile(removed.fileName, store)
            c.console.print(c.text("cli.routine.recordingRemoved", ["title": c.resolve(routine.title), "locale": locale]))
            return 0
        }
        let path = c.invocation.argument("FILE") ?? ""   // FILE or --remove: the tree's rules
        let checked = try RecordingImport.check(path)
        guard let directory = store.recordingsDirectory else {
            throw RecordingError.copyFailed(path: ":memory:", reason: "an in-memory database has no folder for recordings")
        }
        let name = try RecordingImport.copy(path, as: checked.fileExtension, into: directory)
        let replaced: RoutineRecording?
        do {
            replaced = try store.setRecording(RoutineRecording(routineId: routineId, locale: locale, fileName: name,
                                                               durationMs: checked.milliseconds, createdAt: c.now))
        } catch {
            deleteFile(name, store)   // the database is unchanged: leave no stray copy either
            throw error
        }
        if let replaced { deleteFile(replaced.fileName, store) }
        c.console.print(c.text("cli.routine.recorded", [
            "title": c.resolve(routine.title), "locale": locale,
            "seconds": String(format: "%.1f", Double(checked.milliseconds) / 1000),
        ]))
        return 0
    }

    /// `ko` or `en` from the global `--locale`, which the tree's rules require for this command.
    private static func recordingLocale(_ c: Context) throws -> String { c.invocation.value("--locale") ?? "ko" }

    private static func deleteFile(_ name: String, _ store: Store) {
        guard let directory = store.recordingsDirectory else { return }
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
    }
}
