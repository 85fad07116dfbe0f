import Testing
@testable import SteppieCore

@Suite struct LocalizedTextTests {
    let text = LocalizedText(["ko": "양치하기", "en-US": "Brush teeth", "ja": "歯みがき"])

    @Test func chosenLocaleWinsThenSystemThenKorean() {
        #expect(text.resolve(chosen: "en", system: "ja") == "Brush teeth")     // language prefix of en-US
        #expect(text.resolve(chosen: "fr", system: "ja_JP.UTF-8") == "歯みがき")  // system, `_` read as `-`
        #expect(text.resolve(chosen: "fr", system: "de") == "양치하기")          // ko
        #expect(text.resolve(chosen: nil, system: nil) == "양치하기")
        #expect(text.resolve(chosen: "EN-us", system: nil) == "Brush teeth")  // case-insensitive exact tag
    }

    @Test func firstValueWhenNeitherChosenNorKoreanExists() {
        let t = LocalizedText(["fr": "Se brosser", "en": ""])
        #expect(t.resolve(chosen: "en", system: nil) == "Se brosser")  // empty values do not count
    }

    @Test func exactTagBeatsPrefix() {
        let t = LocalizedText(["en": "Color", "en-GB": "Colour"])
        #expect(t.resolve(chosen: "en-GB", system: nil) == "Colour")
        #expect(t.resolve(chosen: "en-AU", system: nil) == "Color")
    }

    @Test func systemLocaleFollowsPosixPrecedence() {
        #expect(LocaleFallback.systemLocale(environment: ["LANG": "en_US.UTF-8", "LC_ALL": "ko_KR.UTF-8"]) == "ko_KR.UTF-8")
        #expect(LocaleFallback.systemLocale(environment: ["LANG": "en_US.UTF-8", "LC_MESSAGES": "C"]) == "en_US.UTF-8")
        #expect(LocaleFallback.systemLocale(environment: ["LANG": "C"]) == nil)
    }
}
