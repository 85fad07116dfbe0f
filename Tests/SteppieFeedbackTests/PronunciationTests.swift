import SteppieLocalization
import Foundation
import Testing
import SteppieCore
@testable import SteppieFeedback

@Suite struct PronunciationTests {
    func parse(_ json: String) throws(PronunciationError) -> PronunciationLexicon {
        try PronunciationLexicon.parse(Data(json.utf8), file: "en.json")
    }

    @Test func wholeWordsAreReplacedIgnoringCase() throws {
        let lexicon = try parse(#"{"Steppie": "st'Epi:", "TV": "t'i:v'i:", "스테피": "s'u-theph,i"}"#)
        #expect(lexicon.apply(to: "Hello steppie!").text == "Hello [[st'Epi:]]!")
        #expect(lexicon.apply(to: "Steppies and TVs").usesPhonemes == false)
        #expect(lexicon.apply(to: "스테피를 불러요").text == "[[s'u-theph,i]]를 불러요")
        #expect(lexicon.apply(to: "스테피랑놀기").usesPhonemes == false)
        // Brackets next to an inserted segment never join it into a longer bracket run.
        #expect(lexicon.apply(to: "[ [TV] ]").text == "[ [ [[t'i:v'i:]] ] ]")
        #expect(PronunciationLexicon().apply(to: "TV") == ("TV", false))
    }

    @Test(arguments: [
        (#"[1, 2]"#, PronunciationError.malformed(file: "en.json", reason: "must be one JSON object")),
        (#"{"TV": 3}"#, .malformed(file: "en.json", reason: "the value of \"TV\" must be a string")),
        (#"{"two words": "tu:"}"#, .invalidWord(file: "en.json", word: "two words")),
        (#"{"TV": "[[t'i:]]"}"#, .invalidPhonemes(file: "en.json", word: "TV", phonemes: "[[t'i:]]")),
        (#"{"TV": " "}"#, .invalidPhonemes(file: "en.json", word: "TV", phonemes: " ")),
        (#"{"TV": "t'i:", "tv": "t'i:"}"#, .duplicateWord(file: "en.json", word: "tv")),
        ("{", .malformed(file: "en.json", reason: "not valid JSON")),
    ])
    func invalidEntriesAreReported(json: String, expected: PronunciationError) {
        #expect(throws: expected) { try parse(json) }
    }

    @Test func theShippedLexiconsLoad() throws {
        let all = try PronunciationLexicon.loadAll(directory: URL(fileURLWithPath: Fixture.root + "/Pronunciation"))
        #expect(Set(all.keys) == ["ko", "en"])
        #expect(all["ko"]?.entries["Steppie"] != nil)
    }

    /// The lexicon entry changes what is heard, while a title typed with `[[…]]` stays literal
    /// even though phoneme input is on for the sentence.
    @Test func lexiconChangesTheAudioButUserBracketsStayLiteral() throws {
        let render: SpeechRenderer = { _, values, _ in "Steppie says \(values["routineTitle"]?.written ?? "")." }
        let lexicon = try parse(#"{"Steppie": "b'u:"}"#)
        let plain = FeedbackEngine(output: NullOutput(), sounds: Fixture.sounds, render: render, log: { _ in })
        let fixed = FeedbackEngine(output: NullOutput(), sounds: Fixture.sounds, render: render,
                                   lexicons: ["en": lexicon], log: { _ in })
        let feedback = Fixture.feedback(.normal)
        func seconds(_ engine: FeedbackEngine, _ title: String) throws -> (Double, [Float]) {
            let cue = Cue.make(.announce, context: CueContext(routineTitle: title), feedback: feedback)
            let r = try engine.renderToBuffer(cue, feedback: feedback, locale: "en")
            return (r.duration, r.samples)
        }
        let (plainHello, plainSamples) = try seconds(plain, "hello")
        let (fixedHello, fixedSamples) = try seconds(fixed, "hello")
        #expect(plainSamples != fixedSamples)
        #expect(plainHello - fixedHello > 0.1, "Steppie \(plainHello) s vs b'u: \(fixedHello) s")
        // With phoneme input on, "[[h@l'oU]]" read as phonemes would be as short as "hello";
        // read literally (brackets and letters) it is much longer.
        let (fixedBrackets, _) = try seconds(fixed, "[[h@l'oU]]")
        let (plainBrackets, _) = try seconds(plain, "[[h@l'oU]]")
        #expect(fixedBrackets > fixedHello + 0.4, "brackets \(fixedBrackets) s vs hello \(fixedHello) s")
        #expect(abs((plainBrackets - plainHello) - (fixedBrackets - fixedHello)) < 0.25)
    }
}
