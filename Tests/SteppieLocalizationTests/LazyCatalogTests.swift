import Foundation
import Testing
@testable import SteppieLocalization

/// Catalogs opened lazily (issue 16): a locale's files are read when it is first asked for, a
/// value's template parsed when its key is first looked up, and the quick reader agrees with
/// Foundation's JSON parser on every file it takes.
@Suite struct LazyCatalogTests {
    @Test func aLocaleIsReadOnlyWhenAskedFor() throws {
        let dir = try TempDirectory()
        try dir.write("en/tts.json", #"{"tts.allDone": "All done"}"#)
        try dir.write("ko/tts.json", #"{"tts.allDone": "다 했어요""#)   // broken: no closing brace
        let set = try CatalogSet.open(directory: dir.url)
        #expect(set.locales == ["en", "ko"])
        let localizer = Localizer(catalogs: set, systemLocale: nil)
        #expect(localizer.text("tts.allDone", locale: "en") == "All done")
        // The broken locale serves nothing, and the strict paths name it.
        #expect(set["ko"] == nil)
        #expect(throws: CatalogLoadError.self) { try set.validated() }
        #expect(throws: CatalogLoadError.self) { try CatalogSet.load(directory: dir.url) }
    }

    @Test func aBadTemplateReadsAsMissingUntilValidated() throws {
        let dir = try TempDirectory()
        try dir.write("en/cli.json", #"{"cli.good": "Hello {name}", "cli.bad": "Hello {name"}"#)
        let set = try CatalogSet.open(directory: dir.url)
        let localizer = Localizer(catalogs: set, systemLocale: nil)
        #expect(localizer.text("cli.good", locale: "en", args: ["name": "Mina"]) == "Hello Mina")
        #expect(localizer.text("cli.bad", locale: "en") == Localizer.missing("cli.bad"))
        #expect(set.allKeys == ["cli.bad", "cli.good"])
        do {
            _ = try set.validated()
            Issue.record("expected the bad template to be reported")
        } catch {
            guard case .badPlaceholder(let file, let key, _) = error else { Issue.record("unexpected \(error)"); return }
            #expect(file == "en/cli.json" && key == "cli.bad")
        }
    }

    @Test func copiesOfACatalogDoNotShareEdits() throws {
        let dir = try TempDirectory()
        try dir.write("en/cli.json", #"{"cli.a": "A", "cli.b": "B"}"#)
        let set = try CatalogSet.open(directory: dir.url)
        var copy = try #require(set["en"])
        copy.set("cli.a", nil)
        #expect(copy["cli.a"] == nil)
        #expect(set["en"]?["cli.a"] != nil)
        #expect(set["en"]?.keys == ["cli.a", "cli.b"])
    }

    /// Every shipped catalog file: the quick reader takes it and finds exactly what Foundation finds.
    @Test func theQuickReaderAgreesWithFoundationOnTheShippedCatalogs() throws {
        let root = try #require(repositoryRoot()).appendingPathComponent("Localization")
        var files = 0
        for locale in try FileManager.default.contentsOfDirectory(atPath: root.path) {
            let folder = root.appendingPathComponent(locale)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".json") {
                let data = try Data(contentsOf: folder.appendingPathComponent(name))
                let scanned = try #require(data.withUnsafeBytes { CatalogScanner.scan($0) }, "\(locale)/\(name) not taken")
                #expect(Self.normalized(scanned) == Self.foundation(data), "\(locale)/\(name)")
                files += 1
            }
        }
        #expect(files > 40)
    }

    /// Seeded damage to real files: whatever the quick reader takes, Foundation reads the same way.
    @Test func theQuickReaderNeverDisagreesOnDamagedFiles() throws {
        let root = try #require(repositoryRoot()).appendingPathComponent("Localization/ko/tts.json")
        let original = Array(try Data(contentsOf: root))
        var rng = SplitMix(seed: 16)
        let pieces: [[UInt8]] = [Array(#"\"#.utf8), Array(#"\u00"#.utf8), Array(#"\ud83d"#.utf8), Array(#"\ude00"#.utf8),
                                 [0x22], [0x7B], [0x7D], [0x2C], [0x3A], [0x0A], [0x01], [0xFF], [0xC3], Array("1".utf8)]
        var taken = 0, refused = 0
        for _ in 0..<3_000 {
            var bytes = original
            for _ in 0...Int(rng.next() % 3) {
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(contentsOf: pieces[Int(rng.next() % UInt64(pieces.count))], at: at)
                default: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                }
            }
            let data = Data(bytes)
            if let scanned = data.withUnsafeBytes({ CatalogScanner.scan($0) }) {
                taken += 1
                #expect(Self.normalized(scanned) == Self.foundation(data))
            } else {
                refused += 1
            }
        }
        // Both paths are exercised.
        #expect(taken > 100 && refused > 100)
    }

    @Test func escapesAreDecodedLikeFoundation() throws {
        let text = #"{"cli.a": "tab\there \"quoted\" \\ \/ \u00e9 \ud83d\ude00 \u1100", "cli.b": {"one": "x\ny", "other": "z"}}"#
        let data = Data(text.utf8)
        let scanned = try #require(data.withUnsafeBytes { CatalogScanner.scan($0) })
        #expect(Self.normalized(scanned) == Self.foundation(data))
        #expect(Self.normalized(scanned)["cli.a"] == "tab\there \"quoted\" \\ / é 😀 \u{1100}")
    }

    @Test func keyRuleOverBytes() {
        for good in ["tts.allDone", "child.complete.button", "template.morning.wake_up", "a.b", "a1.b2_C"] {
            #expect(CatalogKey.isValid(good), "\(good)")
        }
        for bad in ["", "tts", "tts.", ".tts", "tts..allDone", "Tts.allDone", "tts.AllDone", "tts.all-done", "tts.all done",
                    "1ts.x", "tts._x", "tts.é", "ｔｔｓ.x", "tts.allDone."] {
            #expect(!CatalogKey.isValid(bad), "\(bad)")
        }
    }

    // MARK: - helpers

    /// Values as comparable strings: text, or plural forms joined in name order.
    static func normalized(_ pairs: CatalogScanner.Pairs) -> [String: String] {
        var out: [String: String] = [:]
        for (key, value) in pairs {
            switch value {
            case .text(let text): out[key] = text
            case .object(let forms): out[key] = forms.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: "|")
            }
        }
        return out
    }

    static func foundation(_ data: Data) -> [String: String]? {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        var out: [String: String] = [:]
        for (key, value) in object {
            if let text = value as? String { out[key] = text; continue }
            guard let forms = value as? [String: Any] else { return nil }
            var parts: [String] = []
            for (name, form) in forms.sorted(by: { $0.key < $1.key }) {
                guard let text = form as? String else { return nil }
                parts.append("\(name)=\(text)")
            }
            out[key] = parts.joined(separator: "|")
        }
        return out
    }
}

/// A small seeded generator (SplitMix64), so a failure can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
