import SteppieChildMode
import Foundation
import SteppieCore
import SteppieFeedback
import SteppieSecurity
import SteppieStore

/// Builds what child mode speaks and sounds with, and checks the guardian PIN.
enum ChildFeedback {
    /// The player for child mode: sound through the chosen output, plus status lines when there
    /// is no screen. Returns a closer that flushes the output (a WAV file is written then).
    static func makePlayer(_ c: Context, child: Child, locale: String, quiet: Bool,
                           report: @escaping (String) -> Void) throws -> (any CuePlayer, () -> Void) {
        let (engine, note) = try c.feedbackEngine(defaultWav: c.defaultWavName("child"), resilient: true, report: report)
        if let note { c.console.error(c.text("cli.feedback.outputNote", ["note": ErrorText.notice(note, c.text)])) }
        do { try engine.warmUp(locales: [locale]) } catch { report(ErrorText.line(error, c.text)) }
        // This device's haptic stand-ins (`steppie haptics set`), as the service uses them.
        let haptics = DeviceHapticOutputs(try c.store().deviceHaptics())
        haptics.apply(to: engine)
        haptics.failures.forEach { report(ErrorText.line($0, c.text)) }
        let describe: (any Error) -> String = { [text = c.text] in ErrorText.line($0, text) }
        let recordings = RecordingCache(store: try c.store(), describe: describe, report: report)
        let sound = FeedbackCuePlayer(engine: engine, child: child, locale: locale, recordings: recordings,
                                      startupProbe: c.env.variables["STEPPIE_STARTUP_PROBE"], describe: describe, report: report)
        let player = CombinedCuePlayer([sound, StatusLinePlayer(c: c, text: c.messages(in: locale), locale: locale, printing: !quiet)])
        return (player, { do { try engine.output.close() } catch { report(ErrorText.line(error, c.text)) } })
    }

    /// Checks the PIN typed at the guardian gate, held to the same stored backoff as every
    /// other PIN attempt.
    static func verifyPin(_ pin: String, _ c: Context) -> Bool {
        guard (try? Validator.pin(pin)) != nil, let store = try? c.store(), let hasher = try? PasswordHasher(),
              let attempt = try? store.attemptUnlock(at: c.secureNow, verify: { hasher.verify(pin, against: $0) }) else { return false }
        if case .accepted = attempt { return true }
        return false
    }
}

/// Prints the on-screen line of every cue (for runs without a screen: pipes, CI, logs).
final class StatusLinePlayer: CuePlayer {
    private let c: Context
    /// The child's language, like the screen and the speech.
    private let text: Messages
    private let locale: String
    private let printing: Bool

    init(c: Context, text: Messages, locale: String, printing: Bool) {
        self.c = c
        self.text = text
        self.locale = locale
        self.printing = printing
    }

    func play(_ cue: ChildCue, plan: DayPlan, child: Child) {
        guard printing else { return }
        c.console.print(StatusLinePlayer.line(cue, plan: plan, text: text, locale: locale))
    }

    func update(child: Child) {}

    func dataChanged() {}

    static func line(_ cue: ChildCue, plan: DayPlan, text: Messages, locale: String) -> String {
        func title(_ id: UUID) -> String { plan.item(id)?.routine.title.resolve(chosen: locale, system: nil) ?? "" }
        switch cue {
        case .announce(let id): return text("child.status.announce", ["routineTitle": title(id)])
        case .completed(let id): return text("child.status.completed", ["routineTitle": title(id)])
        case .undone(let id): return text("child.status.undone", ["routineTitle": title(id)])
        case .next(let id): return text("child.status.next", ["routineTitle": title(id)])
        case .allDone: return text("child.status.allDone")
        case .reminder(let id, let minutes): return text("child.status.reminder", ["routineTitle": title(id), "minutes": String(minutes), "count": String(minutes)])
        case .setStartsAt(let t): return text("child.status.setStartsAt", ["time": t.description])
        case .error: return text("child.status.error")
        }
    }
}
