import Foundation
import SteppieCore

/// The live `SecureClock`: the system's wall time and `CLOCK_BOOTTIME` with this boot's id.
/// `STEPPIE_NOW` never reaches it: the scripted clock moves routines, not the PIN backoff or the
/// guardian session.
public struct SystemSecureClock: SecureClock {
    /// Read once per process: the boot id cannot change while we run.
    private let bootId: String?

    public init(bootIdPath: String = "/proc/sys/kernel/random/boot_id") {
        let text = (try? String(contentsOfFile: bootIdPath, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        bootId = text.flatMap { $0.isEmpty || $0.count > 64 || $0.contains(" ") ? nil : $0 }
    }

    public func now() -> SecureInstant {
        var ts = timespec()
        let boot: BootTime? = bootId.flatMap { id in
            clock_gettime(CLOCK_BOOTTIME, &ts) == 0 ? BootTime(id: id, seconds: Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9) : nil
        }
        return SecureInstant(wall: Date(), boot: boot)
    }
}
