import CSystemd
import Foundation

/// Tells systemd the service is ready and feeds its watchdog (sd_notify through libsystemd).
/// Without `NOTIFY_SOCKET` (not started by systemd) every call is a no-op.
public struct SystemdNotifier: Sendable {
    /// Half the watchdog interval, when systemd asked for one.
    public let watchdogInterval: TimeInterval?

    public init() {
        var usec: UInt64 = 0
        watchdogInterval = sd_watchdog_enabled(0, &usec) > 0 && usec > 0 ? Double(usec) / 2_000_000 : nil
    }

    /// Start-up finished: the socket answers.
    public func ready(status: String) { notify("READY=1\nSTATUS=\(status)\nMAINPID=\(getpid())") }

    public func watchdog() { notify("WATCHDOG=1") }

    public func stopping() { notify("STOPPING=1") }

    /// A failed notification is not fatal (systemd restarts a silent service by itself).
    private func notify(_ state: String) { _ = sd_notify(0, state) }
}
