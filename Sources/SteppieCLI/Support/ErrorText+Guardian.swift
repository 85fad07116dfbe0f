import SteppieStore

extension ErrorText {
    /// Guardian refusals; lock times are shown so the guardian knows how long to wait.
    static func guardian(_ e: GuardianError, _ t: Messages) -> String {
        switch e {
        case .sessionRequired(let locked?): return t("cli.error.guardianRequiredLocked", ["seconds": String(locked)])
        case .sessionRequired(nil): return t("cli.error.guardianRequired")
        case .lockedOut(let seconds): return t("guardian.pin.locked", ["seconds": String(seconds)])
        case .wrongSecret(let kind, let failures, let lock):
            let what = t(kind == .pin ? "cli.error.wrongPin" : "cli.error.wrongRecoveryCode", ["count": String(failures)])
            return lock.map { what + " " + t("guardian.pin.locked", ["seconds": String($0)]) } ?? what
        case .notSet(.pin): return t("cli.error.pinNotSet")
        case .notSet(.recoveryCode): return t("cli.error.recoveryCodeNotSet")
        case .pinMismatch: return t("guardian.pin.mismatch")
        case .noInput: return t("cli.error.secretNoInput")
        case .noTerminal: return t("cli.error.secretNoTerminal")
        }
    }
}
