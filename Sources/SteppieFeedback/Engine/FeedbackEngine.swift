import Foundation
import SteppieCore
import SteppieLocalization

/// Renders a catalog key with typed arguments as the sentence to be *said* in a locale
/// (`tts.setStartsAt`, `["time": .time(07:30)]`, `ko` → `일곱 시 삼십 분에 시작해요.`), normally
/// `Localizer.spoken(_:locale:values:)`.
public typealias SpeechRenderer = @Sendable (_ key: String, _ values: [String: MessageValue], _ locale: String) -> String

/// The feedback engine: turns cues into sound, speech and haptics on an output, at once.
///
/// `@unchecked Sendable`: its mutable state is guarded by `lock` (a `CriticalSection`), which the
/// compiler cannot see, because the state is spread over the play path and espeak-ng's queue jobs
/// in three files and held across calls into the output; espeak-ng is owned by `SpeechSynthesizer`.
/// On a streaming output the lock is never held while waiting for espeak-ng's queue (the queue's
/// jobs take the lock to mix each chunk), so a press never waits for a synthesis.
public final class FeedbackEngine: @unchecked Sendable {
    /// Linear level of speech at full volume (espeak-ng's voice peaks near full scale).
    public static let speechLevel: Float = 0.6

    public let output: any AudioOutput
    public let sounds: SoundLibrary
    public let speech: SpeechSynthesizer
    let render: SpeechRenderer
    /// Pronunciation lexicons by language (`ko`, `en`), applied to every sentence spoken.
    let lexicons: [String: PronunciationLexicon]
    let log: @Sendable (FeedbackNotice) -> Void
    let lock = CriticalSection()
    // Guarded by `lock`.
    var playingPriority: SpeechPriority?
    private var effectCache: [EffectKey: [Float]] = [:]
    private var failedHaptics = Set<Int>()
    /// The haptic stand-ins and whether the audio pulse is mixed in (`setHaptics` changes them).
    private var haptics: [any HapticOutput]
    private var audioHaptics: Bool
    /// The sentence being synthesized into the output right now (streaming outputs), nil when none.
    /// Replacing it is what cuts it: its next chunk is refused and espeak-ng aborts.
    var active: ActiveSpeech?
    /// Less important cues waiting until the sentence in front of them has been synthesized whole.
    var waiting: [WaitingCue] = []
    /// Each cue's first sample and first speech sample, by ticket, for `latencies(of:)`.
    var markers: [Int: CueMarkers] = [:]
    private var nextTicket = 0
    /// espeak-ng calls whose failure in a streaming job was told (once each).
    var reportedSpeechFailures = Set<String>()

    /// An engine on `output` with preloaded `sounds`; `render` supplies the sentences.
    /// - Parameters:
    ///   - haptics: extra haptic outputs (force feedback, event log); the audio pulse is mixed in when `audioHaptics`.
    ///   - lexicons: pronunciation lexicons by language, see `PronunciationLexicon`.
    public init(output: any AudioOutput, sounds: SoundLibrary, speech: SpeechSynthesizer = .shared,
                render: @escaping SpeechRenderer, lexicons: [String: PronunciationLexicon] = [:],
                haptics: [any HapticOutput] = [], audioHaptics: Bool = true,
                log: @escaping @Sendable (FeedbackNotice) -> Void = FeedbackLog.standardError) {
        self.output = output; self.sounds = sounds; self.speech = speech; self.render = render; self.lexicons = lexicons
        self.haptics = haptics; self.audioHaptics = audioHaptics; self.log = log
    }

    /// Changes the haptic stand-ins while the engine runs (the device's setting changed): the
    /// next cue goes to `outputs` and mixes the audio pulse in only when `audioPulse`. A failing
    /// output is reported once again.
    public func setHaptics(_ outputs: [any HapticOutput], audioPulse: Bool) {
        lock.run {
            haptics = outputs
            audioHaptics = audioPulse
            failedHaptics.removeAll()
        }
    }

