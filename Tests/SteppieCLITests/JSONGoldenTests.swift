import Foundation
import Testing
import SteppieCore
@testable import SteppieCLI

/// The `--json` output of every command that has one, byte for byte against files recorded in
/// `Tests/SteppieCLITests/Golden/json/` (issue 25, typed wires: the documents are built from
/// `Encodable` types now, and scripts that read them must see the same bytes as before).
/// Ids are random per fixture, so each UUID is replaced by `<id-N>` in order of first appearance.
///
/// `STEPPIE_RECORD_GOLDEN=1` writes the files instead of comparing (only when a change of the
/// wire is meant; say so in `docs/commands.md`).
@Suite struct JSONGoldenTests {
    static let folder = CLIHarness.repository.appendingPathComponent("Tests/SteppieCLITests/Golden/json")
    static let recording = ProcessInfo.processInfo.environment["STEPPIE_RECORD_GOLDEN"] == "1"

    /// The command lines, each named by its golden file (`undo` after a `complete`).
    static let commands: [(name: String, args: [String])] = [
        ("today", ["today", "--json"]),
        ("routines", ["routines", "--json"]),
        ("sets", ["sets", "--json"]),
        ("children", ["children", "list", "--json"]),
        ("profile-show", ["profile", "show", "--json"]),
        ("feedback-profiles", ["feedback", "profiles", "--json"]),
        ("history-month", ["history", "--month", "2026-03", "--json"]),
        ("history-day", ["history", "--date", "2026-03-04", "--json"]),
        ("stats", ["stats", "--json"]),
        ("icons", ["icons", "--json"]),
        ("guardian-status", ["guardian", "status", "--json"]),
        ("schedule-show", ["schedule", "show", "--json"]),
        ("complete", ["complete", "--no-service", "--json"]),
        ("undo", ["undo", "--no-service", "--json"]),
    ]

    /// Replaces every UUID with `<id-N>`, numbered in order of first appearance.
    static func normalized(_ text: String) -> String {
        let pattern = try! NSRegularExpression(pattern: "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
        var names: [String: String] = [:]
        var out = ""
        var last = text.startIndex
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(match.range, in: text) else { continue }
            let id = text[range].lowercased()
            if names[id] == nil { names[id] = "<id-\(names.count + 1)>" }
            out += text[last..<range.lowerBound] + names[id]!
            last = range.upperBound
        }
        return out + text[last...]
    }

    @Test(arguments: commands.map(\.name))
    func theDocumentIsByteForByteTheRecordedOne(_ name: String) throws {
        let args = try #require(Self.commands.first { $0.name == name }?.args)
        let h = try GuardianGoldenTests.fixture()
        let variables = ["STEPPIE_SOCKET": h.directory.appendingPathComponent("none.sock").path]
        if name == "undo" { #expect(h.run(["complete", "--no-service"], variables: variables).status == 0) }
        let r = h.run(args, variables: variables)
        #expect(r.status == 0, "\(args): \(r.err)")
        let got = Self.normalized(r.out)
        // Every document parses as JSON.
        #expect((try? JSONDecoder().decode(JSONShape.self, from: Data(r.out.utf8))) != nil, "\(name) is not JSON: \(r.out)")
        let file = Self.folder.appendingPathComponent(name + ".json")
        if Self.recording {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try Data(got.utf8).write(to: file)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(got == expected, "\(name) differs from Golden/json/\(name).json")
    }
}

/// Any JSON value (to check that a document parses, without `JSONSerialization`).
indirect enum JSONShape: Decodable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONShape]), object([String: JSONShape])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONShape].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONShape].self)) }
    }
}
