import Foundation
import SteppieTestSupport
import Testing
import SteppieFeedback

/// Child mode when sound fails: no server at start, the server killed and back, a voice missing,
/// a sound file missing or corrupt. The routine goes on, the fault is reported once, and sound
/// comes back by itself where it can.
@Suite(.serialized) struct AudioFaultTests {
    /// A `steppie child` process with its events and standard error in files.
    final class Child {
        let process: SpawnedProcess
        let events: String
        let errors: String

        init(_ h: StressHarness, output: [String], variables: [String: String]) throws {
            events = h.path("events-\(UUID().uuidString).jsonl")
            errors = h.path("stderr-\(UUID().uuidString).txt")
            process = try SpawnedProcess(Repo.binary, ["child", "--db", h.db, "--locale", "en", "--events", events, "--keys-from", "-"] + output,
                                         environment: StressHarness.environment(["TZ": "Asia/Seoul"].merging(variables) { $1 }),
                                         stdinPipe: true, stderrPath: errors)
        }

        var stderr: String { (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "" }
        var completions: Int { EventsFile(path: events).cues("completed").count }
        func lines(containing s: String) -> Int { stderr.split(separator: "\n").filter { $0.contains(s) }.count }

        /// Moves on from the last card's undo window (`next`), presses done and waits until one
        /// more success cue was written.
        func complete(timeout: Double = 10) -> Bool {
            let before = completions
            process.send(["next", "done"])
            return waitUntil(timeout: timeout) { completions > before }
        }

        func quit() -> Int32 {
            process.send(["quit"])
            return process.wait(timeout: 20)
        }
    }

    func harness() throws -> StressHarness {
        let h = StressHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        try #require(FileManager.default.isExecutableFile(atPath: Repo.binary), "build the steppie binary first")
        return h
    }

    @Test func noServerAtStartThenTheServerComes() throws {
        let h = try harness()
        let server = try PrivatePulseServer()   // not started yet: its socket does not exist
        let child = try Child(h, output: ["--output", "pulse"], variables: ["PULSE_SERVER": server.address, "PULSE_SINK": "steppie_test"])
        try #require(waitUntil(timeout: 15) { !EventsFile(path: child.events).isEmpty }, "child mode did not start: \(child.stderr)")
        for _ in 0..<3 { #expect(child.complete(), "a press was not completed without sound: \(child.stderr)") }
        #expect(child.lines(containing: "PulseAudio") == 1, "\(child.stderr)")
        try server.start()
        #expect(waitUntil(timeout: 10) { child.stderr.contains("is back") }, "no reconnection: \(child.stderr)")
        #expect(child.complete())
        #expect(child.quit() == 0)
        #expect(child.lines(containing: "PulseAudio") == 2, "one line for the fault, one for the recovery: \(child.stderr)")
    }

    @Test func serverKilledInTheMiddleAndBackAgain() throws {
        let h = try harness()
        let server = try PrivatePulseServer()
        try server.start()
        let child = try Child(h, output: ["--output", "pulse"], variables: ["PULSE_SERVER": server.address, "PULSE_SINK": "steppie_test"])
        try #require(waitUntil(timeout: 15) { !EventsFile(path: child.events).isEmpty }, "child mode did not start: \(child.stderr)")
        #expect(child.complete())
        server.kill()
        #expect(waitUntil(timeout: 10) { child.stderr.contains("went away") }, "the outage was not reported: \(child.stderr)")
        for _ in 0..<3 { #expect(child.complete(), "a press during the outage was lost: \(child.stderr)") }
        try server.start()
        #expect(waitUntil(timeout: 10) { child.stderr.contains("is back") }, "no reconnection: \(child.stderr)")
        // Sound really comes out again: record the sink and press once more.
        let recorder = try SinkRecorder(server: server.address)
        let start = recorder.bytes
        #expect(child.complete())
        #expect(waitUntil(timeout: 10) { recorder.bytes > start + 22050 * 2 * 2 })   // two seconds after the press
        let samples = recorder.stop()
        #expect(peak(samples) > 0.05, "silence after the server came back (peak \(peak(samples)))")
        #expect(child.quit() == 0)
        #expect(child.lines(containing: "went away") == 1, "\(child.stderr)")
        #expect(child.lines(containing: "is back") == 1, "\(child.stderr)")
        #expect(!child.stderr.contains("child mode goes on"), "a press reported the outage again: \(child.stderr)")
    }

    @Test func voiceMissingKeepsTheSoundEffects() throws {
        let h = try harness()
        let espeak = try espeakDataWithout(language: "en", family: "gmw", in: h.directory)
        let wav = h.path("voice.wav")
        let child = try Child(h, output: ["--output", "wav", "--wav", wav], variables: ["ESPEAK_DATA_PATH": espeak.path])
        try #require(waitUntil(timeout: 15) { !EventsFile(path: child.events).isEmpty }, "child mode did not start: \(child.stderr)")
        for _ in 0..<3 { #expect(child.complete(), "a press was not completed without a voice: \(child.stderr)") }
        #expect(child.quit() == 0)
        #expect(child.lines(containing: "espeak") == 1, "the missing voice is reported once: \(child.stderr)")
        let samples = try SoundFile.read(path: wav)
        #expect(peak(samples) > 0.05, "the sound effects went silent too")
    }

    @Test(arguments: ["missing", "truncated", "noise"])
    func soundFileDamaged(_ damage: String) throws {
        let h = try harness()
        let data = try damagedDataDirectory(in: h.directory) { sounds in
            let chime = sounds.appendingPathComponent("chime.wav")
            switch damage {
            case "missing": try FileManager.default.removeItem(at: chime)
            case "truncated": try Data(try Data(contentsOf: chime).prefix(30)).write(to: chime)
            default: try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: chime)
            }
        }
        let wav = h.path("sound.wav")
        let child = try Child(h, output: ["--output", "wav", "--wav", wav], variables: ["STEPPIE_DATA_DIR": data.path])
        try #require(waitUntil(timeout: 15) { !EventsFile(path: child.events).isEmpty }, "child mode did not start: \(child.stderr)")
        for _ in 0..<3 { #expect(child.complete(), "a press was not completed: \(child.stderr)") }
        #expect(child.quit() == 0)
        #expect(child.lines(containing: "chime.wav") == 1, "the damaged sound is reported once: \(child.stderr)")
        #expect(peak(try SoundFile.read(path: wav)) > 0.05, "speech and the other sounds went silent too")
    }
}
