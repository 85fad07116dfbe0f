import Foundation
import SteppieCore

/// Guardian access as stored in `device_settings`: which secrets exist, the PIN backoff and the session.
/// Never carries a secret or a hash.
public struct GuardianState: Equatable, Sendable {
    public let hasPin: Bool
    public let hasRecoveryCode: Bool
    /// Consecutive failed PIN or recovery-code attempts since the last success.
    public let failedAttempts: Int
    /// Attempts before this deadline are refused without checking the secret.
    public let lock: SecureDeadline?
    /// Guardian mode lasts until this deadline unless a guardian command extends it.
    public let session: SecureDeadline?

    /// The same, for attempts from the home network (`--guardian-lan`): counted apart.
    public let networkFailedAttempts: Int
    public let networkLock: SecureDeadline?

    public init(hasPin: Bool, hasRecoveryCode: Bool, failedAttempts: Int, lock: SecureDeadline?, session: SecureDeadline?,
                networkFailedAttempts: Int = 0, networkLock: SecureDeadline? = nil) {
        self.networkFailedAttempts = networkFailedAttempts
        self.networkLock = networkLock
        self.hasPin = hasPin
        self.hasRecoveryCode = hasRecoveryCode
        self.failedAttempts = failedAttempts
        self.lock = lock
        self.session = session
    }

    /// Seconds of backoff left at `now` (zero or less when an attempt would be checked).
    public func lockRemaining(at now: SecureInstant, policy: PinBackoffPolicy = .standard, origin: AttemptOrigin = .device) -> TimeInterval {
        switch origin {
        case .device: policy.lockRemaining(until: lock, failures: failedAttempts, now: now)
        case .network: policy.lockRemaining(until: networkLock, failures: networkFailedAttempts, now: now)
        }
    }

    /// True when an attempt at `now` would be refused by the backoff.
    public func isLocked(at now: SecureInstant, policy: PinBackoffPolicy = .standard) -> Bool {
        lockRemaining(at: now, policy: policy) > 0
    }

    /// Seconds of guardian mode left at `now` (zero or less when it is off).
    public func sessionRemaining(at now: SecureInstant) -> TimeInterval {
        session.map { GuardianSession(until: $0).remaining(at: now) } ?? 0
    }

    /// True while guardian mode is on at `now` (see `GuardianSession`).
    public func isUnlocked(at now: SecureInstant) -> Bool { sessionRemaining(at: now) > 0 }
}
