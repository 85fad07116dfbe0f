import Foundation
import SteppieBenchSupport
import SteppieService
import SteppieTestSupport
#if canImport(Glibc)
import Glibc
#endif

// `steppie-bench-service`: the service against the plain tools, in one run, on a private
// PulseAudio null sink (scripts/with-pulse.sh). Command → first audible sample at the sink
// monitor for `steppie say` with the service running, `steppie say --no-service`, the `espeak-ng`
// command, `paplay` of a pre-rendered WAV and `spd-say` where installed; a socket press → reply
// (the cue is written to the stream before the reply is sent); the service's RSS with three children.

let runs = CommandLine.arguments.firstIndex(of: "--runs").flatMap { Int(CommandLine.arguments[$0 + 1]) } ?? 20
let sentence = "Next, it is time to brush your teeth."
let sink = ProcessInfo.processInfo.environment["PULSE_SINK"] ?? "steppie_test"
let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("steppie").path

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
func ms(_ ns: UInt64) -> Double { Double(ns) / 1e6 }
func percentile(_ xs: [Double], _ p: Double) -> Double {
    guard !xs.isEmpty else { return .nan }
    let s = xs.sorted()
    return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
}
func progress(_ s: String) { FileHandle.standardError.write(Data("bench: \(s)\n".utf8)) }
func waitFor(_ timeout: Double, _ cond: () -> Bool) -> Bool {
    let end = now() + UInt64(timeout * 1e9)
    while now() < end { if cond() { return true }; usleep(1000) }
    return cond()
}