    /// Whether the audio pulse is mixed into cues.
    public var mixesAudioPulse: Bool { lock.run { audioHaptics } }

    /// The effective feedback of a child's profile (the intensity table with the profile on top).
    public static func effective(profile: FeedbackProfile) -> EffectiveFeedback {
        EffectiveFeedback(profile: profile)
    }

    /// Initializes espeak-ng and its voices so the first press is as fast as the rest.
    public func warmUp(locales: [String] = ["ko", "en"]) throws {
        try speech.warmUp(locales: locales)
    }

    /// Plays `cue` now: the non-speech part is written to the output first, then the speech is mixed in.
    ///
    /// A newer cue of equal or higher priority interrupts (flushes) what is playing, and the
    /// sentence still being synthesized for it is cut; a less important one waits until the
    /// current cue has ended. On a streaming output (PulseAudio) the speech is synthesized on
    /// espeak-ng's own queue and mixed in chunk by chunk as it comes, so the call returns at once
    /// and a synthesis failure is told through `log` (`FeedbackNotice.speechFailed`); on a timeline
    /// output (WAV, null) the speech is synthesized whole within the call, and a failure is thrown.
    @discardableResult
    public func play(_ cue: Cue, feedback: EffectiveFeedback, locale: String,
                     pressTime: UInt64 = Monotonic.now()) throws -> PlayReport {
        guard !cue.isSilent else {
            return PlayReport(pressTime: pressTime, decision: .wait, program: nil, ticket: nil, spokenText: nil)
        }
        let plan = cue.speech.map { speechPlan($0, feedback: feedback, locale: locale) }
        let offset = cue.speech.map { SampleFormat.samples($0.offset) } ?? 0
        return try lock.run { try playHoldingLock(cue, plan: plan, offset: offset, pressTime: pressTime) }
    }

    /// `play` once the lock is held.
    private func playHoldingLock(_ cue: Cue, plan: SpeechPlan?, offset: Int, pressTime: UInt64) throws -> PlayReport {
        nextTicket += 1
        let ticket = nextTicket
        let streaming = output.streamsSpeech
        let busy = output.isBusy || (streaming && (active != nil || !waiting.isEmpty))
        let decision = busy ? PlaybackDecision.decide(playing: playingPriority, new: cue.priority) : .interrupt
        let effects = nonSpeech(cue)
        if let pattern = cue.haptic { sendHaptics(pattern, event: cue.event) }
        let report = { (program: ProgramHandle?) in
            PlayReport(pressTime: pressTime, decision: decision, program: program, ticket: CueTicket(id: ticket),
                       spokenText: plan?.text)
        }
        guard streaming else {
            // A timeline output: the speech whole, now, so the timeline is the same every time.
            let program = output.startProgram(effects, interrupt: decision == .interrupt)
            if decision == .interrupt || playingPriority == nil { playingPriority = cue.priority }
            record(ticket, CueMarkers(firstSample: program.firstSample))
            if let plan {
                let samples = try speechSamples(plan).samples
                if !samples.isEmpty { markers[ticket]?.speech = output.mix(samples, into: program, offset: offset) }
            }
            return report(program)
        }
        record(ticket, CueMarkers())
        let pending = WaitingCue(ticket: ticket, effects: effects, speech: plan, offset: offset)
        if decision == .wait, active != nil || !waiting.isEmpty {
            // Where the sentence in front ends is known once it is synthesized whole.
            waiting.append(pending)
            return report(nil)
        }
        if decision == .interrupt {
            active = nil            // cuts the sentence in progress: its next chunk is refused
            waiting.removeAll()     // the flush drops what waited behind it, as it drops queued audio
            playingPriority = cue.priority
        } else if playingPriority == nil {
            playingPriority = cue.priority
        }
        return report(start(pending, interrupt: decision == .interrupt))
    }

