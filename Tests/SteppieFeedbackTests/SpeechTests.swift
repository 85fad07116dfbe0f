import Testing
@testable import SteppieFeedback

@Suite struct SpeechTests {
    let synth = SpeechSynthesizer.shared
    let sentence = "Now it is time to brush your teeth, and then we eat breakfast."

    func seconds(_ text: String, locale: String = "en", rate: Double = 1) throws -> Double {
        Fixture.seconds(try synth.speak(text: text, locale: locale, rate: rate).count)
    }

    @Test func durationFallsAsRateRises() throws {
        let slow = try seconds(sentence, rate: 0.5)
        let normal = try seconds(sentence, rate: 1.0)
        let fast = try seconds(sentence, rate: 1.5)
        #expect(slow > normal * 1.5)
        #expect(normal > fast * 1.2)
    }

    @Test func belowEightyWordsPerMinuteWordGapsSlowDown() throws {
        let atMinimum = try synth.samples(text: sentence, settings: VoiceSettings(locale: "en", rate: 80 / 175))
        let slower = try synth.samples(text: sentence, settings: VoiceSettings(locale: "en", rate: 0.3))
        #expect(VoiceSettings(locale: "en", rate: 0.3).wordGap > 0)
        #expect(slower.count > atMinimum.count + SampleFormat.samples(0.5))
    }

    @Test func rmsFollowsVolume() throws {
        let full = AudioLevels(try synth.speak(text: sentence, locale: "en", volume: 1.0)).rms
        let half = AudioLevels(try synth.speak(text: sentence, locale: "en", volume: 0.5)).rms
        let quarter = AudioLevels(try synth.speak(text: sentence, locale: "en", volume: 0.25)).rms
        #expect(full > 0.01)
        #expect(abs(half / full - 0.5) < 0.02)
        #expect(abs(quarter / full - 0.25) < 0.02)
        #expect(try synth.speak(text: sentence, locale: "en", volume: 0).allSatisfy { $0 == 0 })
    }

    @Test func koreanAndEnglishHavePlausibleLength() throws {
        let ko = try seconds("오늘 할 일을 모두 끝냈어요.", locale: "ko")
        let en = try seconds("All routines are complete.", locale: "en")
        #expect((1.0...4.5).contains(ko), "Korean sentence lasted \(ko) s")
        #expect((1.0...3.5).contains(en), "English sentence lasted \(en) s")
        let koSamples = try synth.speak(text: "양치하기", locale: "ko")
        #expect(AudioLevels(koSamples).rms > 0.01)
    }

    @Test func markupIsSpokenLiterally() throws {
        // The same words with the markup characters replaced by the words espeak-ng reads for them.
        let ssml = try seconds(#"Wait <break time="9s"/> now"#)
        let ssmlSpelled = try seconds("Wait break time equals 9 s now")
        #expect(ssml < 5, "a 9 s break was obeyed: \(ssml) s")
        #expect(abs(ssml / ssmlSpelled - 1) < 0.5, "\(ssml) vs \(ssmlSpelled)")

        let phonemes = try seconds("Brush [[h@l'oU]] teeth")
        let spelled = try seconds("Brush h at l o U teeth")
        #expect(abs(phonemes / spelled - 1) < 0.5, "\(phonemes) vs \(spelled)")
        // Read as phonemes it would be "hello" (about 0.45 × as long as the spelled-out text).
        #expect(phonemes > spelled * 0.8)
        // The library without espeakPHONEMES already reads it literally (the espeak-ng command sets
        // that flag); the sanitizer's split brackets keep it so even if a flag ever slips in.
        let raw = try synth.samples(text: "Brush [[h@l'oU]] teeth", settings: VoiceSettings(locale: "en", rate: 1))
        #expect(Fixture.seconds(raw.count) > spelled * 0.8, "raw \(Fixture.seconds(raw.count)) vs \(spelled)")
    }

    @Test func emptyTextIsSilent() throws {
        #expect(try synth.speak(text: " \n ", locale: "en").isEmpty)
    }
}
