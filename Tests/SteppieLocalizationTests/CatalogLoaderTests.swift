import Foundation
import Testing
@testable import SteppieLocalization

@Suite struct CatalogLoaderTests {
    @Test func mergesEveryFileOfALocaleIncludingCli() throws {
        let dir = try TempDirectory()
        try dir.write("ko/tts.json", #"{"tts.allDone": "오늘 할 일을 모두 끝냈어요."}"#)
        try dir.write("ko/cli.json", #"{"cli.help.title": "도움말"}"#)
        try dir.write("en/child.json", #"{"child.remaining": {"one": "1 activity left", "other": "{count} activities left"}}"#)
        try dir.write("en/notes.txt", "not a catalog")
        try dir.write("ko/.hidden.json", "{ broken")
        let set = try CatalogSet.load(directory: dir.url)
        #expect(set.locales == ["en", "ko"])
        #expect(set["ko"]?.keys == ["cli.help.title", "tts.allDone"])
        #expect(set["ko"]?.files["cli.help.title"] == "ko/cli.json")
        #expect(set["en"]?["child.remaining"]?.placeholderNames == ["count"])
    }

    @Test func duplicateKeyNamesBothFiles() throws {
        let dir = try TempDirectory()
        try dir.write("ko/a.json", #"{"tts.allDone": "하나"}"#)
        try dir.write("ko/b.json", #"{"tts.allDone": "둘"}"#)
        #expect(throws: CatalogLoadError.duplicateKey(key: "tts.allDone", firstFile: "ko/a.json", secondFile: "ko/b.json")) {
            try CatalogSet.load(directory: dir.url)
        }
    }

    @Test func malformedJSONNamesTheFile() throws {
        let dir = try TempDirectory()
        try dir.write("en/tts.json", #"{"tts.allDone": "All done""#)
        do {
            _ = try CatalogSet.load(directory: dir.url)
            Issue.record("expected an error")
        } catch {
            guard case .malformedJSON(let file, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(file == "en/tts.json")
        }
    }

    @Test func topLevelMustBeAnObject() throws {
        let dir = try TempDirectory()
        try dir.write("en/tts.json", #"["tts.allDone"]"#)
        #expect(throws: CatalogLoadError.malformedJSON(file: "en/tts.json", reason: "the top level is not an object")) {
            try CatalogSet.load(directory: dir.url)
        }
    }

    @Test(arguments: ["Tts.allDone", "tts", "tts..x", "tts.all-done", "tts.1st", "tts.allDone.", "child.Complete"])
    func badKeysAreRejected(_ key: String) throws {
        let dir = try TempDirectory()
        try dir.write("en/x.json", "{\"\(key)\": \"text\"}")
        #expect(throws: CatalogLoadError.badKey(file: "en/x.json", key: key)) {
            try CatalogSet.load(directory: dir.url)
        }
    }

    @Test func goodKeysAreAccepted() {
        for key in ["tts.allDone", "child.complete.button", "template.morning.wake_up", "a11y.card.current"] {
            #expect(CatalogKey.isValid(key), "\(key)")
        }
    }

    @Test func badPlaceholderSyntaxIsReported() throws {
        let dir = try TempDirectory()
        try dir.write("ko/tts.json", #"{"tts.next": "다음은 {routineTitle"}"#)
        #expect(throws: CatalogLoadError.badPlaceholder(file: "ko/tts.json", key: "tts.next",
                                                        error: TemplateSyntaxError(.unclosedPlaceholder, at: 4))) {
            try CatalogSet.load(directory: dir.url)
        }
    }

    @Test func badEntriesAreReported() throws {
        let cases: [(String, String)] = [
            (#"{"a.b": 3}"#, "the value must be a string or an object of plural forms"),
            (#"{"a.b": {"one": "x"}}"#, "a plural object needs at least an \"other\" form"),
            (#"{"a.b": {"other": "x", "few": "y"}}"#, "unknown plural form \"few\" (use \"one\" and \"other\")"),
            (#"{"a.b": {"other": 2}}"#, "plural form \"other\" must be a string"),
        ]
        for (json, reason) in cases {
            let dir = try TempDirectory()
            try dir.write("en/a.json", json)
            #expect(throws: CatalogLoadError.badEntry(file: "en/a.json", key: "a.b", reason: reason)) {
                try CatalogSet.load(directory: dir.url)
            }
        }
    }

    @Test func missingDirectoryIsReported() throws {
        let dir = try TempDirectory()
        let missing = dir.url.appendingPathComponent("nope")
        #expect(throws: CatalogLoadError.directoryMissing(path: missing.path)) {
            try CatalogSet.load(directory: missing)
        }
    }

    @Test func errorsReadWell() {
        let error = CatalogLoadError.duplicateKey(key: "tts.allDone", firstFile: "ko/a.json", secondFile: "ko/b.json")
        #expect(error.description == "Key \"tts.allDone\" is defined in both ko/a.json and ko/b.json; keep one.")
    }

    @Test func realCatalogsLoad() throws {
        let set = try CatalogSet.load(directory: try repositoryLocalization())
        #expect(set.locales.contains("ko") && set.locales.contains("en"))
        #expect(set["ko"]?["child.complete.button"] == .text(MessageTemplate(segments: [.literal("다 했어요")])))
    }
}

@Suite struct MessageTemplateTests {
    @Test func parsesPlaceholdersParticlesAndEscapes() throws {
        let t = try MessageTemplate(parsing: "{{x}} {routineTitle|을를} 해요 {minutes}")
        #expect(t.segments == [
            .literal("{x} "), .placeholder(name: "routineTitle", particle: "을를"), .literal(" 해요 "),
            .placeholder(name: "minutes", particle: nil),
        ])
        #expect(t.placeholderNames == ["routineTitle", "minutes"])
        #expect(t.source == "{{x}} {routineTitle|을를} 해요 {minutes}")
    }

    @Test(arguments: [
        ("{a", TemplateSyntaxError(.unclosedPlaceholder, at: 0)),
        ("a}b", TemplateSyntaxError(.strayClosingBrace, at: 1)),
        ("{}", TemplateSyntaxError(.emptyName, at: 0)),
        ("{1x}", TemplateSyntaxError(.invalidName, at: 0)),
        ("{a b}", TemplateSyntaxError(.invalidName, at: 0)),
        ("{a|}", TemplateSyntaxError(.emptyParticle, at: 0)),
        ("{a{b}", TemplateSyntaxError(.nestedBrace, at: 2)),
    ])
    func syntaxErrors(_ row: (String, TemplateSyntaxError)) {
        #expect(throws: row.1) { try MessageTemplate(parsing: row.0) }
    }
}
