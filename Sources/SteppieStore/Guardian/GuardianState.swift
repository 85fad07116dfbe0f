import Foundation
import SteppieCore

/// Guardian access as stored in `device_settings`: which secrets exist, the PIN backoff and the session.
/// Never carries a secret or a hash.
public struct GuardianState: Equatable, Sendable {
    public let hasPin: Bool
    public let hasRecoveryCode: Bool
    /// Consecutive failed PIN or recovery-code attempts since the last success.
    public let failedAttempts: Int
    /// Attempts before this instant are refused without checking the secret.
    public let lockedUntil: Date?
    /// Guardian mode lasts until this instant unless a guardian command extends it.
    public let unlockedUntil: Date?

    public init(hasPin: Bool, hasRecoveryCode: Bool, failedAttempts: Int, lockedUntil: Date?, unlockedUntil: Date?) {
        self.hasPin = hasPin
        self.hasRecoveryCode = hasRecoveryCode
        self.failedAttempts = failedAttempts
        self.lockedUntil = lockedUntil
        self.unlockedUntil = unlockedUntil
    }

    /// True when an attempt at `now` would be refused by the backoff.
    public func isLocked(now: Date) -> Bool { PinBackoffPolicy.isLocked(until: lockedUntil, now: now) }

    /// True while guardian mode is on at `now` (see `GuardianSession`).
    public func isUnlocked(now: Date) -> Bool {
        unlockedUntil.map { GuardianSession(unlockedUntil: $0).isUnlocked(now: now) } ?? false
    }
}
