import Foundation
import SteppieTestSupport
#if canImport(Glibc)
import Glibc
#endif
import SteppieCore
@testable import SteppieCLI

/// The repository root and the built binary, for tests that start real processes.
enum Repo {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var binary: String { BuiltBinary.path(repository: root) }
}

/// A temporary directory with a database, and `steppie` run in-process against it.
final class StressHarness {
    let directory: URL
    let db: String
    let zone = TimeZone(identifier: "Asia/Seoul") ?? .current
    let clock: ManualWallClock

    init(now: String = "2026-03-02T07:00:00+09:00") {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-stress-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        db = directory.appendingPathComponent("steppie.db").path
        clock = ManualWallClock(Timestamp.parse(now) ?? Date())
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs one command line in-process; returns (status, stdout, stderr).
    @discardableResult
    func run(_ args: [String], dataDirectory: URL = Repo.root) -> (status: Int32, out: String, err: String) {
        let (console, captured) = Console.capturing()
        let env = CLIEnvironment(variables: [:], console: console, clock: clock, timeZone: zone,
                                 dataDirectory: dataDirectory, executablePath: "", readLine: { nil })
        let status = Steppie.run(args + ["--db", db, "--locale", "en"], in: env)
        return (status, captured.out, captured.err)
    }

    /// The environment for child processes: the test's own, plus `extra`.
    static func environment(_ extra: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for (k, v) in extra { env[k] = v }
        return env
    }
}


/// A JSON-lines events file as written by `steppie child --events`.
struct EventsFile {
    let events: [[String: Any]]
    /// A last line without its newline (the writer was killed mid-line); it is skipped.
    let partialTail: Bool
    /// Complete lines that are not JSON objects (must never happen).
    let brokenLines: [String]

    init(path: String) {
        let data = FileManager.default.contents(atPath: path) ?? Data()
        var lines = data.split(separator: 10, omittingEmptySubsequences: false).map { Data($0) }
        partialTail = !(lines.last?.isEmpty ?? true)
        lines.removeLast()   // the empty remainder after the last newline, or the partial line
        var events: [[String: Any]] = [], broken: [String] = []
        for line in lines where !line.isEmpty {
            if let obj = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any] { events.append(obj) }
            else { broken.append(String(decoding: line, as: UTF8.self)) }
        }
        self.events = events
        brokenLines = broken
    }

    var isEmpty: Bool { events.isEmpty }

    func cues(_ name: String) -> [[String: Any]] {
        events.filter { $0["type"] as? String == "cue" && $0["cue"] as? String == name }
    }
}

/// A small deterministic generator (SplitMix64), so every failing case can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The seed for randomized tests: `STEPPIE_STRESS_SEED` or a fixed default.
var stressSeed: UInt64 {
    ProcessInfo.processInfo.environment["STEPPIE_STRESS_SEED"].flatMap(UInt64.init) ?? 0x5EED_2026
}
