import Foundation
import SteppieBenchSupport
import SteppieTestSupport

/// Child mode as a user starts it, through the release binary and a real PulseAudio server:
/// launch → first sample of the first announcement written to the stream (20 runs), and the
/// peak RSS of child mode over a whole routine.
enum StartupBench {
    static func run(directory: URL) throws {
        guard ProcessInfo.processInfo.environment["PULSE_SERVER"] != nil else {
            print("\n(start-up benchmark skipped: needs a PulseAudio server; run through scripts/with-pulse.sh or make bench)")
            return
        }
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("steppie").path
        guard FileManager.default.isExecutableFile(atPath: binary) else { throw BenchError("no steppie binary beside the benchmark") }
        let db = directory.appendingPathComponent("startup.db").path
        var env = ProcessInfo.processInfo.environment
        env["TZ"] = env["TZ"] ?? "Asia/Seoul"
        let initRun = try SpawnedProcess.measure(binary, ["init", "--db", db, "--child", "Mina"], environment: env)
        guard initRun.exitStatus == 0 else { throw BenchError("steppie init failed") }

        let keys = directory.appendingPathComponent("keys.txt").path
        try "wait 0.3\nquit\n".write(toFile: keys, atomically: true, encoding: .utf8)
        let probe = directory.appendingPathComponent("probe.txt").path
        var startup = Samples(), baseline = Samples()
        for _ in 0..<20 {
            try? FileManager.default.removeItem(atPath: probe)
            var e = env
            e["STEPPIE_STARTUP_PROBE"] = probe
            let r = try SpawnedProcess.measure(binary, ["child", "--db", db, "--output", "pulse", "--keys-from", keys, "--locale", "en"], environment: e)
            guard r.exitStatus == 0, let text = try? String(contentsOfFile: probe, encoding: .utf8),
                  let written = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw BenchError("child mode run failed (status \(r.exitStatus)) or wrote no probe")
            }
            startup.values.append(Double(written - r.startedAt) / 1e6)
            let b = try SpawnedProcess.measure(binary, ["today", "--db", db, "--locale", "en"], environment: env)
            baseline.values.append(Double(b.elapsedNanoseconds ?? 0) / 1e6)
        }

        // A whole routine: six completions, each followed by "next".
        let routine = directory.appendingPathComponent("routine.txt").path
        try (String(repeating: "done\nwait 0.2\nnext\nwait 0.2\n", count: 6) + "wait 0.5\nquit\n").write(toFile: routine, atomically: true, encoding: .utf8)
        let whole = try SpawnedProcess.measure(binary, ["child", "--db", db, "--output", "pulse", "--keys-from", routine, "--child", "Mina"], environment: env)
        let rssMiB = Double(whole.usage?.maxRSSKiB ?? 0) / 1024
        // The floor: the same binary doing nothing (Foundation and every linked library mapped).
        let idle = try SpawnedProcess.measure(binary, ["--help"], environment: env)

        Report.print(title: "Child mode start-up (release build, PulseAudio null sink, 20 runs)", area: "child mode", rows: [
            ReportRow(name: "launch → first announcement sample written", samples: startup, target: "< 150 ms median",
                      baselineName: "the same binary: `steppie today` start to exit", baseline: baseline),
        ])
        let idleMiB = Double(idle.usage?.maxRSSKiB ?? 0) / 1024
        print(String(format: "\npeak RSS of child mode over a whole routine (6 activities): %.1f MiB = %.1f MB (target ≤ 30 MB); `steppie --help`: %.1f MiB",
                     rssMiB, rssMiB * 1.048576, idleMiB))
        BenchRow.publish([BenchRow(area: "child mode", figure: "peak RSS over a whole routine (6 activities)",
                                   median: String(format: "%.1f MB", rssMiB * 1.048576), target: "≤ 30 MB",
                                   baseline: "the same binary: `steppie --help` (peak RSS)",
                                   baselineMedian: String(format: "%.1f MB", idleMiB * 1.048576), ratio: BenchRow.ratio(rssMiB, idleMiB))])
    }
}
