import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Shared by the test targets and the benchmarks (Benchmarks/): real child processes, started and
// stopped by PID.

/// A process started with posix_spawn (clean signal mask, as the feedback tests explain), with
/// optional pipes on standard input and standard output, the rest of its output sent to files;
/// stopped by its PID and reaped with `wait4`, which gives its peak RSS and CPU times.
public final class SpawnedProcess {
    public let pid: pid_t
    /// The program that runs: `path` itself, or the file found in `PATH` for a bare name.
    public let executable: String
    public private(set) var stdinFD: Int32 = -1
    /// The read end of the child's standard output when started with `stdoutPipe: true`, else -1;
    /// closed when this object goes.
    public private(set) var stdoutFD: Int32 = -1
    private var reaped = false
    public private(set) var exitStatus: Int32 = -1
    /// The kernel's account of the child once it is reaped.
    public private(set) var usage: ResourceUsage?
    /// Monotonic time (`DispatchTime` ns) just before the spawn, and just after the reap.
    public let startedAt: UInt64
    public private(set) var endedAt: UInt64?
    /// Spawn to reap, once reaped.
    public var elapsedNanoseconds: UInt64? { endedAt.map { $0 - startedAt } }
    /// True when `wait(timeout:)` had to kill the child.
    public private(set) var timedOut = false

    /// Starts `path` (a bare name is looked up in the `PATH` of `environment`) with `args`.
    /// `stdoutPipe` puts its standard output on a pipe read through `stdoutFD` (then `stdoutPath`
    /// is not used).
    public init(_ path: String, _ args: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                stdinPipe: Bool = false, stdoutPipe: Bool = false,
                stdoutPath: String = "/dev/null", stderrPath: String = "/dev/null") throws(SpawnError) {
        // A write to the pipe of a killed child must fail with EPIPE, not kill the test runner.
        signal(SIGPIPE, SIG_IGN)
        let executable: String
        if path.contains("/") {
            executable = path
        } else {
            let search = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
            guard let found = Self.lookUp(path, in: search) else { throw .notFound(program: path, path: search) }
            executable = found
        }
        let input = try stdinPipe ? Self.makePipe() : nil
        let output: (read: Int32, write: Int32)?
        do { output = try stdoutPipe ? Self.makePipe() : nil } catch {
            if let input { close(input.read); close(input.write) }
            throw error
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input.read, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let output {
            posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        }
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        // Nothing else of the test process: tests run side by side in it, and a descriptor another
        // test holds open (a file it locks, a socket) must not live on in this child.
        _ = Self.closeFrom?(&actions, 3)
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
        let startedAt = DispatchTime.now().uptimeNanoseconds
        let rc = posix_spawn(&pid, executable, &actions, &attr, argv, env)
        // The child holds its own copies now; the parent keeps only its ends.
        if let input { close(input.read) }
        if let output { close(output.write) }
        guard rc == 0 else {
            if let input { close(input.write) }
            if let output { close(output.read) }
            throw .spawn(path: executable, error: rc)
        }
        self.pid = pid
        self.executable = executable
        self.startedAt = startedAt
        stdinFD = input?.write ?? -1
        stdoutFD = output?.read ?? -1
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which the Glibc
    /// module does not show; nil where the C library has none.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// A pipe whose two ends are closed on exec, so that no other child inherits them (the child
    /// this one is for gets its end through dup2, which clears the flag).
    private static func makePipe() throws(SpawnError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .pipe(errno: errno) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// The first executable file named `name` in the folders of `search` (a `PATH` value).
    public static func lookUp(_ name: String, in search: String) -> String? {
        for folder in search.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
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

    /// Reaps the child with `wait4` (blocking or not); true once it is reaped.
    @discardableResult
    private func reap(blocking: Bool) -> Bool {
        guard !reaped else { return true }
        var status: Int32 = 0
        var resources = rusage()
        var r: pid_t
        repeat { r = wait4(pid, &status, blocking ? 0 : WNOHANG, &resources) } while r < 0 && errno == EINTR
        if r == 0 { return false }
        endedAt = DispatchTime.now().uptimeNanoseconds
        reaped = true
        // r < 0: the child is no longer ours to wait for (ECHILD); its status is unknown (-1).
        if r == pid {
            exitStatus = Self.decode(status)
            usage = ResourceUsage(resources)
        }
        return true
    }

    public var running: Bool { !reap(blocking: false) }

    /// Waits up to `timeout` seconds for the exit; kills the child (SIGKILL) when it is late.
    @discardableResult
    public func wait(timeout: Double = 30) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while running && Date() < deadline { usleep(2_000) }
        if running {
            timedOut = true
            stop(SIGKILL)
        }
        return exitStatus
    }

    /// Blocks in `wait4` until the child exits, so `endedAt` is the exit to within a wake-up
    /// (no polling interval): for timing a command. Returns its exit status.
    @discardableResult
    public func waitForExit() -> Int32 {
        reap(blocking: true)
        return exitStatus
    }

    /// Sends `signal` to this child only (by PID) and reaps it.
    public func stop(_ signal: Int32 = SIGTERM) {
        closeInput()
        guard !reaped else { return }
        kill(pid, signal)
        reap(blocking: true)
    }

    public static func decode(_ status: Int32) -> Int32 { (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f) }

    /// Runs a command to completion and returns its exit status (-1 when it cannot start).
    public static func run(_ path: String, _ args: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                           timeout: Double = 30) -> Int32 {
        guard let p = try? SpawnedProcess(path, args, environment: environment) else { return -1 }
        return p.wait(timeout: timeout)
    }

    /// Runs a command to its exit with no deadline (see `waitForExit`) and returns the reaped
    /// process: its status, `usage`, `startedAt` and `endedAt`.
    public static func measure(_ path: String, _ args: [String],
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws(SpawnError) -> SpawnedProcess {
        let p = try SpawnedProcess(path, args, environment: environment)
        p.waitForExit()
        return p
    }

    deinit {
        if !reaped { stop(SIGKILL) } else { closeInput() }
        if stdoutFD >= 0 { close(stdoutFD) }
    }
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
