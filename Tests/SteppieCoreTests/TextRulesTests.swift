import Foundation
import Testing
@testable import SteppieCore

/// Titles and names: bounded in characters, code points and bytes; something visible; names
/// folded alike are the same name.
@Suite struct TextRulesTests {
    static let titleLimits = "at most 200 characters (800 code points, 3200 bytes)"
    static let nameLimits = "at most 60 characters (240 code points, 960 bytes)"

    /// (case, text, the violation of a routine title, the violation of a child's name; nil = accepted)
    static let cases: [(String, String, ContractViolation?, ContractViolation?)] = [
        ("combining-mark bomb", "e" + String(repeating: "\u{301}", count: 50_000),
         ContractViolation(field: "title", value: "(100001 bytes)", allowed: titleLimits),
         ContractViolation(field: "child.name", value: "(100001 bytes)", allowed: nameLimits)),
        ("a million scalars", String(repeating: "a\u{301}", count: 500_000),
         ContractViolation(field: "title", value: "(1500000 bytes)", allowed: titleLimits),
         ContractViolation(field: "child.name", value: "(1500000 bytes)", allowed: nameLimits)),
        ("code points over, bytes under", String(repeating: "a\u{300}\u{300}\u{300}\u{300}", count: 170),
         ContractViolation(field: "title", value: "(850 code points)", allowed: titleLimits),
         ContractViolation(field: "child.name", value: "(1530 bytes)", allowed: nameLimits)),
        ("201 characters", String(repeating: "가", count: 201),
         ContractViolation(field: "title", value: "(201 characters)", allowed: titleLimits),
         ContractViolation(field: "child.name", value: "(201 characters)", allowed: nameLimits)),
        ("spaces of every kind", " \u{A0}\u{2002}\u{2009}\u{202F}\u{205F}\u{3000}\u{1680}",
         ContractViolation(field: "title", value: "(empty in every locale)", allowed: "non-empty text in at least one locale"),
         ContractViolation(field: "child.name", value: "(invisible: U+00A0 U+2002 U+2009)", allowed: "1…60 visible characters")),
        ("Hangul choseong filler", "\u{115F}", nil, nil),
        ("Hangul jungseong filler", "\u{1160}", nil, nil),
        ("Hangul filler", "\u{3164}\u{3164}", nil, nil),
        ("half-width Hangul filler", "\u{FFA0}", nil, nil),
        ("braille blank", "\u{2800}\u{2800}", nil, nil),
        ("zero-width space and joiners", "\u{200B}\u{200C}\u{200D}\u{2060}", nil, nil),
        ("byte order mark", "\u{FEFF}", nil, nil),
        ("variation selectors and tags", "\u{FE0F}\u{E0020}\u{E0041}", nil, nil),
        ("Mongolian vowel separator", "\u{180E}", nil, nil),
        ("soft hyphen and combining grapheme joiner", "\u{AD}\u{34F}", nil, nil),
        ("mixed blank kinds", " \u{3164}\u{200B}\u{2800}\u{3000}", nil, nil),
    ]

    @Test(arguments: cases.indices)
    func textRules(_ i: Int) {
        let (name, text, titleError, nameError) = Self.cases[i]
        let blank = titleError == nil && nameError == nil
        let firstInvisible = text.unicodeScalars.filter { $0 != " " }.prefix(3).map { String(format: "U+%04X", $0.value) }
        let expectedTitle = titleError ?? ContractViolation(field: "title", value: "(empty in every locale)", allowed: "non-empty text in at least one locale")
        let expectedName = nameError ?? ContractViolation(field: "child.name", value: "(invisible: \(firstInvisible.joined(separator: " ")))",
                                                          allowed: "1…60 visible characters")
        #expect(throws: expectedTitle, "\(name)") { try Validator.title(LocalizedText(["en": text])) }
        #expect(throws: expectedName, "\(name)") { try Validator.childName(text) }
        if blank {
            // Blank in one locale while another has text: still refused, it would show as nothing.
            #expect(throws: ContractViolation.self, "\(name)") { try Validator.title(LocalizedText(["ko": text, "en": "Brush teeth"])) }
        }
    }

