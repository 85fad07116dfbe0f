import SteppieStore

/// What guardian commands refuse, as values tests can compare. Never carries a secret.
public enum GuardianError: Error, Equatable, Sendable {
    /// A PIN is set and guardian mode is off; `lockedSeconds` is the PIN backoff still running, if any.
    case sessionRequired(lockedSeconds: Int?)
    /// The backoff refused the attempt without checking the secret.
    case lockedOut(seconds: Int)
    /// The secret did not match; `lockSeconds` is the backoff that started, if any.
    case wrongSecret(kind: GuardianSecretKind, failedAttempts: Int, lockSeconds: Int?)
    /// No PIN (or recovery code) has been set yet.
    case notSet(GuardianSecretKind)
    /// The two entries of a new PIN differ.
    case pinMismatch
    /// Standard input ended before the secret was read.
    case noInput
    /// No terminal to read the secret from without echo, and no `--pin-stdin`.
    case noTerminal
}
