import Testing
import SteppieCore
@testable import SteppieFeedback

@Suite struct ProfileTests {
    @Test func presetsDecreaseStrongToOff() {
        let rows = FeedbackIntensity.allCases.map { FeedbackPreset.preset(for: $0) }
        #expect(rows.map(\.intensity) == [.strong, .normal, .quiet, .off])
        for (a, b) in zip(rows, rows.dropFirst()) {
            #expect(a.soundGain > b.soundGain)
            #expect(a.speechVolume > b.speechVolume)
        }
    }

    @Test func specTableIsTheStartingPoint() {
        #expect(FeedbackPreset.preset(for: .normal) == FeedbackPreset(
            intensity: .normal, speech: true, verbosity: .full, speechVolume: 0.8, speechRate: 1.0,
            soundStyle: .single, soundGain: 0.7, haptic: .light))
        #expect(FeedbackPreset.preset(for: .quiet).verbosity == .short)
        #expect(FeedbackPreset.preset(for: .quiet).speechRate == 0.9)
    }

    @Test func profileAppliesOnTop() {
        var p = FeedbackProfile()
        p.intensity = .strong
        p.ttsVolume = 0.5
        p.ttsRate = 1.2
        p.volumeCap = 0.8
        p.pitch = 60
        p.voiceVariant = "f3"
        let e = FeedbackEngine.effective(profile: p)
        #expect(abs(e.speechVolume - 0.4) < 1e-9)
        #expect(abs(e.speechRate - 1.2) < 1e-9)
        #expect(abs(e.soundGain - 0.8) < 1e-9)
        #expect(e.haptic == .medium)
        #expect(e.pitch == 60 && e.voiceVariant == "f3")
    }

    @Test func togglesAndOff() {
        var p = FeedbackProfile()
        p.soundEnabled = false
        p.hapticEnabled = false
        let e = EffectiveFeedback(profile: p)
        #expect(e.soundStyle == .none && e.soundGain == 0 && e.haptic == nil && e.speech)
        p = FeedbackProfile()
        p.intensity = .off
        let off = EffectiveFeedback(profile: p)
        #expect(!off.speech && off.speechVolume == 0 && off.soundGain == 0 && off.haptic == nil)
    }

    @Test func outOfRangeValuesAreClamped() {
        var p = FeedbackProfile()
        p.ttsRate = 9
        p.ttsVolume = -1
        p.volumeCap = .nan
        p.pitch = 500
        let e = EffectiveFeedback(profile: p)
        #expect(e.speechRate == 1.5 * 1.0)
        #expect(e.speechVolume == 0)
        #expect(e.volumeCap == 0)
        #expect(e.pitch == 99)
    }
}
