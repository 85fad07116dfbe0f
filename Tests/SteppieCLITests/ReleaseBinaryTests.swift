import Foundation
import Testing
import SteppieFeedback

enum ReleaseBinary {
    static var path: String? {
        guard let path = ProcessInfo.processInfo.environment["STEPPIE_RELEASE_BIN"], !path.isEmpty else { return nil }
        return path
    }
}

/// The binary `make install` and `make run` ship is a release build linked differently from the
/// debug one the other tests run: by lld, with the everyday functions laid out together from
/// linker/steppie.order and the relative relocations packed (issue 16; linker/README.md). These
/// tests run that binary (`STEPPIE_RELEASE_BIN`, set by scripts/test.sh after building it) and
/// check the two link choices are really in it, and that it speaks and records as the debug one.
@Suite(.serialized, .enabled(if: ReleaseBinary.path != nil, "set STEPPIE_RELEASE_BIN (scripts/test.sh builds and sets it)"))
struct ReleaseBinaryTests {
    static var release: String { ReleaseBinary.path ?? "" }

    /// The order file's symbols by group (`# child: …` starts the child-mode group).
    static func orderGroups() throws -> [(label: String, symbols: [String])] {
        let text = try String(contentsOf: CLIHarness.repository.appendingPathComponent("linker/steppie.order"), encoding: .utf8)
        var groups: [(label: String, symbols: [String])] = []
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("# "), let colon = line.firstIndex(of: ":") {
                let label = String(line[line.index(line.startIndex, offsetBy: 2)..<colon])
                if !label.contains(" ") { groups.append((label, [])) }
            } else if !line.hasPrefix("#"), !line.isEmpty, !groups.isEmpty {
                groups[groups.count - 1].symbols.append(line)
            }
        }
        return groups
    }

    /// Function symbols of `binary`: name → (address, size), from `nm`.
    static func functions(of binary: String, in h: BinaryHarness) -> [String: (address: UInt64, size: UInt64)] {
        let r = h.sh("nm -S --defined-only \"$S\"", env: ["S": binary], timeout: 120)
        var table: [String: (address: UInt64, size: UInt64)] = [:]
        for line in r.out.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 4, "tTwW".contains(parts[2]),
                  let a = UInt64(parts[0], radix: 16), let s = UInt64(parts[1], radix: 16) else { continue }
            if table[String(parts[3])] == nil { table[String(parts[3])] = (a, s) }
        }
        return table
    }

    /// `.text`'s address and size, from `readelf -S`.
    static func textSection(of binary: String, in h: BinaryHarness) -> (address: UInt64, size: UInt64)? {
        let r = h.sh("readelf -SW \"$S\"", env: ["S": binary])
        for line in r.out.split(separator: "\n") where line.contains(" .text ") {
            let fields = line.split(separator: " ").map(String.init)
            guard let i = fields.firstIndex(of: ".text"), fields.count > i + 4,
                  let a = UInt64(fields[i + 2], radix: 16), let s = UInt64(fields[i + 4], radix: 16) else { continue }
            return (a, s)
        }
        return nil
    }

    /// The functions child mode runs sit in one stretch at the front of `.text`, not spread over
    /// its 17 MB (the kernel maps code 64 KB around each touch, so spread functions cost RSS).
    /// Whether the order file is still fresh (the share of its functions the binary still has,
    /// which drops whenever mangled names change) is `make bench`'s check,
    /// scripts/check-link-order.py; this one only needs enough of them to see where they sit.
    @Test func theFunctionsChildModeRunsAreLaidOutTogether() throws {
        let h = BinaryHarness()
        let groups = try Self.orderGroups()
        let child = try #require(groups.first { $0.label == "child" }, "linker/steppie.order has no child group")
        #expect(child.symbols.count > 1_000, "only \(child.symbols.count) child-mode functions listed")
        let table = Self.functions(of: Self.release, in: h)
        let text = try #require(Self.textSection(of: Self.release, in: h))
        // Where in .text they sit, as a share of its size: the first one and the 95th percentile
        // (a function or two may be claimed by an object's unordered code and sit elsewhere).
        let positions = child.symbols.compactMap { table[$0] }.map { Double($0.address - min($0.address, text.address)) / Double(text.size) }.sorted()
        try #require(positions.count >= 100, "only \(positions.count) of child mode's listed functions are in the binary, too few to judge the layout: run scripts/make-link-order.py")
        let first = positions[0], p95 = positions[Int(Double(positions.count - 1) * 0.95)]
        print(String(format: "release binary: 95 %% of the %d child-mode functions found in the first %.1f %% of .text (%.1f MB of %.1f MB)",
                     positions.count, p95 * 100, p95 * Double(text.size) / 1e6, Double(text.size) / 1e6))
        // Unordered (gold, no order file) they reach 90 % of the way; ordered, about a third.
        #expect(p95 < 0.5, "95 % of child mode's functions reach \(Int(p95 * 100)) % into .text: is the release link still using linker/steppie.order?")
        #expect(first < 0.01, "child mode's first function sits \(Int(first * 100)) % into .text")
    }

    /// Relative relocations are packed (DT_RELR): 80,000 of them took 1.9 MB, all read at start.
    @Test func theRelativeRelocationsArePacked() {
        let h = BinaryHarness()
        let dynamic = h.sh("readelf -dW \"$S\"", env: ["S": Self.release])
        #expect(dynamic.status == 0, "\(dynamic.err)")
        #expect(dynamic.out.contains("(RELR)") && dynamic.out.contains("(RELRSZ)"), "no DT_RELR in the release binary:\n\(dynamic.out)")
        let sections = h.sh("readelf -SW \"$S\"", env: ["S": Self.release]).out
        let rela = sections.split(separator: "\n").first { $0.contains(" .rela.dyn ") }.map(String.init) ?? ""
        let fields = rela.split(separator: " ").map(String.init)
        let size = fields.firstIndex(of: ".rela.dyn").flatMap { fields.count > $0 + 4 ? UInt64(fields[$0 + 4], radix: 16) : nil }
        let entries = (size ?? .max) / 24
        print("release binary: .rela.dyn holds \(entries) relocations (the rest packed in .relr.dyn)")
        #expect(entries < 5_000, "\(entries) unpacked relocations")
    }

    /// The release binary says a sentence sample for sample as the debug binary does, and runs a
    /// routine that the database records.
    @Test func theReleaseBinarySpeaksAndRecordsAsTheDebugOne() throws {
        let h = BinaryHarness()
        let debug = CLIHarness.repository.appendingPathComponent(".build/debug/steppie").path
        try #require(FileManager.default.isExecutableFile(atPath: debug), "build first: swift build")
        let sentence = "Time to brush your teeth, then we put on shoes."
        let a = h.sh("\"$S\" say --out \"$D/release.wav\" \"$T\"", env: ["S": Self.release, "T": sentence])
        let b = h.sh("\"$S\" say --out \"$D/debug.wav\" \"$T\"", env: ["S": debug, "T": sentence])
        #expect(a.status == 0 && b.status == 0, "\(a.err)\(b.err)")
        let ours = try SoundFile.read(path: h.directory + "/release.wav")
        let theirs = try SoundFile.read(path: h.directory + "/debug.wav")
        let (rms, peak) = SpeechCommandTests.level(ours)
        print(String(format: "release say --out: %.2f s, RMS %.3f, peak %.3f", Double(ours.count) / 22050, rms, peak))
        #expect(ours.count > 22050 && rms > 0.01 && peak > 0.05, "silent or short: \(ours.count) samples")
        #expect(ours == theirs, "the release and debug binaries spoke differently (\(ours.count) vs \(theirs.count) samples)")

        let initialised = h.sh("\"$S\" init --child Mina", env: ["S": Self.release])
        #expect(initialised.status == 0, "\(initialised.err)")
        try "done\nnext\ndone\nnext\nquit\n".write(toFile: h.directory + "/keys.txt", atomically: true, encoding: .utf8)
        let child = h.sh("\"$S\" child --output wav --wav \"$D/child.wav\" --keys-from \"$D/keys.txt\"", env: ["S": Self.release])
        #expect(child.status == 0, "\(child.err)")
        #expect(child.out.hasPrefix("Now: Wake up\nWake up done. Great job!\nNext: Wash face\n"), "\(child.out)")
        #expect(h.query("SELECT count(*) FROM daily_logs WHERE status='completed'") == "2")
        let cues = try SoundFile.read(path: h.directory + "/child.wav")
        #expect(SpeechCommandTests.level(cues).rms > 0.01 && Double(cues.count) / 22050 > 2)
    }
}
