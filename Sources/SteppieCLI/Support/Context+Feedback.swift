import Foundation
import SteppieCore
import SteppieFeedback
import SteppieLocalization

extension Context {
    /// The catalogs' text for speech, in any locale (the child's, not necessarily the command's).
    func speechRenderer() throws -> SpeechRenderer {
        let localizer = Localizer(catalogs: try env.catalogs.get(), environment: env.variables)
        return { key, args, locale in localizer.text(key, locale: locale, args: args) }
    }

    /// The sound effects in the data directory's `Sounds/`.
    func soundLibrary() throws -> SoundLibrary {
        let dir = env.dataDirectory.map { DataDirectory.soundsDirectory(in: $0).path } ?? SoundLibrary.defaultDirectory()
        return try SoundLibrary(directory: dir)
    }

    /// The output asked for with `--output` (default: PulseAudio when a server answers, else a WAV
    /// file), and the engine on it. The note says where sound went when PulseAudio was not there.
    func feedbackEngine(defaultWav: String) throws -> (FeedbackEngine, String?) {
        let kind = invocation.value("--output").flatMap(OutputKind.init(rawValue:))
        let wav = invocation.value("--wav") ?? invocation.value("--out") ?? defaultWav
        let log: @Sendable (String) -> Void = { [console] line in console.error("steppie: " + line) }
        let choice = try OutputFactory.make(kind: kind, wavPath: wav, log: log)
        let engine = FeedbackEngine(output: choice.output, sounds: try soundLibrary(), render: try speechRenderer(),
                                    lexicons: lexicons(log: log), log: log)
        return (engine, choice.note)
    }

    /// `Pronunciation/` in the data directory, nil when there is no data directory.
    var pronunciationDirectory: URL? { env.dataDirectory?.appendingPathComponent("Pronunciation") }

    /// The pronunciation lexicons; a broken lexicon is reported and speech goes on without lexicons.
    func lexicons(log: @Sendable (String) -> Void) -> [String: PronunciationLexicon] {
        guard let dir = pronunciationDirectory else { return [:] }
        do { return try PronunciationLexicon.loadAll(directory: dir) } catch {
            log(String(describing: error))
            return [:]
        }
    }

    /// `steppie-<what>-YYYYMMDD-HHmmss.wav` in the current folder, local time.
    func defaultWavName(_ what: String) -> String {
        let stamp = Timestamp.format(now, in: env.timeZone)
        let digits = stamp.prefix(19).filter { $0.isNumber }
        return "steppie-\(what)-\(digits.prefix(8))-\(digits.dropFirst(8).prefix(6)).wav"
    }
}

extension AudioOutput {
    /// Waits until everything queued has been written and has had time to leave the speaker
    /// (the stream's latency), or until `timeout` seconds passed.
    func drain(timeout: Double = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while isBusy && Date() < deadline { usleep(10_000) }
        usleep(UInt32(min(1, latency() ?? 0) * 1_000_000) + 30_000)
    }
}
