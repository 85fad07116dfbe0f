import Foundation
import SteppieTestSupport
import Testing
@testable import SteppieFeedback

/// When the PulseAudio tests run: with a server in `PULSE_SERVER`, or always under `STEPPIE_REQUIRE_PULSE=1`
/// (where a missing server makes them fail instead of being skipped).
enum PulseEnv {
    static let env = ProcessInfo.processInfo.environment
    static let required = env["STEPPIE_REQUIRE_PULSE"] == "1"
    static let server = env["PULSE_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
    static let shouldRun = server != nil || required
    static let sink = env["PULSE_SINK"] ?? "steppie_test"
}

/// Thread-safe list of log lines.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    var lines: [String] { lock.withLock { items } }
    func append(_ line: String) { lock.withLock { items.append(line) } }
}

/// Polls `condition` until it holds or `timeout` passes (tests never sleep on luck: they wait for a fact).

/// A null sink of a test's own on the private server: other suites play into the shared one at the
/// same time, which a test measuring silence must not hear. Unloaded by `unload()`.
final class OwnSink {
    let name = "steppie_own_" + UUID().uuidString.prefix(8).lowercased()
    private let module: String

    init() throws {
        module = try Self.pactl(["load-module", "module-null-sink", "sink_name=\(name)", "rate=22050", "channels=1"])
    }

    func unload() { _ = try? Self.pactl(["unload-module", module]) }

    /// Runs `pactl` on the test's server and returns what it printed.
    static func pactl(_ args: [String]) throws -> String {
        let out = NSTemporaryDirectory() + "steppie-pactl-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let full = (PulseEnv.server.map { ["-s", $0] } ?? []) + args
        let p = try SpawnedProcess("/usr/bin/pactl", full, stdoutPath: out)
        guard p.wait(timeout: 10) == 0 else { throw FeedbackError.pulse(call: "pactl \(args.first ?? "")", reason: "failed") }
        return ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Records a sink monitor with `parec` into a raw 16-bit file.
final class MonitorRecorder {
    let path = NSTemporaryDirectory() + "steppie-rec-\(UUID().uuidString).raw"
    private let process: SpawnedProcess

    init(server: String?, device: String) throws {
        var args = ["--latency-msec=10", "--format=s16le", "--rate=22050", "--channels=1", "-d", device]
        if let server { args += ["-s", server] }
        process = try SpawnedProcess("/usr/bin/parec", args, stdoutPath: path)
        // Data flowing (the playback stream writes silence while idle) means the recorder is attached.
        guard waitUntil(timeout: 5, { bytes > 4410 }) else { throw FeedbackError.pulse(call: "parec", reason: "no data") }
    }

    var bytes: Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// Waits until `seconds` more audio has arrived than now (the recording caught up with playback).
    func waitForMore(seconds: Double) -> Bool {
        let target = bytes + SampleFormat.samples(seconds) * 2
        return waitUntil(timeout: seconds * 4 + 3) { bytes >= target }
    }

    /// Stops parec (by its PID) and returns the samples.
    func stop() -> [Float] {
        process.stop(SIGTERM)
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.withUnsafeBytes { raw in raw.bindMemory(to: Int16.self).map { Float($0) / 32768 } }
    }
}

/// A sink of the test's own with a 10 ms reader on its monitor (so the null sink keeps a fine
/// clock), an output on it and an engine, woken by one short throwaway cue.
struct OwnSinkRig {
    let sink: OwnSink
    let output: PulseOutput
    let recorder: MonitorRecorder
    let engine: FeedbackEngine

    init() throws {
        sink = try OwnSink()
        do {
            output = try PulseOutput(options: .init(server: PulseEnv.server, sink: sink.name), log: { _ in })
            recorder = try MonitorRecorder(server: PulseEnv.server, device: sink.name + ".monitor")
        } catch {
            sink.unload()
            throw error
        }
        engine = Fixture.engine(output)
        let quiet = Fixture.feedback(.quiet)
        let report = try engine.play(Cue.make(.error, feedback: quiet), feedback: quiet, locale: "en")
        #expect(waitUntil(timeout: 5) { engine.latencies(of: report).cue != nil })
        #expect(waitUntil(timeout: 5) { !engine.isBusy })
        #expect(recorder.waitForMore(seconds: 0.3))
    }

    func close() {
        _ = recorder.stop()
        try? output.close()
        sink.unload()
    }
}
