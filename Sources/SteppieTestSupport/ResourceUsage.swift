#if canImport(Glibc)
import Glibc
#endif

/// What the kernel counted for a reaped child (`wait4`): its peak resident set and CPU times.
/// (Foundation's `Process` gives no resource usage.)
public struct ResourceUsage: Equatable, Sendable {
    /// The child's peak resident set size, in KiB (`ru_maxrss`). Never below the spawning
    /// process's own peak at the spawn: posix_spawn's child runs in the parent's memory until it
    /// execs, and Linux carries that memory's high-water mark into the child's count.
    public let maxRSSKiB: Int
    /// CPU time spent in user mode, in seconds.
    public let userSeconds: Double
    /// CPU time spent in the kernel on the child's behalf, in seconds.
    public let systemSeconds: Double

    public init(maxRSSKiB: Int, userSeconds: Double, systemSeconds: Double) {
        self.maxRSSKiB = maxRSSKiB
        self.userSeconds = userSeconds
        self.systemSeconds = systemSeconds
    }

    init(_ usage: rusage) {
        let seconds = { (t: timeval) in Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        self.init(maxRSSKiB: usage.ru_maxrss, userSeconds: seconds(usage.ru_utime), systemSeconds: seconds(usage.ru_stime))
    }
}
