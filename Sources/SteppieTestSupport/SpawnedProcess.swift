import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Shared by the test targets and the benchmarks: real child processes, started and stopped by PID.

/// A process started with posix_spawn (clean signal mask, as the feedback tests explain), with an
/// optional pipe on standard input and standard output/error sent to files; stopped by its PID.
public final class SpawnedProcess {
    public let pid: pid_t
    public private(set) var stdinFD: Int32 = -1
    private var reaped = false
    public private(set) var exitStatus: Int32 = -1

    public init(_ path: String, _ args: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                stdinPipe: Bool = false,
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
    public func send(_ lines: [String]) -> Bool {
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

    public func closeInput() {
        if stdinFD >= 0 { close(stdinFD); stdinFD = -1 }
    }

    public var running: Bool {
        guard !reaped else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { reaped = true; exitStatus = Self.decode(status); return false }
        return true
    }

    /// Waits up to `timeout` seconds for the exit; kills the child (SIGKILL) when it is late.
    @discardableResult
    public func wait(timeout: Double = 30) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while running && Date() < deadline { usleep(2_000) }
        if running { stop(SIGKILL) }
        return exitStatus
    }

    /// Sends `signal` to this child only (by PID) and reaps it.
    public func stop(_ signal: Int32 = SIGTERM) {
        closeInput()
        guard !reaped else { return }
        kill(pid, signal)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = true
        exitStatus = Self.decode(status)
    }

    public static func decode(_ status: Int32) -> Int32 { (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f) }

    /// Runs a command to completion and returns its exit status (-1 when it cannot start).
    public static func run(_ path: String, _ args: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                           timeout: Double = 30) -> Int32 {
        guard let p = try? SpawnedProcess(path, args, environment: environment) else { return -1 }
        return p.wait(timeout: timeout)
    }

    deinit { if !reaped { stop(SIGKILL) } else { closeInput() } }
}

/// Polls `condition` until it holds or `timeout` passes.
public func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(3_000)
    }
    return condition()
}
