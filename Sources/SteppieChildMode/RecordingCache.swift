import Foundation
import SteppieCore
import SteppieFeedback
import SteppieStore

/// The guardian's recordings of routine titles, decoded once and kept per routine and language.
///
/// Rows are read at start and again whenever another process commits (`reload()`, called by the
/// runtime when SQLite's data_version changes); files are decoded only the first time their name
/// is seen. The cue path itself never touches
/// the database, so a database fault (read-only, busy) cannot change what a press does.
public final class RecordingCache {
    private struct Key: Hashable {
        var routineId: UUID
        var language: String
    }

    private let store: Store
    private let report: (String) -> Void
    private let describe: (any Error) -> String
    private var byRoutine: [Key: String] = [:]
    private var decoded: [String: PrerecordedSpeech] = [:]

    /// A cache over `store`, loaded now; faults (a missing or damaged file) go to `report`.
    /// `describe` says a fault in the user's language; by default the error's own description.
    public init(store: Store, describe: @escaping (any Error) -> String = { String(describing: $0) },
                report: @escaping (String) -> Void) {
        self.store = store
        self.describe = describe
        self.report = report
        load()
    }

    /// The recording of a routine in the language of `locale`, if one is attached and readable.
    public func recording(routineId: UUID, locale: String) -> PrerecordedSpeech? {
        let language = LocaleFallback.language(of: LocaleFallback.normalize(locale))
        guard let name = byRoutine[Key(routineId: routineId, language: language)] else { return nil }
        return decoded[name]
    }

    /// Reads the rows again (a recording may have been attached or removed) and decodes new files.
    public func reload() { load() }

    /// Reads the rows and decodes files not seen before.
    private func load() {
        do {
            var rows: [Key: String] = [:]
            for r in try store.recordings() {
                rows[Key(routineId: r.routineId, language: r.locale)] = r.fileName
                if decoded[r.fileName] == nil, let speech = decode(r.fileName) { decoded[r.fileName] = speech }
            }
            byRoutine = rows
        } catch {
            report(describe(error))
        }
    }

    private func decode(_ name: String) -> PrerecordedSpeech? {
        guard let directory = store.recordingsDirectory else { return nil }
        do {
            let raw = try SoundFile.read(path: directory.appendingPathComponent(name).path)
            return PrerecordedSpeech(samples: PrerecordedSpeech.normalized(raw))
        } catch {
            report(describe(error))
            return nil
        }
    }
}
