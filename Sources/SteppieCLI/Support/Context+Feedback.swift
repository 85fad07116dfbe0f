import Foundation
import SteppieCore
import SteppieFeedback
import SteppieLocalization

extension Context {
    /// The catalogs' sentences as they are said, in any locale (the child's, not necessarily the command's).
    func speechRenderer() throws -> SpeechRenderer {
        let localizer = Localizer(catalogs: try env.catalogs.get(), environment: env.variables)
        return { key, values, locale in localizer.spoken(key, locale: locale, values: values) }
    }

    /// The sound effects in the data directory's `Sounds/`.
    func soundLibrary() throws -> SoundLibrary {
        try SoundLibrary(directory: soundsDirectory)
    }

    private var soundsDirectory: String {
        env.dataDirectory.map { DataDirectory.soundsDirectory(in: $0).path } ?? SoundLibrary.defaultDirectory()
    }

    /// The output asked for with `--output` (default: PulseAudio when a server answers, else a WAV
    /// file), and the engine on it. The note says where sound went when PulseAudio was not there.
    ///
    /// `resilient` (child mode): a PulseAudio server that is not there yet, or a sound file that
    /// is missing or unreadable, is a fault reported through `report` instead of an error.
    func feedbackEngine(defaultWav: String, resilient: Bool = false,
                        report: (String) -> Void = { _ in }) throws -> (FeedbackEngine, FeedbackNotice?) {
        let kind = invocation.value("--output").flatMap(OutputKind.init(rawValue:))
        let wav = invocation.value("--wav") ?? invocation.value("--out") ?? defaultWav
        let text = self.text
        let log: @Sendable (FeedbackNotice) -> Void = { [console] notice in
            console.error("steppie: " + ErrorText.notice(notice, text))
        }
        let choice = try OutputFactory.make(kind: kind, wavPath: wav, pulse: .init(startWithoutServer: resilient), log: log)
        let sounds: SoundLibrary
        if resilient {
            let (library, problems) = SoundLibrary.loadingWhatIsThere(directory: soundsDirectory)
            problems.forEach { report(ErrorText.line($0, text)) }
            sounds = library
        } else {
            sounds = try soundLibrary()
        }
        let engine = FeedbackEngine(output: choice.output, sounds: sounds, render: try speechRenderer(),
                                    lexicons: lexicons(report: { [console, text] in console.error("steppie: " + text("cli.feedback.lexiconFault", ["reason": $0])) }),
                                    log: log)
        return (engine, choice.note)
    }

    /// `Pronunciation/` in the data directory, nil when there is no data directory.
    var pronunciationDirectory: URL? { env.dataDirectory?.appendingPathComponent("Pronunciation") }

    /// The pronunciation lexicons; a broken lexicon is reported and speech goes on without lexicons.
    func lexicons(report: (String) -> Void) -> [String: PronunciationLexicon] {
        guard let dir = pronunciationDirectory else { return [:] }
        do { return try PronunciationLexicon.loadAll(directory: dir) } catch {
            report(String(describing: error))
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

extension FeedbackEngine {
    /// Waits until every cue has been synthesized and written and has had time to leave the
    /// speaker (the stream's latency), or until `timeout` seconds passed.
    func drain(timeout: Double = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while isBusy && Date() < deadline { usleep(10_000) }
        usleep(UInt32(min(1, output.latency() ?? 0) * 1_000_000) + 30_000)
    }
}
