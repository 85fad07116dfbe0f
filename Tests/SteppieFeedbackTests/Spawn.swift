import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with posix_spawn, with a clean signal mask (the test runner blocks
/// SIGINT/SIGTERM and Foundation's Process passes that on), stopped and reaped by its PID.
final class Spawned {
    let pid: pid_t
    private var reaped = false

    init(_ path: String, _ args: [String], environment: [String: String]? = nil,
         stdoutPath: String? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attr, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGINT, SIGTERM, SIGPIPE, SIGCHLD] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { env.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attr, argv, env)
        guard rc == 0 else { throw CocoaError(.executableLoad, userInfo: ["reason": String(cString: strerror(rc))]) }
        self.pid = pid
    }

    /// True while the child runs.
    var running: Bool {
        guard !reaped else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { reaped = true; return false }
        return true
    }

    /// Waits for the child to exit and returns its exit status (or 128 + signal).
    @discardableResult
    func wait() -> Int32 {
        guard !reaped else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = true
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Sends `signal` to this child only (by PID) and reaps it.
    func stop(_ signal: Int32 = SIGTERM) {
        guard !reaped else { return }
        kill(pid, signal)
        wait()
    }

    /// Runs a command to completion and returns its exit status.
    static func run(_ path: String, _ args: [String], environment: [String: String]? = nil) -> Int32 {
        guard let p = try? Spawned(path, args, environment: environment) else { return -1 }
        return p.wait()
    }

    deinit { if !reaped { stop(SIGKILL) } }
}
