import Testing
@testable import SteppieFeedback

@Suite struct SpeechTextTests {
    @Test func phonemeBracketsAreBroken() {
        #expect(SpeechText.sanitize("Say [[h@l'oU]] now") == "Say [ [h@l'oU] ] now")
        #expect(SpeechText.sanitize("[[[x]]]") == "[ [ [x] ] ]")
        #expect(!SpeechText.sanitize("a[[b").contains("[["))
    }

    @Test func controlCharactersAndWhitespace() {
        #expect(SpeechText.sanitize("  Brush\n\tteeth\u{0007}\u{200B} now  ") == "Brush teeth now")
        #expect(SpeechText.sanitize("<break time=\"9s\"/>") == "<break time=\"9s\"/>")
    }

    @Test func longTextIsCutAtAWordBoundary() {
        let long = Array(repeating: "word", count: 200).joined(separator: " ")
        let cut = SpeechText.sanitize(long)
        #expect(cut.count <= SpeechText.maxCharacters)
        #expect(cut.count > SpeechText.maxCharacters - 6)
        #expect(cut.hasSuffix("word"))
        let unbroken = String(repeating: "가", count: 500)
        #expect(SpeechText.sanitize(unbroken).count == SpeechText.maxCharacters)
    }

    @Test func voiceSettingsMapRate() {
        #expect(VoiceSettings(locale: "en-US", rate: 1).wordsPerMinute == 175)
        #expect(VoiceSettings(locale: "ko_KR", rate: 1.5).voice == "ko")
        #expect(VoiceSettings(locale: "en", rate: 1.5).wordsPerMinute == 263)
        let slow = VoiceSettings(locale: "en", rate: 0.45)
        #expect(slow.wordsPerMinute == 80 && slow.wordGap >= 1)
        #expect(VoiceSettings(locale: "en", rate: 0.5).wordGap == 0)
        #expect(VoiceSettings(locale: "en", rate: 1, variant: "f3").voice == "en+f3")
        #expect(VoiceSettings(locale: "en", rate: 1, variant: "f3 [[x]]").voice == "en")
        #expect(VoiceSettings(locale: "", rate: 1).voice == "ko")
    }
}
