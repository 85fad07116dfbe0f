import Foundation
import Testing
import SteppieCore
@testable import SteppieFeedback

/// A guardian's recording speaks the routine title inside the catalog sentence.
@Suite struct RecordedSpeechTests {
    static func tone(hz: Double, seconds: Double) -> [Float] {
        (0..<SampleFormat.samples(seconds)).map { Float(sin(2 * Double.pi * hz * Double($0) / Double(SampleFormat.rate))) }
    }

    /// Power at `hz` relative to the total power of `s` (Goertzel), 0…1.
    static func toneShare(_ s: ArraySlice<Float>, hz: Double) -> Double {
        guard !s.isEmpty else { return 0 }
        let w = 2 * Double.pi * hz / Double(SampleFormat.rate)
        var (q1, q2) = (0.0, 0.0)
        for x in s { let q0 = 2 * cos(w) * q1 - q2 + Double(x); q2 = q1; q1 = q0 }
        let power = q1 * q1 + q2 * q2 - 2 * cos(w) * q1 * q2
        let energy = s.reduce(0.0) { $0 + Double($1) * Double($1) }
        return energy > 0 ? power / (energy * Double(s.count) / 2) : 0
    }

    @Test(arguments: [FeedbackEvent.announce, .completed, .next, .undone, .reminder])
    func theRecordingReplacesTheSynthesizedTitle(event: FeedbackEvent) throws {
        let engine = Fixture.engine()
        let feedback = Fixture.feedback(.normal)
        let context = CueContext(routineTitle: "Brush teeth", minutes: 5, completed: 1, total: 3)
        let synthesized = try engine.renderToBuffer(Cue.make(event, context: context, feedback: feedback), feedback: feedback, locale: "en")
        var cue = Cue.make(event, context: context, feedback: feedback)
        let tone = Self.tone(hz: 880, seconds: 1.5)
        cue.speech?.recording = PrerecordedSpeech(samples: PrerecordedSpeech.normalized(tone))
        let recorded = try engine.renderToBuffer(cue, feedback: feedback, locale: "en")
        let range = try #require(recorded.recording)
        #expect(range.count == tone.count)
        #expect(Self.toneShare(recorded.samples[range], hz: 880) > 0.9)
        // Outside the recording there is speech but no tone.
        let speech = try #require(recorded.speech)
        #expect(Self.toneShare(recorded.samples[speech.lowerBound..<range.lowerBound], hz: 880) < 0.05)
        // The synthesized "Brush teeth" is gone: the length changed by the tone minus the title.
        let titleAlone = Fixture.seconds(try SpeechSynthesizer.shared.samples(text: "Brush teeth", settings: VoiceSettings(locale: "en", rate: 1)).count)
        // espeak-ng pads a sentence split at the title a little differently (a few hundred ms at most).
        #expect(recorded.duration > synthesized.duration + 1.5 - titleAlone - 0.5)
        #expect(recorded.duration < synthesized.duration + 1.5 + 0.6)
        #expect(recorded.spokenText == synthesized.spokenText)
        #expect(Self.toneShare(synthesized.samples[...], hz: 880) < 0.05)
    }

    @Test func withoutTheTitleInTheSentenceTheRecordingIsNotPlayed() throws {
        let engine = Fixture.engine()
        let feedback = Fixture.feedback(.normal)
        var cue = Cue.make(.allDone, context: CueContext(completed: 3, total: 3), feedback: feedback)
        cue.speech?.recording = PrerecordedSpeech(samples: Self.tone(hz: 880, seconds: 1))
        let r = try engine.renderToBuffer(cue, feedback: feedback, locale: "en")
        #expect(r.recording == nil)
        #expect(r.spokenText == "All routines are complete.")
    }

    @Test func normalizedPeaksAtOneWithFadedEnds() {
        let n = PrerecordedSpeech.normalized(Self.tone(hz: 440, seconds: 0.5).map { $0 * 0.2 })
        #expect(abs((n.map { abs($0) }.max() ?? 0) - 1) < 0.01)
        #expect(n.first == 0 && n.last == 0)
    }
}