    /// Synthesizes the speech of `cue` ahead of time (the likely next utterance), so `play` finds it cached.
    public func prepare(_ cue: Cue, feedback: EffectiveFeedback, locale: String) {
        guard let part = cue.speech, part.recording == nil else { return }
        let (text, phonemes) = speakable(render(part.key, part.values, locale), locale: locale)
        speech.prepare(text: text, settings: voice(feedback, locale: locale), phonemes: phonemes)
    }

    /// Renders the whole timeline of `cue` offline (for WAV output, previews and tests).
    public func renderToBuffer(_ cue: Cue, feedback: EffectiveFeedback, locale: String) throws -> RenderedCue {
        let effects = lock.run { nonSpeech(cue) }
        var mix = effects
        var speechRange: Range<Int>?
        var recordingRange: Range<Int>?
        var text: String?
        if let part = cue.speech {
            let spoken = try speechSamples(speechPlan(part, feedback: feedback, locale: locale))
            text = spoken.text
            if !spoken.samples.isEmpty {
                let at = SampleFormat.samples(part.offset)
                SampleFormat.mix(spoken.samples, into: &mix, at: at)
                speechRange = at..<(at + spoken.samples.count)
                recordingRange = spoken.recording.map { (at + $0.lowerBound)..<(at + $0.upperBound) }
            }
        }
        return RenderedCue(samples: mix.map(SampleFormat.limit), nonSpeech: effects.isEmpty ? nil : 0..<effects.count,
                           speech: speechRange, spokenText: text, recording: recordingRange)
    }

    /// The write times of a report's first cue sample and first speech sample, in seconds after
    /// the press; nil until written (speech is mixed in as it is synthesized, a waiting cue starts
    /// when the sentence in front of it is whole), and for good when it was cut before that.
    public func latencies(of report: PlayReport) -> (cue: Double?, speech: Double?) {
        let found = report.ticket.flatMap { ticket in lock.run { markers[ticket.id] } }
        func since(_ marker: SampleMarker?) -> Double? {
            guard let marker, let t = output.writeTime(of: marker), t >= report.pressTime else { return nil }
            return Double(t - report.pressTime) / 1e9
        }
        return (since(found?.firstSample ?? report.program?.firstSample), since(found?.speech))
    }

    /// True while a cue's speech is still being synthesized, a cue waits, or audio is queued on the output.
    public var isBusy: Bool {
        lock.run { active != nil || !waiting.isEmpty } || output.isBusy
    }

    // MARK: - pieces

    struct EffectKey: Hashable {
        var sounds: [SoundPlacement]
        var haptic: HapticPattern?
        var hapticGain: Double
    }

    /// Sound effects and the audio haptic pulse mixed (lock held).
    private func nonSpeech(_ cue: Cue) -> [Float] {
        let key = EffectKey(sounds: cue.sounds, haptic: audioHaptics ? cue.haptic : nil, hapticGain: cue.hapticGain)
        if let hit = effectCache[key] { return hit }
        var mix: [Float] = []
        for placement in cue.sounds {
            SampleFormat.mix(sounds.samples(placement.name), into: &mix, at: SampleFormat.samples(placement.offset),
                             gain: Float(placement.gain))
        }
        if let pattern = key.haptic {
            SampleFormat.mix(HapticAudio.render(pattern, gain: cue.hapticGain), into: &mix, at: 0)
        }
        if effectCache.count > 64 { effectCache.removeAll() }
        effectCache[key] = mix
        return mix
    }

    /// Keeps a cue's markers (lock held); the oldest go beyond 4096 cues.
    private func record(_ ticket: Int, _ cueMarkers: CueMarkers) {
        markers[ticket] = cueMarkers
        if markers.count > 4096, let oldest = markers.keys.min() { markers[oldest] = nil }
    }

    private func sendHaptics(_ pattern: HapticPattern, event: FeedbackEvent) {
        for (i, device) in haptics.enumerated() {
            do { try device.play(pattern, event: event) } catch {
                // One line per failing device, not one per press.
                if failedHaptics.insert(i).inserted { log(.hapticFailed(reason: String(describing: error))) }
            }
        }
    }
}
