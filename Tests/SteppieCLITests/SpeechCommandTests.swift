import Foundation
import Testing
import SteppieFeedback
@testable import SteppieCLI

/// Spoken output of the command line, measured on the audio it writes.
@Suite struct SpeechCommandTests {
    static func level(_ samples: [Float]) -> (rms: Double, peak: Float) {
        guard !samples.isEmpty else { return (0, 0) }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return ((sum / Double(samples.count)).squareRoot(), samples.map(abs).max() ?? 0)
    }

    @Test func renderEveryPromptInKoreanAndEnglish() throws {
        let h = CLIHarness()
        for locale in ["ko", "en"] {
            let dir = h.directory.appendingPathComponent("render-\(locale)")
            let r = h.run(["l10n", "render", "--out", dir.path, "--json"], locale: locale)
            #expect(r.status == 0, "\(r.err)")
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
            let index = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("index.json"))) as? [String: Any])
            let prompts = try #require(index["prompts"] as? [[String: Any]])
            #expect(prompts.count >= 16 && prompts.count == summary["count"] as? Int)
            print("l10n render \(locale): \(prompts.count) prompts in \(summary["seconds"] ?? "?") s")
            for p in prompts {
                let file = dir.appendingPathComponent(p["file"] as? String ?? "").path
                let samples = try SoundFile.read(path: file)
                let seconds = Double(samples.count) / 22050
                let (rms, peak) = Self.level(samples)
                let text = p["text"] as? String ?? ""
                #expect(rms > 0.01 && peak > 0.05, "\(locale) \(p["key"] ?? ""): silent")
                // Plausible speech: at least 0.2 s, and no more than 0.5 s per character.
                #expect(seconds > 0.2 && seconds < Double(text.count) * 0.5 + 1, "\(locale) \(p["key"] ?? ""): \(seconds) s for “\(text)”")
                #expect(abs((p["seconds"] as? Double ?? 0) - seconds) < 0.01)
            }
        }
    }

    /// Markup typed by a user is read as text: no 9-second pause, no phoneme input.
    @Test func sayReadsMarkupLiterally() throws {
        let h = CLIHarness()
        func duration(_ text: String) throws -> Double {
            let out = h.directory.appendingPathComponent("\(UUID().uuidString).wav").path
            let r = h.run(["say", text, "--out", out])
            #expect(r.status == 0, "\(r.err)")
            return Double(try SoundFile.read(path: out).count) / 22050
        }
        let marked = try duration("Brush <break time=\"9s\"/> teeth")
        let spelled = try duration("Brush less than break time equals 9s slash greater than teeth")
        #expect(marked < 8, "a 9 s pause was obeyed: \(marked) s")
        let phonemes = try duration("[[h@l'oU]]")
        #expect(phonemes > 0.5, "phoneme markup was obeyed: \(phonemes) s")
        print("markup \(marked) s, spelled out \(spelled) s, phonemes as text \(phonemes) s")
    }

    @Test func sayRefusesOutOfRangeRateAndVolume() {
        let h = CLIHarness()
        let r = h.run(["say", "hello", "--rate", "1.6", "--out", h.directory.appendingPathComponent("x.wav").path])
        #expect(r.status == 64 && r.err.hasPrefix("steppie: --rate does not accept \"1.6\"; allowed: a number 0.5…1.5\n"), "\(r.err)")
        #expect(h.run(["say", "hello", "--volume", "loud"]).status == 64)
    }

    /// Child mode with WAV output: the whole session's audio, with the announcement and the completion.
    @Test func childModeWritesItsCuesToAWavFile() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let wav = h.directory.appendingPathComponent("child.wav").path
        let keys = h.directory.appendingPathComponent("keys.txt")
        try "done\nnext\nquit\n".write(to: keys, atomically: true, encoding: .utf8)
        let r = h.run(["child", "--output", "wav", "--wav", wav, "--keys-from", keys.path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "Now: Wake up\nWake up done. Great job!\nNext: Wash face\n")
        let samples = try SoundFile.read(path: wav)
        let (rms, peak) = Self.level(samples)
        #expect(Double(samples.count) / 22050 > 2, "three cues of speech")
        #expect(rms > 0.01 && peak < 0.99)
    }
}
