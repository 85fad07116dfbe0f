import Foundation
import SteppieCore
import SteppieFeedback

/// Plays child mode's cues through the feedback engine, shaped by the child's profile, and
/// prepares the likely next announcement ahead of time.
public final class FeedbackCuePlayer: CuePlayer {
    private let engine: FeedbackEngine
    private var feedback: EffectiveFeedback
    private var locale: String
    private let report: (String) -> Void
    private let recordings: RecordingCache?
    private var reported = Set<String>()
    /// `STEPPIE_STARTUP_PROBE`: a file that receives the monotonic time (ns) at which the first
    /// sample of the first cue was written to the output, for the start-up benchmark.
    private var startupProbe: String?
    private let describe: (any Error) -> String

    /// A player on `engine`; with `recordings`, a routine's recorded title replaces the synthesized one.
    /// `describe` says a fault in the user's language (the command line's error text); by default
    /// the error's own description.
    public init(engine: FeedbackEngine, child: Child, locale: String, recordings: RecordingCache? = nil,
         startupProbe: String? = nil, describe: @escaping (any Error) -> String = { String(describing: $0) },
         report: @escaping (String) -> Void) {
        self.engine = engine
        self.describe = describe
        self.recordings = recordings
        self.startupProbe = startupProbe
        self.feedback = EffectiveFeedback(profile: child.profile)
        self.locale = locale
        self.report = report
    }

    public func update(child: Child) {
        feedback = EffectiveFeedback(profile: child.profile)
        if let l = child.profile.locale { locale = l }
    }

    /// A guardian may have attached or removed a recording: read the rows again (off the press path).
    public func dataChanged() { recordings?.reload() }

    public func play(_ cue: ChildCue, plan: DayPlan, child: Child) {
        let (event, context) = Self.translate(cue, plan: plan, locale: locale)
        var engineCue = Cue.make(event, context: context, feedback: feedback)
        if let id = Self.routineId(cue), let recording = recordings?.recording(routineId: id, locale: locale) {
            engineCue.speech?.recording = recording
        }
        do {
            let played = try engine.play(engineCue, feedback: feedback, locale: locale)
            if let probe = startupProbe, let first = played.program?.firstSample {
                startupProbe = nil
                Self.recordFirstSample(first, of: engine.output, to: probe)
            }
        } catch {
            // A voice or sound fault must not stop the routine: report it once, go on.
            let line = describe(error)
            if reported.insert(line).inserted { report(line) }
        }
        // After a completion the next card is usually announced next: synthesize it now.
        if case .completed = cue, let next = plan.current {
            let title = next.routine.title.resolve(chosen: locale, system: nil)
            engine.prepare(Cue.make(.next, context: CueContext(routineTitle: title), feedback: feedback), feedback: feedback, locale: locale)
        }
    }

    /// Waits in the background until `marker` has been written, then writes its time to `path`.
    static func recordFirstSample(_ marker: SampleMarker, of output: any AudioOutput, to path: String) {
        let thread = Thread {
            let deadline = Monotonic.now() + 5_000_000_000
            while Monotonic.now() < deadline {
                if let written = output.writeTime(of: marker) {
                    try? Data("\(written)\n".utf8).write(to: URL(fileURLWithPath: path))
                    return
                }
                usleep(200)
            }
        }
        thread.start()
    }

    /// The routine a cue speaks about, nil for cues without a routine title.
    static func routineId(_ cue: ChildCue) -> UUID? {
        switch cue {
        case .announce(let id), .completed(let id), .undone(let id), .next(let id), .reminder(let id, _): id
        case .allDone, .setStartsAt, .error: nil
        }
    }

    /// The feedback engine's event and arguments for a child-mode cue.
    public static func translate(_ cue: ChildCue, plan: DayPlan, locale: String) -> (FeedbackEvent, CueContext) {
        func title(_ id: UUID) -> String? { plan.item(id)?.routine.title.resolve(chosen: locale, system: nil) }
        let done = plan.completedCount, total = plan.total
        switch cue {
        case .announce(let id): return (.announce, CueContext(routineTitle: title(id), completed: done, total: total))
        case .completed(let id): return (.completed, CueContext(routineTitle: title(id), completed: done, total: total))
        case .undone(let id): return (.undone, CueContext(routineTitle: title(id), completed: done, total: total))
        case .next(let id): return (.next, CueContext(routineTitle: title(id), completed: done, total: total))
        case .allDone: return (.allDone, CueContext(completed: done, total: total))
        case .reminder(let id, let minutes): return (.reminder, CueContext(routineTitle: title(id), minutes: minutes))
        case .setStartsAt(let time): return (.setStartsAt, CueContext(time: time.description))
        case .error: return (.error, CueContext())
        }
    }
}

/// Several players at once (sound and status lines).
public final class CombinedCuePlayer: CuePlayer {
    private let players: [any CuePlayer]
    public init(_ players: [any CuePlayer]) { self.players = players }
    public func play(_ cue: ChildCue, plan: DayPlan, child: Child) { players.forEach { $0.play(cue, plan: plan, child: child) } }
    public func update(child: Child) { players.forEach { $0.update(child: child) } }
    public func dataChanged() { players.forEach { $0.dataChanged() } }
}
