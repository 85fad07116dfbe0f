import Foundation
@testable import SteppieLocalization
import Testing

/// The byte-level fast path of `MessageTemplate(parsing:)` must give exactly what the character
/// parser gives, and leave every doubtful string (and its error position) to it.
@Suite("Template parsing paths")
struct TemplateParserTests {
    @Test("every catalog string of the repository parses the same by bytes and by characters")
    func catalogsAgree() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var count = 0
        for locale in ["en", "ko"] {
            let folder = root.appendingPathComponent("Localization/\(locale)")
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".json") {
                let object = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(file)))
                for value in (object as? [String: Any] ?? [:]).values {
                    let texts = (value as? String).map { [$0] } ?? Array((value as? [String: String] ?? [:]).values)
                    for text in texts {
                        #expect(try MessageTemplate(parsing: text) == MessageTemplate(parsingByCharacters: text), "\(text)")
                        count += 1
                    }
                }
            }
        }
        #expect(count > 1500)
    }

    @Test("odd and broken strings agree too, errors included", arguments: [
        "", "plain", "{{literal}}", "a {name} b", "{name|을를} 했어요", "{ name | 이가 }", "{n@cli.count.days}", "{n @ cli.count.days}",
        "{n|a@b}", "{}", "{ }", "{|을}", "{name|}", "{name", "name}", "{a{b}}", "{1abc}", "{n@}", "{n@bad key}", "한국어 {이름}",
        "é{x}é", "{x}}}", "{{{x}", "}{", "{x|을를|더}",
    ])
    func oddStrings(_ text: String) {
        let fast: Result<MessageTemplate, TemplateSyntaxError> = Result { () throws(TemplateSyntaxError) in try MessageTemplate(parsing: text) }
        let slow: Result<MessageTemplate, TemplateSyntaxError> = Result { () throws(TemplateSyntaxError) in try MessageTemplate(parsingByCharacters: text) }
        #expect(fast == slow)
    }
}
