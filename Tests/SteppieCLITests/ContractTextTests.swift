import Foundation
import Testing
import SteppieLocalization

/// Every rule of the data contract a person can break is said in their language (issue 15's
/// review): the `contract.allowed.*` and `contract.value.*` keys the sources name exist in Korean
/// and English, and the Korean texts have no English words.
@Suite struct ContractTextTests {
    static func sourceKeys() throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var keys = Set<String>()
        let files = FileManager.default.enumerator(at: root.appendingPathComponent("Sources"), includingPropertiesForKeys: nil)
        let pattern = try Regex(#""(contract\.(?:allowed|value)\.[A-Za-z0-9]+)""#)
        while let url = files?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in text.matches(of: pattern) { keys.insert(String(text[match.range].dropFirst().dropLast())) }
        }
        // contract.value.\(unit) in Validator.length
        keys.formUnion(["contract.value.bytes", "contract.value.codePoints", "contract.value.characters"])
        return keys
    }

    @Test func everyKeyTheSourcesNameIsInBothLanguages() throws {
        let keys = try Self.sourceKeys()
        #expect(keys.count >= 45, "\(keys.count) keys found")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let set = try CatalogSet.load(directory: root.appendingPathComponent("Localization"))
        for key in keys.sorted() {
            #expect(set["en"]?[key] != nil, "en lacks \(key)")
            #expect(set["ko"]?[key] != nil, "ko lacks \(key)")
        }
        let l = Localizer(catalogs: set, systemLocale: nil)
        let args = ["max": "8", "count": "3", "existing": "Mina", "maxCodePoints": "64", "maxBytes": "256"]
        // Words a Korean reader should not meet; tokens such as HH:mm, KEY=done, UUID or argon2id are names, not words.
        let english = try Regex(#"\b(?:a|an|the|or|and|at|most|least|exactly|digits|characters|text|set|sets|per|when|without|not|one|name|time|date)\b"#)
        for key in keys.sorted() {
            let ko = l.text(key, locale: "ko", args: args)
            #expect(!ko.contains(english), "ko \(key): \(ko)")
            #expect(ko.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) } || ["contract.allowed.uuid"].contains(key), "ko \(key): \(ko)")
        }
    }
}
