import SteppieCore
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

extension GuardianError: CatalogDescribable {
    /// Guardian refusals; lock times are shown so the guardian knows how long to wait.
    public var catalogMessage: CatalogMessage {
        switch self {
        case .sessionRequired(let locked?): CatalogMessage("cli.error.guardianRequiredLocked", text: ["seconds": String(locked)])
        case .sessionRequired(nil): CatalogMessage("cli.error.guardianRequired")
        case .lockedOut(let seconds): CatalogMessage("guardian.pin.locked", text: ["seconds": String(seconds)])
        case .wrongSecret(let kind, let failures, let lock):
            lock.map { CatalogMessage(kind.wrongKey, text: ["count": String(failures)]).then(CatalogMessage("guardian.pin.locked", text: ["seconds": String($0)])) }
                ?? CatalogMessage(kind.wrongKey, text: ["count": String(failures)])
        case .notSet(.pin): CatalogMessage("cli.error.pinNotSet")
        case .notSet(.recoveryCode): CatalogMessage("cli.error.recoveryCodeNotSet")
        case .pinMismatch: CatalogMessage("guardian.pin.mismatch")
        case .noInput: CatalogMessage("cli.error.secretNoInput")
        case .noTerminal: CatalogMessage("cli.error.secretNoTerminal")
        }
    }
}

private extension GuardianSecretKind {
    /// The sentence for a secret that did not match.
    var wrongKey: String { self == .pin ? "cli.error.wrongPin" : "cli.error.wrongRecoveryCode" }
}
