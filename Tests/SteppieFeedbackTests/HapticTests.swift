import Foundation
import Testing
@testable import SteppieFeedback

@Suite struct HapticTests {
    @Test func deviceWithoutForceFeedbackIsAClearError() throws {
        let file = NSTemporaryDirectory() + "steppie-not-a-device-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: file, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: file) }
        for path in ["/dev/null", file] {
            #expect(throws: FeedbackError.noRumble(path: path)) { try RumbleDevice(path: path) }
        }
        #expect(FeedbackError.noRumble(path: "/dev/null").description.contains("FF_RUMBLE"))
        do {
            _ = try RumbleDevice(path: "/nonexistent/event0")
            Issue.record("opened a missing device")
        } catch let error as FeedbackError {
            guard case let .hapticDevice(path, reason) = error else { Issue.record("\(error)"); return }
            #expect(path == "/nonexistent/event0" && reason.contains("No such file"))
        }
    }

    @Test func eventLogWritesJSONLines() throws {
        let path = NSTemporaryDirectory() + "steppie-haptic-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try HapticEventLog(path: path, clock: { Date(timeIntervalSince1970: 0) })
        try log.play(.medium, event: .completed)
        try log.play(.light, event: .undone)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let first = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        #expect(first?["event"] as? String == "completed")
        #expect(first?["pattern"] as? String == "medium")
        #expect((first?["pulses"] as? [Any])?.count == 2)
        #expect(first?["at"] as? String == "1970-01-01T00:00:00.000Z")
    }

    @Test func audioPulseIsLowSoftAndFollowsIntensity() {
        let medium = HapticAudio.render(.medium)
        let light = HapticAudio.render(.light)
        #expect(Fixture.seconds(medium.count) <= HapticPattern.medium.duration + 0.001)
        #expect(AudioLevels(medium).peak > AudioLevels(light).peak)
        #expect(AudioLevels(medium).peak <= Double(HapticAudio.level))
        #expect((Fixture.onsetRampMs(light) ?? 0) >= 5)
        // 40…60 Hz: count zero crossings of the first pulse.
        let pulse = Array(light.prefix(SampleFormat.samples(0.06)))
        var crossings = 0
        for i in 1..<pulse.count where (pulse[i - 1] < 0) != (pulse[i] < 0) { crossings += 1 }
        let hz = Double(crossings) / 2 / 0.06
        #expect((30...70).contains(hz), "\(hz) Hz")
    }

    /// The device's setting changes while the engine runs (`setHaptics`): the next cue follows it.
    @Test func engineChangesItsHapticsWhileRunning() throws {
        final class Recorder: HapticOutput, @unchecked Sendable {
            var got: [String] = []
            func play(_ pattern: HapticPattern, event: FeedbackEvent) throws { got.append(pattern.name) }
        }
        let engine = FeedbackEngine(output: NullOutput(), sounds: Fixture.sounds, render: Fixture.render, log: { _ in })
        let normal = Fixture.feedback(.normal)
        // Without its sentence: espeak-ng's waveform generator keeps state from one utterance to
        // the next, so a sentence said again is not the same samples, and the three renders below
        // would be the same only while the shared speech cache kept it (another test clears it).
        var cue = Cue.make(.completed, feedback: normal)
        cue.speech = nil
        let withPulse = try engine.renderToBuffer(cue, feedback: normal, locale: "en")
        #expect(withPulse.samples.count > HapticAudio.render(.light, gain: cue.hapticGain).count)
        let recorder = Recorder()
        engine.setHaptics([recorder], audioPulse: false)
        #expect(!engine.mixesAudioPulse)
        let without = try engine.renderToBuffer(cue, feedback: normal, locale: "en")
        try engine.play(cue, feedback: normal, locale: "en")
        #expect(recorder.got == ["light"])
        // Only the pulse went: the difference is the light pattern's audio, sample for sample.
        let pulse = HapticAudio.render(.light, gain: cue.hapticGain)
        #expect(withPulse.samples.count == without.samples.count)
        for i in 0..<pulse.count {
            #expect(abs((withPulse.samples[i] - without.samples[i]) - pulse[i]) < 0.02, "sample \(i)")
        }
        #expect(zip(withPulse.samples, without.samples).dropFirst(pulse.count).allSatisfy { $0 == $1 })
        engine.setHaptics([], audioPulse: true)
        #expect(try engine.renderToBuffer(cue, feedback: normal, locale: "en").samples == withPulse.samples)
    }

    @Test func engineSendsPatternsToHapticOutputs() throws {
        final class Recorder: HapticOutput, @unchecked Sendable {
            var got: [(String, FeedbackEvent)] = []
            func play(_ pattern: HapticPattern, event: FeedbackEvent) throws { got.append((pattern.name, event)) }
        }
        let recorder = Recorder()
        let engine = FeedbackEngine(output: NullOutput(), sounds: Fixture.sounds, render: Fixture.render,
                                    haptics: [recorder], log: { _ in })
        let strong = Fixture.feedback(.strong)
        try engine.play(Cue.make(.completed, feedback: strong), feedback: strong, locale: "en")
        try engine.play(Cue.make(.announce, feedback: strong), feedback: strong, locale: "en")
        #expect(recorder.got.map(\.0) == ["medium"])
        #expect(recorder.got.map(\.1) == [.completed])
    }
}
