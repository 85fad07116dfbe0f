import Foundation
import Synchronization

/// Seconds since the machine booted (Linux `CLOCK_BOOTTIME`) and which boot: a clock that no
/// wall-clock change, `STEPPIE_NOW` or `date -s` can move.
public struct BootTime: Hashable, Sendable {
    /// `/proc/sys/kernel/random/boot_id`: changes at every boot.
    public let id: String
    public let seconds: Double

    public init(id: String, seconds: Double) {
        self.id = id
        self.seconds = seconds
    }

    /// The form kept in the database: `<boot id> <seconds>`.
    public var stored: String { "\(id) \(String(format: "%.3f", seconds))" }

    public init?(stored: String) {
        let parts = stored.split(separator: " ")
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64, let s = Double(parts[1]), s.isFinite, s >= 0 else { return nil }
        self.init(id: String(parts[0]), seconds: s)
    }
}

/// An instant on the clock that guards guardian access: the system's wall time (shown to people,
/// and the only clock that spans reboots) and the boot clock (which decides within one boot).
public struct SecureInstant: Hashable, Sendable {
    public let wall: Date
    public let boot: BootTime?

    public init(wall: Date, boot: BootTime?) {
        self.wall = wall
        self.boot = boot
    }
}

/// The clock of the PIN backoff and the guardian session. The live one reads the system; tests
/// inject their own. Never moved by the routine's clock (`STEPPIE_NOW`).
public protocol SecureClock: Sendable {
    func now() -> SecureInstant
}

/// A deadline kept on both clocks, so a jump of the wall clock can neither shorten nor stretch it.
public struct SecureDeadline: Hashable, Sendable {
    public let wall: Date
    public let boot: BootTime?

    public init(wall: Date, boot: BootTime?) {
        self.wall = wall
        self.boot = boot
    }

    /// `duration` after `now`, on both clocks.
    public init(after duration: TimeInterval, from now: SecureInstant) {
        wall = now.wall.addingTimeInterval(duration)
        boot = now.boot.map { BootTime(id: $0.id, seconds: $0.seconds + duration) }
    }

    /// Seconds left at `now` (zero or less once passed), never more than `longest`.
    ///
    /// Within the boot that set it, the boot clock decides. After a reboot (or where no boot clock
    /// was read) only the wall clock is left: it decides when `acrossBoots`, capped at `longest`
    /// so a clock set back or a deadline written from a clock set forward cannot stretch it;
    /// otherwise the deadline has passed.
    public func remaining(at now: SecureInstant, longest: TimeInterval, acrossBoots: Bool) -> TimeInterval {
        if let mine = boot, let theirs = now.boot, mine.id == theirs.id {
            return min(mine.seconds - theirs.seconds, longest)
        }
        let sameBootUnknown = boot == nil || now.boot == nil
        guard acrossBoots || sameBootUnknown else { return 0 }
        return min(wall.timeIntervalSince(now.wall), longest)
    }
}

/// A `SecureClock` that only moves when told to: the wall clock and the boot clock separately
/// (so tests can jump the wall clock, or reboot), for tests.
public final class ManualSecureClock: SecureClock {
    private let state: Mutex<SecureInstant>

    public init(wall: Date, bootId: String? = "test-boot", bootSeconds: Double = 1000) {
        state = Mutex(SecureInstant(wall: wall, boot: bootId.map { BootTime(id: $0, seconds: bootSeconds) }))
    }

    /// A clock whose wall time follows `wall` and whose boot clock runs with it (one boot).
    public static func following(_ wall: ManualWallClock) -> some SecureClock { FollowingClock(wall: wall) }

    public func now() -> SecureInstant { state.withLock { $0 } }

    /// Real time passes: both clocks move.
    public func advance(by seconds: TimeInterval) {
        state.withLock { $0 = SecureInstant(wall: $0.wall.addingTimeInterval(seconds),
                                            boot: $0.boot.map { BootTime(id: $0.id, seconds: $0.seconds + seconds) }) }
    }

    /// Someone sets the wall clock: the boot clock does not move.
    public func setWall(_ date: Date) {
        state.withLock { $0 = SecureInstant(wall: date, boot: $0.boot) }
    }

    /// The machine reboots: a new boot id, the boot clock starts again.
    public func reboot(bootId: String, after seconds: TimeInterval = 60) {
        state.withLock { $0 = SecureInstant(wall: $0.wall.addingTimeInterval(seconds), boot: BootTime(id: bootId, seconds: 5)) }
    }
}

/// The secure clock of in-process tests that drive a `ManualWallClock`: one boot, both clocks
/// moving together.
struct FollowingClock: SecureClock {
    let wall: ManualWallClock
    func now() -> SecureInstant {
        let w = wall.now()
        return SecureInstant(wall: w, boot: BootTime(id: "manual-boot", seconds: w.timeIntervalSince1970))
    }
}
