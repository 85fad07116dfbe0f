import Foundation
import SteppieService
import SteppieTestSupport
import Testing

/// `steppie say` with a service running on a private PulseAudio null sink: the sentence is heard
/// at the sink's monitor, played by the service's open stream.
@Suite(.serialized) struct ServiceAudioTests {
    static let env = ProcessInfo.processInfo.environment
    static let shouldRun = env["PULSE_SERVER"].map { !$0.isEmpty } ?? false || env["STEPPIE_REQUIRE_PULSE"] == "1"

    /// Seconds of audible audio (20 ms windows over −40 dBFS) and the peak, in monitor samples.
    static func audible(_ samples: [Float]) -> (seconds: Double, peak: Float) {
        let window = 441
        var audible = 0
        var peak: Float = 0
        for start in stride(from: 0, to: samples.count - window, by: window) {
            let slice = samples[start..<start + window]
            let rms = (slice.reduce(Float(0)) { $0 + $1 * $1 } / Float(window)).squareRoot()
            if rms > 0.01 { audible += 1 }
            peak = max(peak, slice.map(abs).max() ?? 0)
        }
        return (Double(audible * window) / 22050, peak)
    }

    /// Runs `pactl` on the test's server; returns its output (a module index for load-module).
    static func pactl(_ args: [String]) throws -> String {
        let out = NSTemporaryDirectory() + "pactl-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: out) }
        var full = args
        if let server = env["PULSE_SERVER"] { full = ["-s", server] + full }
        let p = try SpawnedProcess("/usr/bin/pactl", full, stdoutPath: out)
        guard p.wait(timeout: 10) == 0 else { throw SpawnFailure(message: "pactl \(args.joined(separator: " ")) failed") }
        return ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct SpawnFailure: Error { let message: String }

    /// Runs `command` (arguments of the real binary) with a service on the null sink and returns
    /// what the sink's monitor heard in the two seconds after it.
    static func heard(_ command: [String], setUp: (ServiceFixture) -> Void = { _ in }) throws -> (status: Int32, seconds: Double, peak: Float) {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        setUp(f)
        // A null sink of its own: other suites play into the shared one at the same time.
        let sink = "steppie_svc_" + UUID().uuidString.prefix(8).lowercased()
        let module = try Self.pactl(["load-module", "module-null-sink", "sink_name=\(sink)", "rate=22050", "channels=1"])
        defer { _ = try? Self.pactl(["unload-module", module]) }
        try f.start(["--output", "pulse"], extra: ["PULSE_SINK": sink])
        let recording = f.directory + "/monitor.raw"
        var args = ["--latency-msec=10", "--format=s16le", "--rate=22050", "--channels=1", "-d", sink + ".monitor"]
        if let server = env["PULSE_SERVER"] { args += ["-s", server] }
        let parec = try SpawnedProcess("/usr/bin/parec", args, stdoutPath: recording)
        func bytes() -> Int { ((try? FileManager.default.attributesOfItem(atPath: recording))?[.size] as? Int) ?? 0 }
        #expect(waitUntil(timeout: 5) { bytes() > 4410 }, "the monitor recorder got no data")
        let startBytes = bytes()
        let run = f.run(command + ["--locale", "en"], extra: ["PULSE_SINK": sink])
        #expect(waitUntil(timeout: 10) { bytes() >= startBytes + 2 * 22050 * 2 })
        parec.stop(SIGTERM)
        let data = try Data(contentsOf: URL(fileURLWithPath: recording))
        let samples = data.withUnsafeBytes { raw in raw.bindMemory(to: Int16.self).map { Float($0) / 32768 } }
        let (seconds, peak) = audible(Array(samples.dropFirst(startBytes / 2)))
        return (run.status, seconds, peak)
    }

    @Test(.enabled(if: shouldRun, "needs a PulseAudio server (scripts/with-pulse.sh)"))
    func sayThroughTheServiceIsAudibleAtTheSinkMonitor() throws {
        let (status, seconds, peak) = try Self.heard(["say", "hello from the service"])
        #expect(status == 0)
        #expect(seconds > 0.5, "audible \(seconds) s, peak \(peak)")
        #expect(peak < 1.0, "clipped")
    }

    @Test(.enabled(if: shouldRun, "needs a PulseAudio server (scripts/with-pulse.sh)"))
    func completeThroughTheServiceIsHeard() throws {
        let (status, seconds, peak) = try Self.heard(["complete"])
        #expect(status == 0)
        #expect(seconds > 0.3, "audible \(seconds) s, peak \(peak)")
    }

    @Test(.enabled(if: shouldRun, "needs a PulseAudio server (scripts/with-pulse.sh)"))
    func feedbackPreviewIsPlayedByTheService() throws {
        let loud = try Self.heard(["feedback", "preview", "--event", "completed", "--intensity", "strong"])
        #expect(loud.status == 0)
        #expect(loud.seconds > 0.3, "strong: audible \(loud.seconds) s")
        let off = try Self.heard(["feedback", "preview", "--event", "completed", "--intensity", "off"])
        #expect(off.status == 0)
        #expect(off.seconds < 0.1, "off: audible \(off.seconds) s")
    }
}
