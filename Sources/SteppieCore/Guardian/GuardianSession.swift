import Foundation

/// Guardian mode after a successful unlock: it lasts until `idleTimeout` passes without a guardian
/// command, then ends by itself. Pure: the store keeps the deadline, commands pass the time in.
///
/// The deadline runs on the `SecureClock` (the boot clock within one boot), so neither
/// `STEPPIE_NOW` nor a wall-clock change stretches it, and a reboot ends it.
public struct GuardianSession: Hashable, Sendable {
    /// Three minutes without use end guardian mode.
    public static let idleTimeout: TimeInterval = 180

    /// When guardian mode ends unless a guardian command extends it.
    public let until: SecureDeadline

    public init(until: SecureDeadline) { self.until = until }

    /// A session opened (or last extended) at `now`.
    public init(lastActivity now: SecureInstant) {
        until = SecureDeadline(after: GuardianSession.idleTimeout, from: now)
    }

    /// Seconds left at `now` (zero or less once ended); never more than `idleTimeout`.
    public func remaining(at now: SecureInstant) -> TimeInterval {
        until.remaining(at: now, longest: GuardianSession.idleTimeout, acrossBoots: false)
    }

    /// True while guardian mode is on at `now`.
    public func isUnlocked(at now: SecureInstant) -> Bool { remaining(at: now) > 0 }

    /// The session after a guardian command at `now`.
    public func touched(at now: SecureInstant) -> GuardianSession { GuardianSession(lastActivity: now) }
}
