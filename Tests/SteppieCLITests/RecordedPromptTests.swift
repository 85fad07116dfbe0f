import Foundation
import Testing
import SteppieCore
import SteppieFeedback
import SteppieStore

/// `steppie routine record` and child mode playing the recording instead of the synthesized title,
/// checked on the WAV child mode writes.
@Suite(.serialized) struct RecordedPromptTests {
    /// Runs a program and returns its exit status.
    @discardableResult
    static func spawn(_ path: String, _ args: [String], env: [String: String] = [:]) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        p.environment = ProcessInfo.processInfo.environment.merging(env) { _, b in b }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// A tone file made by sox (`sox -n FILE synth SECONDS sine HZ`, plus format options).
    static func tone(_ path: String, seconds: Double, hz: Int = 880, options: [String] = []) throws {
        let status = try spawn("/usr/bin/sox", ["-n"] + options + [path, "synth", String(seconds), "sine", String(hz), "vol", "0.5"])
        try #require(status == 0, "sox failed for \(path)")
    }

    /// Seconds of the file in which 50 ms windows are almost pure 880 Hz.
    static func toneSeconds(_ samples: [Float], hz: Double = 880) -> Double {
        let window = SampleFormat.samples(0.05)
        var count = 0
        var start = 0
        while start + window <= samples.count {
            if share(samples[start..<(start + window)], hz: hz) > 0.8 { count += 1 }
            start += window
        }
        return Double(count) * 0.05
    }

    /// Power at `hz` relative to the window's total power (Goertzel), 0…1.
    static func share(_ s: ArraySlice<Float>, hz: Double) -> Double {
        let w = 2 * Double.pi * hz / Double(SampleFormat.rate)
        var (q1, q2) = (0.0, 0.0)
        for x in s { let q0 = 2 * cos(w) * q1 - q2 + Double(x); q2 = q1; q1 = q0 }
        let power = q1 * q1 + q2 * q2 - 2 * cos(w) * q1 * q2
        let energy = s.reduce(0.0) { $0 + Double($1) * Double($1) }
        return energy > 1e-6 ? power / (energy * Double(s.count) / 2) : 0
    }

    func firstRoutine(_ h: CLIHarness) throws -> Routine {
        let store = try Store(path: h.db, timeZone: h.zone)
        let mina = try store.resolveChild("Mina")
        let set = try #require(try store.activeSet(childId: mina.id))
        return try #require(try store.routines(setId: set.id).first)
    }

    /// Child mode announces the first routine once and quits; returns the WAV's samples.
    func childModeAudio(_ h: CLIHarness, locale: String) throws -> [Float] {
        let keys = h.directory.appendingPathComponent("keys").path
        try "quit\n".write(toFile: keys, atomically: true, encoding: .utf8)
        let wav = h.directory.appendingPathComponent("child-\(UUID().uuidString).wav").path
        let status = try Self.spawn(CLIHarness.binary, ["child", "--db", h.db, "--locale", locale, "--output", "wav",
                                                        "--wav", wav, "--keys-from", keys], env: ["TZ": "Asia/Seoul"])
        try #require(status == 0)
        return try SoundFile.read(path: wav)
    }

