import Foundation
import SteppieTestSupport
import Testing
import SteppieCore
@testable import SteppieFeedback

@Suite(.serialized, .enabled(if: PulseEnv.shouldRun, "set PULSE_SERVER (scripts/with-pulse.sh) to run"))
struct PulseTests {
    /// How long the cue is audible (gaps of silence a starved stream may insert do not count).
    func span(_ s: [Float]) -> Double { Fixture.audibleDuration(s) }

    /// Plays `cue` through the real server and returns (recorded audible span, rendered audible span).
    func playAndRecord(_ event: FeedbackEvent, _ intensity: FeedbackIntensity) throws -> (Double, Double, [Float]) {
        // A sink of the test's own: other suites play into the shared sink at the same time, and a
        // cue of theirs heard here made the recording 0.3 s longer than the cue (CI, 2026-12-02).
        let rig = try OwnSinkRig()
        defer { rig.close() }
        let output = rig.output, engine = rig.engine
        let recorder = try MonitorRecorder(server: PulseEnv.server, device: rig.sink.name + ".monitor")
        let feedback = Fixture.feedback(intensity)
        let cue = Cue.make(event, context: CueContext(routineTitle: "Brush teeth"), feedback: feedback)
        let rendered = try engine.renderToBuffer(cue, feedback: feedback, locale: "en")
        try engine.play(cue, feedback: feedback, locale: "en")
        #expect(waitUntil(timeout: rendered.duration + 5) { !output.isBusy })
        #expect(recorder.waitForMore(seconds: 0.3))
        let recorded = recorder.stop()
        return (span(recorded), span(rendered.samples), recorded)
    }

    @Test func completedCueArrivesWhole() throws {
        let (recorded, rendered, samples) = try playAndRecord(.completed, .strong)
        #expect(AudioLevels(samples).rms > 0.005)
        #expect(rendered > 1)
        #expect(abs(recorded / rendered - 1) <= 0.10, "recorded \(recorded) s, rendered \(rendered) s")
    }

    @Test func speechArrivesWhole() throws {
        let (recorded, rendered, _) = try playAndRecord(.announce, .normal)
        #expect(rendered > 0.8)
        #expect(abs(recorded / rendered - 1) <= 0.10, "recorded \(recorded) s, rendered \(rendered) s")
    }

    @Test func newerMessageInterruptsOlderAnnouncement() throws {
        let rig = try OwnSinkRig()
        defer { rig.close() }
        let output = rig.output, engine = rig.engine
        let recorder = try MonitorRecorder(server: PulseEnv.server, device: rig.sink.name + ".monitor")
        let strong = Fixture.feedback(.strong)
        let long = Cue.make(.announce, context: CueContext(routineTitle: String(repeating: "brush your teeth and ", count: 6)),
                            feedback: strong)
        let first = try engine.play(long, feedback: strong, locale: "en")
        let announceLength = span(try engine.renderToBuffer(long, feedback: strong, locale: "en").samples)
        #expect(waitUntil(timeout: 3) { engine.latencies(of: first).speech != nil })
        let reminder = try engine.play(Cue.make(.reminder, context: CueContext(routineTitle: "Eat", minutes: 5), feedback: strong),
                                       feedback: strong, locale: "en")
        #expect(reminder.decision == .wait)   // a reminder never cuts anything short
        let done = Cue.make(.completed, context: CueContext(routineTitle: "Eat"), feedback: strong)
        let second = try engine.play(done, feedback: strong, locale: "en")
        #expect(second.decision == .interrupt)
        let doneLength = span(try engine.renderToBuffer(done, feedback: strong, locale: "en").samples)
        #expect(waitUntil(timeout: 20) { !output.isBusy })
        #expect(recorder.waitForMore(seconds: 0.3))
        let total = span(recorder.stop())
        // The announcement was cut at once; the reminder waiting behind it went with it (the flush).
        #expect(total < announceLength + doneLength)
        #expect(total > doneLength)
    }

    @Test func serverDeathFallsBackAndReconnects() throws {
        let server = try PrivatePulseServer()
        try server.start()
        let log = LogLines()
        let fallback = NullOutput()
        let output = try PulseOutput(options: .init(server: server.address, sink: "steppie_test", retryInterval: 0.2),
                                     fallback: fallback, log: { log.append($0.description) })
        defer { try? output.close() }
        let engine = Fixture.engine(output)
        let strong = Fixture.feedback(.strong)
        let cue = Cue.make(.completed, context: CueContext(routineTitle: "Brush teeth"), feedback: strong)
        let report = try engine.play(cue, feedback: strong, locale: "en")
        #expect(waitUntil(timeout: 3) { engine.latencies(of: report).cue != nil })

        server.kill()   // in the middle of the cue
        #expect(waitUntil(timeout: 5) { !output.isConnected })
        #expect(log.lines.count == 1)
        #expect(log.lines.first?.contains("PulseAudio server went away") == true)

        try engine.play(cue, feedback: strong, locale: "en")  // goes on, through the fallback
        #expect(fallback.programs == 1)
        #expect(log.lines.count == 1)   // still one line, however often it retries

        try server.start()
        #expect(waitUntil(timeout: 10) { output.isConnected })
        #expect(log.lines.count == 2 && log.lines.last?.contains("is back") == true)
        let recorder = try MonitorRecorder(server: server.address, device: "steppie_test.monitor")
        try engine.play(cue, feedback: strong, locale: "en")
        #expect(waitUntil(timeout: 10) { !output.isBusy })
        #expect(recorder.waitForMore(seconds: 0.3))
        let samples = recorder.stop()
        #expect(AudioLevels(samples).rms > 0.005)
        #expect(fallback.programs == 1)
    }

    @Test func streamLatencyIsSmall() throws {
        let output = try PulseOutput(options: .init(server: PulseEnv.server, sink: PulseEnv.sink), log: { _ in })
        defer { try? output.close() }
        var latency: Double?
        #expect(waitUntil(timeout: 3) { latency = output.latency(); return latency != nil })
        #expect(try #require(latency) < 0.05)
    }
}

@Suite(.serialized, .enabled(if: PulseEnv.shouldRun, "set PULSE_SERVER (scripts/with-pulse.sh) to run"))
struct PulseTimingTests {
    @Test(arguments: [FeedbackEvent.completed, .next])
    func firstSamplesAreWrittenAtOnce(event: FeedbackEvent) throws {
        let output = try PulseOutput(options: .init(server: PulseEnv.server, sink: PulseEnv.sink), log: { _ in })
        defer { try? output.close() }
        let engine = Fixture.engine(output)
        let strong = Fixture.feedback(.strong)
        let cue = Cue.make(event, context: CueContext(routineTitle: "Brush teeth"), feedback: strong)
        let report = try engine.play(cue, feedback: strong, locale: "en")
        #expect(report.spokenText != nil)
        let arrived = waitUntil(timeout: 2) { engine.latencies(of: report).speech != nil }
        #expect(arrived, "\(report) \(engine.latencies(of: report))")
        let (cueLatency, speechLatency) = engine.latencies(of: report)
        #expect(try #require(cueLatency) < 0.05)
        if event == .next { #expect(try #require(speechLatency) < 0.05) }
    }
}
