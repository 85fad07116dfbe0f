import Foundation
import SteppieBenchSupport
import SteppieTestSupport

/// What a command costs before it does anything (issue 16): `steppie --help`, `steppie today` and
/// `steppie say --out` against a bare Swift + Foundation program that this benchmark compiles
/// itself (`swiftc -O`, the toolchain's default dynamic linking) and against `espeak-ng -w`,
/// interleaved in the same run, with each process's peak RSS.
enum CommandBench {
    static let runs = 40
    static let sentence = "Brush your teeth, then put on your shoes."

    static func run(directory: URL) throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("steppie").path
        guard FileManager.default.isExecutableFile(atPath: binary) else { throw BenchError("no steppie binary beside the benchmark") }
        let bare = try buildBare(in: directory, static: false)
        let bareStatic = try buildBare(in: directory, static: true)
        guard let espeak = which("espeak-ng") else { throw BenchError("espeak-ng is not installed") }

        var env = ProcessInfo.processInfo.environment
        env["TZ"] = env["TZ"] ?? "Asia/Seoul"
        // No service may answer: `say` must work in-process, as on a device without `steppie serve`.
        env["STEPPIE_SOCKET"] = directory.appendingPathComponent("no-service.sock").path
        let db = directory.appendingPathComponent("commands.db").path
        guard try SpawnedProcess.measure(binary, ["init", "--db", db, "--child", "Mina"], environment: env).exitStatus == 0 else {
            throw BenchError("steppie init failed")
        }
        let ourWav = directory.appendingPathComponent("ours.wav").path
        let theirWav = directory.appendingPathComponent("espeak.wav").path

        var help = Timed(), today = Timed(), say = Timed(), bareRun = Timed(), staticRun = Timed(), espeakRun = Timed()
        for _ in 0..<runs {
            try bareRun.add(SpawnedProcess.measure(bare, [], environment: env))
            try staticRun.add(SpawnedProcess.measure(bareStatic, [], environment: env))
            try help.add(SpawnedProcess.measure(binary, ["--help"], environment: env))
            try today.add(SpawnedProcess.measure(binary, ["today", "--db", db, "--locale", "en"], environment: env))
            try say.add(SpawnedProcess.measure(binary, ["say", "--out", ourWav, sentence], environment: env.merging(["LANG": "en_US.UTF-8"]) { $1 }))
            try espeakRun.add(SpawnedProcess.measure(espeak, ["-v", "en", "-w", theirWav, sentence], environment: env))
        }
        for (name, timed) in [("steppie --help", help), ("steppie today", today), ("steppie say --out", say),
                              ("bare program", bareRun), ("bare program (static)", staticRun), ("espeak-ng -w", espeakRun)]
        where timed.failures > 0 {
            throw BenchError("\(name) failed \(timed.failures) of \(runs) runs")
        }

        Report.print(title: "Command start-up (release build, \(runs) interleaved runs, spawn → exit)", area: "start-up", rows: [
            ReportRow(name: "`steppie --help`", samples: help.ms, target: "≤ 1.5× bare",
                      baselineName: "bare Swift + Foundation program (swiftc -O)", baseline: bareRun.ms),
            ReportRow(name: "`steppie today`", samples: today.ms, target: "-",
                      baselineName: "bare Swift + Foundation program (swiftc -O)", baseline: bareRun.ms),
            ReportRow(name: "`steppie say --out` (one sentence)", samples: say.ms, target: "≤ 1.2× espeak-ng",
                      baselineName: "`espeak-ng -w` (same sentence)", baseline: espeakRun.ms),
            ReportRow(name: "`steppie --help`", samples: help.ms, target: "-",
                      baselineName: "bare program linked with -static-stdlib", baseline: staticRun.ms),
        ])
        let mb = { (kib: Double) in kib * 1024 / 1_000_000 }
        print(String(format: "\npeak RSS: `steppie --help` %.1f MB (target ≤ 20 MB), `today` %.1f MB, `say --out` %.1f MB; bare %.1f MB, bare static %.1f MB, espeak-ng -w %.1f MB",
                     mb(help.rssKiB), mb(today.rssKiB), mb(say.rssKiB), mb(bareRun.rssKiB), mb(staticRun.rssKiB), mb(espeakRun.rssKiB)))
        BenchRow.publish([
            BenchRow(area: "start-up", figure: "peak RSS of `steppie --help`", median: String(format: "%.1f MB", mb(help.rssKiB)),
                     target: "≤ 20 MB", baseline: "bare Swift + Foundation program (peak RSS)",
                     baselineMedian: String(format: "%.1f MB", mb(bareRun.rssKiB)), ratio: BenchRow.ratio(help.rssKiB, bareRun.rssKiB)),
            BenchRow(area: "start-up", figure: "peak RSS of `steppie say --out`", median: String(format: "%.1f MB", mb(say.rssKiB)),
                     baseline: "`espeak-ng -w` (peak RSS)", baselineMedian: String(format: "%.1f MB", mb(espeakRun.rssKiB)),
                     ratio: BenchRow.ratio(say.rssKiB, espeakRun.rssKiB)),
        ])
    }

    /// Wall times (ms) and the largest peak RSS of one command over the runs.
    struct Timed {
        var ms = Samples()
        var rssKiB: Double = 0
        var failures = 0
        mutating func add(_ r: SpawnedProcess) {
            if r.exitStatus != 0 { failures += 1 }
            ms.values.append(Double(r.elapsedNanoseconds ?? 0) / 1e6)
            rssKiB = max(rssKiB, Double(r.usage?.maxRSSKiB ?? 0))
        }
    }

    /// Compiles the baseline: a Swift program that touches Foundation (JSON, dates, arguments) and exits.
    static func buildBare(in directory: URL, static isStatic: Bool) throws -> String {
        let source = directory.appendingPathComponent("bare.swift")
        try """
        import Foundation
        let arguments = ProcessInfo.processInfo.arguments
        let data = try JSONEncoder().encode(["arguments": arguments.count])
        print(String(decoding: data, as: UTF8.self), Date().timeIntervalSince1970 > 0)

        """.write(to: source, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent(isStatic ? "bare-static" : "bare").path
        guard let swiftc = which("swiftc") else { throw BenchError("swiftc not found on PATH") }
        let args = ["-O", source.path, "-o", out] + (isStatic ? ["-static-stdlib"] : [])
        let r = try SpawnedProcess.measure(swiftc, args, environment: ProcessInfo.processInfo.environment)
        guard r.exitStatus == 0 else { throw BenchError("swiftc failed to build the bare program (\(isStatic ? "static" : "dynamic"))") }
        return out
    }

    static func which(_ name: String) -> String? {
        SpawnedProcess.lookUp(name, in: ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")
    }
}