    @Test func aRecordedTitleReplacesTheSynthesizedOneInChildModesCue() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CLIHarness.binary))
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let routine = try firstRoutine(h)
        let synthesized = try childModeAudio(h, locale: "en")
        #expect(Self.toneSeconds(synthesized) < 0.1)

        let flac = h.directory.appendingPathComponent("wake.flac").path
        try Self.tone(flac, seconds: 1.5, options: ["-r", "44100"])
        let r = h.run(["routine", "record", routine.id.lowercased, "--locale", "en", flac])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("1.5"))
        let recorded = try childModeAudio(h, locale: "en")
        // The tone is there, once, at its full length …
        let tone = Self.toneSeconds(recorded)
        #expect(abs(tone - 1.5) < 0.15, "880 Hz for \(tone) s")
        // … in place of the synthesized "Wake up": the cue grew by the tone minus the spoken title.
        let title = Double(try SpeechSynthesizer.shared.samples(text: "Wake up", settings: VoiceSettings(locale: "en", rate: 1)).count)
            / Double(SampleFormat.rate)
        let grew = Double(recorded.count - synthesized.count) / Double(SampleFormat.rate)
        #expect(abs(grew - (1.5 - title)) < 0.35, "grew \(grew) s, title \(title) s")
        // The Korean cue has no Korean recording: still synthesized.
        #expect(Self.toneSeconds(try childModeAudio(h, locale: "ko")) < 0.1)

        // Removing it brings the synthesized title back.
        #expect(h.run(["routine", "record", "--remove", routine.id.lowercased, "--locale", "en"]).status == 0)
        let again = try childModeAudio(h, locale: "en")
        #expect(Self.toneSeconds(again) < 0.1)
        #expect(abs(again.count - synthesized.count) < SampleFormat.samples(0.05))
    }

    @Test func flacAndOggRecordingsDecodeAndAreListed() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let routine = try firstRoutine(h)
        let ogg = h.directory.appendingPathComponent("wake.ogg").path
        let flac = h.directory.appendingPathComponent("wake.flac").path
        try Self.tone(ogg, seconds: 0.8, options: ["-r", "48000", "-c", "2"])
        try Self.tone(flac, seconds: 1.2)
        #expect(h.run(["routine", "record", routine.id.lowercased, "--locale", "ko", ogg]).status == 0)
        #expect(h.run(["routine", "record", routine.id.lowercased, "--locale", "en", flac]).status == 0)
        let store = try Store(path: h.db, timeZone: h.zone)
        let rows = try store.recordings()
        #expect(rows.map(\.locale) == ["ko", "en"])
        #expect(abs((rows.first?.durationMs ?? 0) - 800) <= 20)
        #expect(abs((rows.last?.durationMs ?? 0) - 1200) <= 20)
        for row in rows {
            let dir = try #require(store.recordingsDirectory)
            let samples = try SoundFile.read(path: dir.appendingPathComponent(row.fileName).path)
            #expect(Self.toneSeconds(samples) > Double(row.durationMs) / 1000 - 0.1)
        }
        #expect(try #require(rows.first?.fileName).hasSuffix(".ogg"))
        let listing = h.run(["routines"]).out
        #expect(listing.contains("\(routine.id.lowercased)  🎙 en, ko"), "\(listing)")
    }

    @Test func invalidFilesAreRefusedAndNothingChanges() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let routine = try firstRoutine(h)
        let text = h.directory.appendingPathComponent("notes.wav").path
        try "not audio".write(toFile: text, atomically: true, encoding: .utf8)
        let long = h.directory.appendingPathComponent("long.wav").path
        try Self.tone(long, seconds: 31, options: ["-r", "8000"])
        let big = h.directory.appendingPathComponent("big.wav").path
        try Self.tone(big, seconds: 29, options: ["-r", "48000", "-c", "2", "-b", "32", "-e", "floating-point"])
        let silent = h.directory.appendingPathComponent("silent.wav").path
        try #require(try Self.spawn("/usr/bin/sox", ["-n", "-r", "22050", silent, "trim", "0", "1"]) == 0)
        let id = routine.id.lowercased
        let cases: [(String, String)] = [
            (text, "is not a WAV, FLAC or OGG recording"),
            (long, "lasts 31.0 s; a recording may be at most 30 s"),
            (big, "a recording may be at most 10 MiB"),
            (silent, "holds no sound"),
            (h.directory.appendingPathComponent("missing.wav").path, "there is no such file"),
        ]
        for (file, message) in cases {
            let r = h.run(["routine", "record", id, "--locale", "en", file])
            #expect(r.status == 1)
            #expect(r.err.contains(message), "\(r.err)")
        }
        #expect(h.run(["routine", "record", id, text, "--locale", "qps"]).status == 64)   // only ko and en
        #expect(h.run(["routine", "record", "--remove", id, "--locale", "en"]).err.contains("has no recording in en"))
        let store = try Store(path: h.db, timeZone: h.zone)
        #expect(try store.recordings().isEmpty)
        let dir = try #require(store.recordingsDirectory)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).isEmpty)
    }

    @Test func l10nCheckReportsABrokenLexicon() throws {
        let h = CLIHarness()
        let dir = h.directory.appendingPathComponent("Pronunciation")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try #"{"TV": "[[t'i:]]"}"#.write(to: dir.appendingPathComponent("ko.json"), atomically: true, encoding: .utf8)
        let r = h.run(["l10n", "check", "--pronunciation", dir.path])
        #expect(r.status == 1)
        #expect(r.out.contains(#"pronunciation lexicon ko.json: phonemes "[[t'i:]]" of "TV""#), "\(r.out)")
        #expect(h.run(["l10n", "check"]).status == 0)
    }
}