do {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-bench-service-\(getpid())").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var env = ProcessInfo.processInfo.environment
    env["STEPPIE_DB"] = dir + "/steppie.db"
    env["STEPPIE_SOCKET"] = dir + "/control.sock"
    env["LANG"] = "en_US.UTF-8"
    env["STEPPIE_NOW"] = nil
    for name in ["Mina", "Joon", "Ari"] {
        guard try SpawnedProcess(binary, ["init", "--child", name], environment: env).waitForExit() == 0 else { throw BenchError("init failed") }
    }
    let wav = dir + "/sentence.wav"
    guard try SpawnedProcess(binary, ["say", sentence, "--locale", "en", "--out", wav, "--no-service"], environment: env).waitForExit() == 0 else {
        throw BenchError("say --out failed")
    }

    let listener = try MonitorListener(device: sink + ".monitor")
    guard waitFor(5, { listener.bytes > 8820 }) else { throw BenchError("no audio from the sink monitor") }

    func heard(_ name: String, runs: Int, _ start: () throws -> SpawnedProcess?) rethrows -> [Double] {
        progress("heard: \(name)")
        var out: [Double] = []
        for _ in 0..<runs {
            listener.waitForSilence(quiet: 0.25)
            let t = now()
            let child = try start()
            if waitFor(5, { listener.firstAudible(after: t) != nil }), let a = listener.firstAudible(after: t) { out.append(ms(a - t)) }
            _ = child?.wait(timeout: 15)
            listener.waitForSilence(quiet: 0.25)
        }
        return out
    }

    // Baselines first, with no service running.
    let noService = try heard("steppie say --no-service", runs: runs) {
        try SpawnedProcess(binary, ["say", sentence, "--locale", "en", "--no-service"], environment: env)
    }
    let espeak = try heard("espeak-ng", runs: runs) { try SpawnedProcess("espeak-ng", ["-v", "en", sentence]) }
    let paplay = try heard("paplay", runs: runs) { try SpawnedProcess("paplay", [wav]) }
    var spd: [Double] = []
    // The first spd-say starts its daemon: a baseline only when that finishes within 10 s.
    let spdWarm = SpawnedProcess.lookUp("spd-say", in: env["PATH"] ?? "/usr/bin") == nil ? nil : try? SpawnedProcess("spd-say", ["-w", "warm up"])
    spdWarm?.wait(timeout: 10)
    if let spdWarm, !spdWarm.timedOut {
        spd = try heard("spd-say", runs: runs / 2) { try SpawnedProcess("spd-say", ["-w", "-o", "espeak-ng", "-l", "en", sentence]) }
    }

    // The service.
    let service = try SpawnedProcess(binary, ["serve", "--output", "pulse", "--http", "none"], environment: env)
    guard waitFor(20, { ServiceClient.connect(path: dir + "/control.sock") != nil }) else { throw BenchError("the service did not start") }
    // One throwaway sentence so the stream is awake.
    _ = try SpawnedProcess(binary, ["say", "warm up", "--locale", "en"], environment: env).wait(timeout: 15)
    listener.waitForSilence(quiet: 0.3)
    let viaService = try heard("steppie say (service)", runs: runs) {
        try SpawnedProcess(binary, ["say", sentence, "--locale", "en"], environment: env)
    }

    progress("socket presses")
    guard let client = ServiceClient.connect(path: dir + "/control.sock") else { throw BenchError("no socket") }
    var presses: [Double] = []
    for i in 0..<200 {
        let action: PressAction = i % 2 == 0 ? .done : .undo
        let t = now()
        let reply = try client.request(ServiceRequest(.press(action, child: "Mina")))
        presses.append(ms(now() - t))
        guard reply.ok else { throw BenchError("press refused: \(String(describing: reply.error))") }
        usleep(20_000)
    }
    listener.waitForSilence(quiet: 0.3)
    let status = try String(contentsOfFile: "/proc/\(service.pid)/status", encoding: .utf8)
    func kb(_ key: String) -> Double {
        let line = status.split(separator: "\n").first { $0.hasPrefix(key) } ?? ""
        return Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan
    }
    let rss = kb("VmRSS:") / 1024, peak = kb("VmHWM:") / 1024
    service.stop()
    listener.stop()

    func row(_ name: String, _ xs: [Double]) {
        print(name.padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: "  %9.2f  %9.2f  (n=%d)", percentile(xs, 0.5), percentile(xs, 0.99), xs.count))
    }
    print("steppie-bench-service: \(runs) runs each, PulseAudio null sink \(sink), release build, 3 children")
    print("metric".padding(toLength: 52, withPad: " ", startingAt: 0) + "  median ms     p99 ms")
    row("steppie say, service running → first audible", viaService)
    row("steppie say --no-service → first audible", noService)
    row("espeak-ng command → first audible", espeak)
    row("paplay pre-rendered WAV → first audible", paplay)
    row("spd-say → first audible", spd)
    row("socket press → reply (cue already written)", presses)
    print(String(format: "service RSS with 3 children: %.1f MB (peak %.1f MB)", rss, peak))
    let m = percentile(viaService, 0.5)
    BenchRow.publish([
        BenchRow(area: "service", figure: "`steppie say` with the service running → first audible", median: BenchRow.ms(m),
                 p99: BenchRow.ms(percentile(viaService, 0.99)), target: "≤ 15 ms median",
                 baseline: "`steppie say --no-service`", baselineMedian: BenchRow.ms(percentile(noService, 0.5)),
                 ratio: BenchRow.ratio(m, percentile(noService, 0.5))),
        BenchRow(area: "service", figure: "`steppie say` with the service running → first audible", median: BenchRow.ms(m),
                 baseline: "`espeak-ng` command", baselineMedian: BenchRow.ms(percentile(espeak, 0.5)),
                 ratio: BenchRow.ratio(m, percentile(espeak, 0.5))),
        BenchRow(area: "service", figure: "`steppie say` with the service running → first audible", median: BenchRow.ms(m),
                 baseline: "`paplay` of a pre-rendered WAV", baselineMedian: BenchRow.ms(percentile(paplay, 0.5)),
                 ratio: BenchRow.ratio(m, percentile(paplay, 0.5))),
        BenchRow(area: "service", figure: "`steppie say` with the service running → first audible", median: BenchRow.ms(m),
                 baseline: spd.isEmpty ? "`spd-say` (not installed)" : "`spd-say`", baselineMedian: spd.isEmpty ? "-" : BenchRow.ms(percentile(spd, 0.5)),
                 ratio: spd.isEmpty ? "-" : BenchRow.ratio(m, percentile(spd, 0.5))),
        BenchRow(area: "service", figure: "socket press → reply, cue already written (200 presses)", median: BenchRow.ms(percentile(presses, 0.5)),
                 p99: BenchRow.ms(percentile(presses, 0.99)), target: "≤ 2 ms p99"),
        BenchRow(area: "service", figure: "service RSS with 3 children (peak \(String(format: "%.1f", peak)) MB)",
                 median: String(format: "%.1f MB", rss), target: "≤ 40 MB"),
    ])
} catch {
    FileHandle.standardError.write(Data("steppie-bench-service: \(error)\n".utf8))
    exit(1)
}
