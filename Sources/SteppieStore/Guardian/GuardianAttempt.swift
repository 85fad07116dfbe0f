import Foundation

/// The outcome of one PIN or recovery-code attempt, decided inside one write transaction.
public enum GuardianAttempt: Equatable, Sendable {
    /// The secret matched: failures reset, guardian mode on until `unlockedUntil`.
    case accepted(unlockedUntil: Date)
    /// The secret did not match; `lockedUntil` is set once the backoff starts.
    case rejected(failedAttempts: Int, lockedUntil: Date?)
    /// Refused without checking the secret: the backoff is still running.
    case lockedOut(until: Date)
    /// No PIN (or recovery code) has been set yet.
    case notSet
}

/// Which guardian secret an attempt checks.
public enum GuardianSecretKind: String, Equatable, Sendable {
    case pin
    case recoveryCode
}
