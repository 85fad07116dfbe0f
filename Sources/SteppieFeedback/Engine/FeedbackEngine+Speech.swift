import Foundation
import SteppieLocalization

/// The speech of one cue: float samples at the profile's volume, the sentence, and where a recording sits.
struct SpokenSpeech {
    var samples: [Float]
    /// The sanitized sentence (a recorded argument shown as its text).
    var text: String
    /// Sample range of the guardian's recording within `samples`, nil when all was synthesized.
    var recording: Range<Int>?
}

/// How one cue's speech is made: its pieces in the order they are said, one voice, one gain.
struct SpeechPlan: Sendable {
    enum Piece: Sendable {
        /// Text for espeak-ng (sanitized, the lexicon applied).
        case synthesized(text: String, phonemes: Bool)
        /// A guardian's recording, at the speech gain.
        case recorded([Float])
    }

    var pieces: [Piece]
    var settings: VoiceSettings
    var gain: Float
    /// The sanitized sentence (a recorded argument shown as its text).
    var text: String
}

extension FeedbackEngine {
    /// The pieces of `part`: the sentence synthesized, or — with a recording whose argument appears
    /// in the sentence — the text before it synthesized, the recording, and the text after it synthesized.
    func speechPlan(_ part: SpeechPart, feedback: EffectiveFeedback, locale: String) -> SpeechPlan {
        let sentence = render(part.key, part.values, locale)
        let settings = voice(feedback, locale: locale)
        let gain = Float(feedback.speechVolume) * Self.speechLevel
        let shown = SpeechText.sanitize(sentence)
        // The recorded argument appears in the sentence in its spoken form.
        guard let recording = part.recording, let typed = part.values[recording.argument],
              case let value = SpokenForms.say(typed, locale: locale), !value.isEmpty,
              let range = sentence.range(of: value) else {
            let (text, phonemes) = speakable(sentence, locale: locale)
            return SpeechPlan(pieces: [.synthesized(text: text, phonemes: phonemes)], settings: settings, gain: gain, text: shown)
        }
        var pieces: [SpeechPlan.Piece] = []
        // Pieces with nothing to say (only punctuation or spaces) are silent.
        func add(_ text: Substring) {
            guard text.contains(where: { $0.isLetter || $0.isNumber }) else { return }
            let (clean, phonemes) = speakable(String(text), locale: locale)
            pieces.append(.synthesized(text: clean, phonemes: phonemes))
        }
        add(sentence[..<range.lowerBound])
        pieces.append(.recorded(recording.samples.map { $0 * gain }))
        add(sentence[range.upperBound...])
        return SpeechPlan(pieces: pieces, settings: settings, gain: gain, text: shown)
    }

    /// The whole speech of `plan`, synthesized now (offline rendering and timeline outputs).
    func speechSamples(_ plan: SpeechPlan) throws -> SpokenSpeech {
        var samples: [Float] = []
        var recording: Range<Int>?
        for piece in plan.pieces {
            switch piece {
            case let .synthesized(text, phonemes):
                samples += SampleFormat.toFloat(try speech.samples(text: text, settings: plan.settings, phonemes: phonemes),
                                                gain: plan.gain)
            case let .recorded(recorded):
                recording = samples.count..<(samples.count + recorded.count)
                samples += recorded
            }
        }
        return SpokenSpeech(samples: samples, text: plan.text, recording: recording)
    }

    /// The whole speech of `plan` when every synthesized piece is cached already (a prepared
    /// announcement), nil otherwise; never waits for espeak-ng's queue.
    func cachedSpeech(_ plan: SpeechPlan) -> [Float]? {
        var samples: [Float] = []
        for piece in plan.pieces {
            switch piece {
            case let .synthesized(text, phonemes):
                guard let hit = speech.cached(text: text, settings: plan.settings, phonemes: phonemes) else { return nil }
                samples += SampleFormat.toFloat(hit, gain: plan.gain)
            case let .recorded(recorded):
                samples += recorded
            }
        }
        return samples
    }

    /// Sanitized text with the locale's lexicon applied, and whether phoneme input must be on.
    func speakable(_ text: String, locale: String) -> (text: String, phonemes: Bool) {
        let clean = SpeechText.sanitize(text)
        guard let lexicon = lexicons[VoiceSettings.language(of: locale)] else { return (clean, false) }
        let applied = lexicon.apply(to: clean)
        return (applied.text, applied.usesPhonemes)
    }

    func voice(_ feedback: EffectiveFeedback, locale: String) -> VoiceSettings {
        VoiceSettings(locale: locale, rate: feedback.speechRate, pitch: feedback.pitch, variant: feedback.voiceVariant)
    }
}
