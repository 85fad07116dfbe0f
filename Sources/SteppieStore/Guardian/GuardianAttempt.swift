import Foundation

/// The outcome of one PIN or recovery-code attempt, decided inside one write transaction.
/// Durations, not instants: they count on the `SecureClock`, whose wall time only labels them.
public enum GuardianAttempt: Equatable, Sendable {
    /// The secret matched: failures reset, guardian mode on for `sessionSeconds`.
    case accepted(sessionSeconds: TimeInterval)
    /// The secret did not match; `lockSeconds` is set once the backoff starts.
    case rejected(failedAttempts: Int, lockSeconds: TimeInterval?)
    /// Refused without checking the secret: the backoff still runs for `seconds`.
    case lockedOut(seconds: TimeInterval)
    /// No PIN (or recovery code) has been set yet.
    case notSet
}

/// Which guardian secret an attempt checks.
public enum GuardianSecretKind: String, Equatable, Sendable {
    case pin
    case recoveryCode
}

/// Where an attempt comes from, which chooses the backoff that counts it: the device itself (its
/// PIN pad on loopback, the command line) or the home network (`--guardian-lan`). Each has its
/// own failures and lock, so guesses from the network never lock the device's guardian out.
public enum AttemptOrigin: String, Equatable, Sendable {
    case device
    case network
}
