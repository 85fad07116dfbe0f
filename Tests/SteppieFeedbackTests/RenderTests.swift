import Testing
import SteppieCore
@testable import SteppieFeedback

@Suite struct RenderTests {
    let engine = Fixture.engine()
    let context = CueContext(routineTitle: "Brush teeth", completed: 2, total: 5)

    func rendered(_ intensity: FeedbackIntensity, _ event: FeedbackEvent = .completed) throws -> RenderedCue {
        let feedback = Fixture.feedback(intensity)
        return try engine.renderToBuffer(Cue.make(event, context: context, feedback: feedback), feedback: feedback, locale: "en")
    }

    @Test func completedLoudnessDecreasesStrongToOff() throws {
        let levels = try [FeedbackIntensity.strong, .normal, .quiet].map { AudioLevels(try rendered($0).samples) }
        for (a, b) in zip(levels, levels.dropFirst()) {
            #expect(a.rms > b.rms, "RMS \(a.rms) !> \(b.rms)")
            #expect(a.peak > b.peak, "peak \(a.peak) !> \(b.peak)")
        }
        let off = try rendered(.off)
        #expect(off.samples.allSatisfy { $0 == 0 })
    }

    @Test(arguments: FeedbackEvent.allCases)
    func nonSpeechPartIsEarlyAndShort(event: FeedbackEvent) throws {
        for intensity in [FeedbackIntensity.strong, .normal, .quiet] {
            let r = try rendered(intensity, event)
            guard let part = r.nonSpeech else { continue }
            let audible = try #require(Fixture.audibleSpan(Array(r.samples[part])))
            #expect(Fixture.seconds(audible.lowerBound) <= 0.4)
            #expect(Fixture.seconds(audible.upperBound) <= 1.5)
        }
    }

    @Test(arguments: [FeedbackIntensity.strong, .normal, .quiet])
    func nothingReachesFullScaleAndOnsetsAreSoft(intensity: FeedbackIntensity) throws {
        for event in FeedbackEvent.allCases {
            let r = try rendered(intensity, event)
            let peak = AudioLevels(r.samples).peak
            #expect(peak < Double(SampleFormat.ceiling))
            #expect(r.int16.allSatisfy { $0 != .max && $0 != .min })
            if let part = r.nonSpeech {
                let ramp = try #require(Fixture.onsetRampMs(Array(r.samples[part])))
                #expect(ramp >= 5, "\(event) at \(intensity): onset ramp \(ramp) ms")
            }
        }
    }

    @Test func everySoundIsModerate() {
        for name in SoundName.allCases {
            let s = Fixture.sounds.samples(name)
            #expect(!s.isEmpty)
            #expect(AudioLevels(s).peakDBFS <= -6, "\(name) peak \(AudioLevels(s).peakDBFS) dBFS")
            #expect(Fixture.seconds(s.count) <= 1.5)
            #expect((Fixture.onsetRampMs(s) ?? 0) >= 5, "\(name)")
        }
    }

    @Test func volumeCapLowersEverything() throws {
        var p = FeedbackProfile()
        p.intensity = .strong
        p.volumeCap = 0.5
        let capped = EffectiveFeedback(profile: p)
        let r = try engine.renderToBuffer(Cue.make(.completed, context: context, feedback: capped), feedback: capped, locale: "en")
        let full = try rendered(.strong)
        #expect(AudioLevels(r.samples).peak < AudioLevels(full.samples).peak * 0.6)
    }

    @Test func speechFollowsTheSoundAndIsRendered() throws {
        let r = try rendered(.strong)
        #expect(r.spokenText == "Well done! Brush teeth is finished.")
        let speech = try #require(r.speech)
        #expect(abs(Fixture.seconds(speech.lowerBound) - 0.35) < 0.001)
        let quiet = try rendered(.quiet)
        #expect(quiet.spokenText == "Done.")
        #expect(quiet.duration < r.duration)
    }
}
