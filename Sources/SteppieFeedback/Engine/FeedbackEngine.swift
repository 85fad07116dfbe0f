import Foundation
import SteppieCore
import SteppieLocalization

/// Renders a catalog key with typed arguments as the sentence to be *said* in a locale
/// (`tts.setStartsAt`, `["time": .time(07:30)]`, `ko` → `일곱 시 삼십 분에 시작해요.`), normally
/// `Localizer.spoken(_:locale:values:)`.
public typealias SpeechRenderer = @Sendable (_ key: String, _ values: [String: MessageValue], _ locale: String) -> String

/// The feedback engine: turns cues into sound, speech and haptics on an output, at once.
///
/// `@unchecked Sendable`: its mutable state is guarded by `lock`; espeak-ng is owned by `SpeechSynthesizer`.
public final class FeedbackEngine: @unchecked Sendable {
    /// Linear level of speech at full volume (espeak-ng's voice peaks near full scale).
    public static let speechLevel: Float = 0.6

    public let output: any AudioOutput
    public let sounds: SoundLibrary
    public let speech: SpeechSynthesizer
    let render: SpeechRenderer
    /// Pronunciation lexicons by language (`ko`, `en`), applied to every sentence spoken.
    let lexicons: [String: PronunciationLexicon]
    private let log: @Sendable (FeedbackNotice) -> Void
    private let lock = NSLock()
    // Guarded by `lock`.
    private var playingPriority: SpeechPriority?
    private var effectCache: [EffectKey: [Float]] = [:]
    private var failedHaptics = Set<Int>()
    private var haptics: [any HapticOutput]
    private var audioHaptics: Bool

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
        lock.withLock {
            haptics = outputs
            audioHaptics = audioPulse
            failedHaptics.removeAll()
        }
    }

    /// Whether the audio pulse is mixed into cues.
    public var mixesAudioPulse: Bool { lock.withLock { audioHaptics } }

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
    /// A newer cue of equal or higher priority interrupts (flushes) what is playing; a less
    /// important one waits until the current cue has ended.
    @discardableResult
    public func play(_ cue: Cue, feedback: EffectiveFeedback, locale: String,
                     pressTime: UInt64 = Monotonic.now()) throws -> PlayReport {
        lock.lock()
        defer { lock.unlock() }
        guard !cue.isSilent else {
            return PlayReport(pressTime: pressTime, decision: .wait, program: nil, speech: nil, spokenText: nil)
        }
        let decision = output.isBusy ? PlaybackDecision.decide(playing: playingPriority, new: cue.priority) : .interrupt
        let effects = nonSpeech(cue)
        let program = output.startProgram(effects, interrupt: decision == .interrupt)
        if decision == .interrupt || playingPriority == nil { playingPriority = cue.priority }
        if let pattern = cue.haptic { sendHaptics(pattern, event: cue.event) }
        var marker: SampleMarker?
        var text: String?
        if let part = cue.speech {
            let spoken = try speechSamples(part, feedback: feedback, locale: locale)
            text = spoken.text
            let samples = spoken.samples
            if !samples.isEmpty {
                marker = output.mix(samples, into: program, offset: SampleFormat.samples(part.offset))
            }
        }
        return PlayReport(pressTime: pressTime, decision: decision, program: program, speech: marker, spokenText: text)
    }

    /// Synthesizes the speech of `cue` ahead of time (the likely next utterance), so `play` finds it cached.
    public func prepare(_ cue: Cue, feedback: EffectiveFeedback, locale: String) {
        guard let part = cue.speech, part.recording == nil else { return }
        let (text, phonemes) = speakable(render(part.key, part.values, locale), locale: locale)
        speech.prepare(text: text, settings: voice(feedback, locale: locale), phonemes: phonemes)
    }

    /// Renders the whole timeline of `cue` offline (for WAV output, previews and tests).
    public func renderToBuffer(_ cue: Cue, feedback: EffectiveFeedback, locale: String) throws -> RenderedCue {
        let effects = lock.withLock { nonSpeech(cue) }
        var mix = effects
        var speechRange: Range<Int>?
        var recordingRange: Range<Int>?
        var text: String?
        if let part = cue.speech {
            let spoken = try speechSamples(part, feedback: feedback, locale: locale)
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

    /// The write times of a report's first cue sample and first speech sample, in seconds after the press.
    public func latencies(of report: PlayReport) -> (cue: Double?, speech: Double?) {
        func since(_ marker: SampleMarker?) -> Double? {
            guard let marker, let t = output.writeTime(of: marker), t >= report.pressTime else { return nil }
            return Double(t - report.pressTime) / 1e9
        }
        return (since(report.program?.firstSample), since(report.speech))
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

    private func sendHaptics(_ pattern: HapticPattern, event: FeedbackEvent) {
        for (i, device) in haptics.enumerated() {
            do { try device.play(pattern, event: event) } catch {
                // One line per failing device, not one per press.
                if failedHaptics.insert(i).inserted { log(.hapticFailed(reason: String(describing: error))) }
            }
        }
    }
}
