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

extension FeedbackEngine {
    /// The speech of `part`: synthesized, or — with a recording whose argument appears in the
    /// sentence — the text before it synthesized, the recording, and the text after it synthesized.
    func speechSamples(_ part: SpeechPart, feedback: EffectiveFeedback, locale: String) throws -> SpokenSpeech {
        let sentence = render(part.key, part.values, locale)
        let settings = voice(feedback, locale: locale)
        let gain = Float(feedback.speechVolume) * Self.speechLevel
        let shown = SpeechText.sanitize(sentence)
        // The recorded argument appears in the sentence in its spoken form.
        guard let recording = part.recording, let typed = part.values[recording.argument],
              case let value = SpokenForms.say(typed, locale: locale), !value.isEmpty,
              let range = sentence.range(of: value) else {
            let (text, phonemes) = speakable(sentence, locale: locale)
            let raw = try speech.samples(text: text, settings: settings, phonemes: phonemes)
            return SpokenSpeech(samples: SampleFormat.toFloat(raw, gain: gain), text: shown, recording: nil)
        }
        var samples = try synthesizedPiece(String(sentence[..<range.lowerBound]), settings: settings, locale: locale, gain: gain)
        let start = samples.count
        samples += recording.samples.map { $0 * gain }
        let end = samples.count
        samples += try synthesizedPiece(String(sentence[range.upperBound...]), settings: settings, locale: locale, gain: gain)
        return SpokenSpeech(samples: samples, text: shown, recording: start..<end)
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

    /// A piece of a split sentence; pieces with nothing to say (only punctuation or spaces) are silent.
    private func synthesizedPiece(_ text: String, settings: VoiceSettings, locale: String, gain: Float) throws -> [Float] {
        guard text.contains(where: { $0.isLetter || $0.isNumber }) else { return [] }
        let (clean, phonemes) = speakable(text, locale: locale)
        return SampleFormat.toFloat(try speech.samples(text: clean, settings: settings, phonemes: phonemes), gain: gain)
    }
}
