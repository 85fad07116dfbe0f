import Foundation
import SteppieService
import SteppieTestSupport
import Testing

/// `steppie say` with a service running on a private PulseAudio null sink: the sentence is heard
/// at the sink's monitor, played by the service's open stream.
@Suite(.serialized) struct ServiceAudioTests {
    static let env = ProcessInfo.processInfo.environment
    static let shouldRun = env["PULSE_SERVER"].map { !$0.isEmpty } ?? false || env["STEPPIE_REQUIRE_PULSE"] == "1"

    @Test(.enabled(if: shouldRun, "needs a PulseAudio server (scripts/with-pulse.sh)"))
    func sayThroughTheServiceIsAudibleAtTheSinkMonitor() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        try f.start(["--output", "pulse"])
        let sink = Self.env["PULSE_SINK"] ?? "steppie_test"
        let recording = f.directory + "/monitor.raw"
        var args = ["--latency-msec=10", "--format=s16le", "--rate=22050", "--channels=1", "-d", sink + ".monitor"]
        if let server = Self.env["PULSE_SERVER"] { args += ["-s", server] }
        let parec = try SpawnedProcess("/usr/bin/parec", args, stdoutPath: recording)
        func bytes() -> Int { ((try? FileManager.default.attributesOfItem(atPath: recording))?[.size] as? Int) ?? 0 }
        #expect(waitUntil(timeout: 5) { bytes() > 4410 }, "the monitor recorder got no data")
        let startBytes = bytes()
        let say = f.run(["say", "hello from the service", "--locale", "en"])
        #expect(say.status == 0, "\(say.err)")
        // Two seconds of monitor audio after the command.
        #expect(waitUntil(timeout: 10) { bytes() >= startBytes + 2 * 22050 * 2 })
        parec.stop(SIGTERM)
        let data = try Data(contentsOf: URL(fileURLWithPath: recording))
        let samples = data.withUnsafeBytes { raw in raw.bindMemory(to: Int16.self).map { Float($0) / 32768 } }
        let after = Array(samples.dropFirst(startBytes / 2))
        // Audible: 20 ms windows whose RMS is above −40 dBFS.
        let window = 441
        var audible = 0
        var peak: Float = 0
        for start in stride(from: 0, to: after.count - window, by: window) {
            let slice = after[start..<start + window]
            let rms = (slice.reduce(Float(0)) { $0 + $1 * $1 } / Float(window)).squareRoot()
            if rms > 0.01 { audible += 1 }
            peak = max(peak, slice.map(abs).max() ?? 0)
        }
        let seconds = Double(audible * window) / 22050
        #expect(seconds > 0.5, "audible \(seconds) s, peak \(peak)")
        #expect(peak < 1.0, "clipped")
    }
}
