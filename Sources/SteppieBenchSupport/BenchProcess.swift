import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process via posix_spawn (clean signal mask), optionally with its stdout on a pipe.
public final class BenchChild {
    public let pid: pid_t
    public let stdout: Int32?
    private var reaped = false

    public init(_ path: String, _ args: [String], pipeStdout: Bool = false, environment: [String: String]? = nil) throws {
        var fds: [Int32] = [-1, -1]
        if pipeStdout { guard pipe(&fds) == 0 else { throw BenchError("pipe failed") } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if pipeStdout {
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_addclose(&actions, fds[0])
            posix_spawn_file_actions_addclose(&actions, fds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attr, &none)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = ([path] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { env.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, path, &actions, &attr, argv, env)
        if pipeStdout { close(fds[1]) }
        guard rc == 0 else { throw BenchError("cannot start \(path): \(String(cString: strerror(rc)))") }
        self.pid = pid
        stdout = pipeStdout ? fds[0] : nil
    }

    @discardableResult
    public func wait() -> Int32 {
        guard !reaped else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = true
        return (status >> 8) & 0xff
    }

    /// Waits at most `timeout` seconds, then stops the child; returns its status or nil on timeout.
    @discardableResult
    public func wait(timeout: Double) -> Int32? {
        let end = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        var status: Int32 = 0
        while DispatchTime.now().uptimeNanoseconds < end {
            if reaped { return -1 }
            if waitpid(pid, &status, WNOHANG) == pid { reaped = true; return (status >> 8) & 0xff }
            usleep(2000)
        }
        stop()
        return nil
    }

    /// Stops this child by its PID.
    public func stop() {
        guard !reaped else { return }
        kill(pid, SIGTERM)
        wait()
    }

    deinit { stop(); if let stdout { close(stdout) } }
}

public struct BenchError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}

/// Reads the sink monitor through `parec` and remembers when audible audio arrived.
public final class MonitorListener: @unchecked Sendable {
    private let child: BenchChild
    private let lock = NSLock()
    private var audibleTimes: [UInt64] = []
    private var lastDataTime: UInt64 = 0
    private var totalBytes = 0

    public init(device: String) throws {
        child = try BenchChild("parec", ["--latency-msec=10", "--format=s16le", "--rate=22050", "--channels=1", "-d", device],
                          pipeStdout: true)
        let fd = child.stdout ?? -1
        let thread = Thread { [self] in
            var buf = [Int16](repeating: 0, count: 2048)
            while true {
                let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                let now = DispatchTime.now().uptimeNanoseconds
                let audible = buf[0..<(n / 2)].contains { abs(Int32($0)) > 100 }
                lock.withLock {
                    totalBytes += n
                    lastDataTime = now
                    if audible { audibleTimes.append(now) }
                }
            }
        }
        thread.start()
    }

    public var bytes: Int { lock.withLock { totalBytes } }

    /// The first time audible audio arrived at or after `t`.
    public func firstAudible(after t: UInt64) -> UInt64? {
        lock.withLock { audibleTimes.first { $0 >= t } }
    }

    /// Waits until nothing audible arrived for `quiet` seconds.
    public func waitForSilence(quiet: Double, timeout: Double = 15) {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        while DispatchTime.now().uptimeNanoseconds < deadline {
            let now = DispatchTime.now().uptimeNanoseconds
            let last = lock.withLock { audibleTimes.last ?? 0 }
            if now > last + UInt64(quiet * 1e9) { return }
            usleep(5000)
        }
    }

    public func stop() { child.stop() }
}
