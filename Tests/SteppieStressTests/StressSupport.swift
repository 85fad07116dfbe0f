import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SteppieCore
@testable import SteppieCLI

/// The repository root and the built binary, for tests that start real processes.
enum Repo {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var binary: String {
        for config in ["debug", "release"] {
            let path = root.appendingPathComponent(".build/\(config)/steppie").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return root.appendingPathComponent(".build/debug/steppie").path
    }
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

/// A process started with posix_spawn (clean signal mask, as the feedback tests explain), with an
/// optional pipe on standard input and standard output/error sent to files; stopped by its PID.
final class SpawnedProcess {
    let pid: pid_t
    private(set) var stdinFD: Int32 = -1
    private var reaped = false
    private(set) var exitStatus: Int32 = -1

    init(_ path: String, _ args: [String], environment: [String: String], stdinPipe: Bool = false,
         stdoutPath: String = "/dev/null", stderrPath: String = "/dev/null") throws {
        // A write to the pipe of a killed child must fail with EPIPE, not kill the test runner.
        signal(SIGPIPE, SIG_IGN)
        var fds: [Int32] = [-1, -1]
        if stdinPipe, pipe(&fds) != 0 { throw CocoaError(.fileWriteUnknown) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if stdinPipe {
            posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
            posix_spawn_file_actions_addclose(&actions, fds[0])
            posix_spawn_file_actions_addclose(&actions, fds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attr, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGHUP] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { env.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attr, argv, env)
        if stdinPipe { close(fds[0]) }
        guard rc == 0 else {
            if stdinPipe { close(fds[1]) }
            throw CocoaError(.executableLoad, userInfo: ["reason": String(cString: strerror(rc))])
        }
        self.pid = pid
        if stdinPipe {
            stdinFD = fds[1]
            _ = fcntl(stdinFD, F_SETFD, FD_CLOEXEC)
        }
    }

    /// Writes lines to standard input; false when the child no longer reads.
    @discardableResult
    func send(_ lines: [String]) -> Bool {
        guard stdinFD >= 0 else { return false }
        let bytes = Array((lines.map { $0 + "\n" }.joined()).utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(stdinFD, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    func closeInput() {
        if stdinFD >= 0 { close(stdinFD); stdinFD = -1 }
    }

    var running: Bool {
        guard !reaped else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { reaped = true; exitStatus = Self.decode(status); return false }
        return true
    }

    /// Waits up to `timeout` seconds for the exit; kills the child (SIGKILL) when it is late.
    @discardableResult
    func wait(timeout: Double = 30) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while running && Date() < deadline { usleep(2_000) }
        if running { stop(SIGKILL) }
        return exitStatus
    }

    /// Sends `signal` to this child only (by PID) and reaps it.
    func stop(_ signal: Int32 = SIGTERM) {
        closeInput()
        guard !reaped else { return }
        kill(pid, signal)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = true
        exitStatus = Self.decode(status)
    }

    static func decode(_ status: Int32) -> Int32 { (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f) }

    deinit { if !reaped { stop(SIGKILL) } else { closeInput() } }
}

/// Polls `condition` until it holds or `timeout` passes.
func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(3_000)
    }
    return condition()
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