    @Test func hugeValuesAreRefusedQuickly() {
        let bomb = "e" + String(repeating: "\u{301}", count: 1_000_000)
        let started = Date()
        #expect(throws: ContractViolation.self) { try Validator.title(LocalizedText(["en": bomb])) }
        #expect(throws: ContractViolation.self) { try Validator.title(LocalizedText([bomb: "Brush teeth"])) }
        #expect(throws: ContractViolation.self) { try Validator.childName(bomb) }
        #expect(throws: ContractViolation.self) { try Validator.locale(bomb) }
        #expect(throws: ContractViolation.self) { try Validator.voiceVariant(bomb) }
        #expect(throws: ContractViolation.self) { try Validator.photoAssetName(bomb) }
        #expect(Validator.printable(bomb).unicodeScalars.count <= 61)
        #expect(Date().timeIntervalSince(started) < 2)
    }

    static let accepted: [String] = [
        "민아", "지우", "Émile", "E\u{301}mile", "Mina Kim", "O'Brien", "양치하기", "Brush teeth",
        "A\u{200B}B", " \u{3164}가",                               // visible with invisible around it
        "👩‍👩‍👧‍👦", "🏳️‍🌈", "👨🏽‍🚀", "🇰🇷",                        // ZWJ sequences and flags: one character each
        String(repeating: "가", count: 60), String(repeating: "e\u{301}", count: 60),
        String(repeating: "👩‍👩‍👧‍👦", count: 30),                         // 30 characters, 210 code points
    ]

    @Test(arguments: accepted)
    func visibleNamesAndTitlesAreAccepted(_ text: String) throws {
        try Validator.childName(text)
        try Validator.title(LocalizedText(["ko": text, "en": ""]))
    }

    @Test func emojiSequencesCountAsOneCharacterEach() throws {
        let family = "👩‍👩‍👧‍👦"
        #expect(family.count == 1 && family.unicodeScalars.count == 7)
        try Validator.childName(String(repeating: family, count: 34))        // 238 code points: within 240
        #expect(throws: ContractViolation(field: "child.name", value: "(245 code points)", allowed: Self.nameLimits)) {
            try Validator.childName(String(repeating: family, count: 35))
        }
    }

    @Test(arguments: [
        (["Émile", "E\u{301}mile", "émile", "Emile", "EMILE", "  emile ", "Emi\u{200B}le", "ＥＭＩＬＥ"], "emile"),
        (["민아", "민아 ", "\u{1106}\u{1175}\u{11AB}\u{110B}\u{1161}"], "민아"),
        (["Mina  Kim", "mina kim", "MINA\u{3000}KIM"], "mina kim"),
        (["Straße", "STRASSE"], "strasse"),
    ])
    func foldingMakesOneName(_ names: [String], _ folded: String) {
        for n in names { #expect(Validator.foldedName(n) == folded, "\(n.unicodeScalars.map { String($0.value, radix: 16) })") }
    }

    @Test func differentNamesStayDifferent() {
        let names = ["민아", "민우", "가", "각", "Mina", "Nina", "ガ", "カ", "Jun", "June"]
        #expect(Set(names.map(Validator.foldedName)).count == names.count)
    }

    @Test func childNamesAreUniqueAmongTheNotArchived() throws {
        let t = Date(timeIntervalSince1970: 0)
        let emile = Child(id: UUID(), displayName: "Émile", profile: FeedbackProfile(), createdAt: t)
        var archived = Child(id: UUID(), displayName: "emile", profile: FeedbackProfile(), createdAt: t)
        archived.archivedAt = t
        try Validator.uniqueChildNames([emile, archived])
        let twin = Child(id: UUID(), displayName: "EMILE", profile: FeedbackProfile(), createdAt: t)
        #expect(throws: ContractViolation(field: "child.name", value: "EMILE",
                                          allowed: "a name no other child has, ignoring case and accents (Émile exists)")) {
            try Validator.uniqueChildNames([emile, archived, twin])
        }
    }
}
