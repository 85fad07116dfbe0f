import Foundation

/// Guardian mode after a successful unlock: it lasts until `idleTimeout` passes without a guardian
/// command, then ends by itself. Pure: the store keeps `unlockedUntil`, commands pass the time in.
public struct GuardianSession: Hashable, Sendable {
    /// Three minutes without use end guardian mode.
    public static let idleTimeout: TimeInterval = 180
    /// A clock that jumped back further than this ends the session rather than stretching it.
    public static let allowedClockSkew: TimeInterval = 60

    /// The last guardian command (or the unlock).
    public let lastActivity: Date
    public let timeout: TimeInterval

    public init(lastActivity: Date, timeout: TimeInterval = GuardianSession.idleTimeout) {
        self.lastActivity = lastActivity
        self.timeout = timeout
    }

    /// Rebuilds a session from a stored `unlockedUntil` (= last activity + timeout).
    public init(unlockedUntil: Date, timeout: TimeInterval = GuardianSession.idleTimeout) {
        self.init(lastActivity: unlockedUntil.addingTimeInterval(-timeout), timeout: timeout)
    }

    /// When the session ends unless touched again.
    public var unlockedUntil: Date { lastActivity.addingTimeInterval(timeout) }

    /// True while `now` is before the end and not implausibly before the last activity.
    public func isUnlocked(now: Date) -> Bool {
        now < unlockedUntil && now >= lastActivity.addingTimeInterval(-GuardianSession.allowedClockSkew)
    }

    /// The session after a guardian command at `now`.
    public func touched(at now: Date) -> GuardianSession {
        GuardianSession(lastActivity: max(now, lastActivity), timeout: timeout)
    }
}
