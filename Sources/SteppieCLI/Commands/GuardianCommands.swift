import Foundation
import SteppieCore
import SteppieSecurity
import SteppieStore

/// `steppie guardian set-pin|unlock|lock|recover|status`: the PIN, the recovery code and guardian mode.
///
/// Secrets come only from `SecretReader` (terminal without echo, or `--pin-stdin`), are checked
/// with `Validator` before hashing, and reach the store only as argon2id hashes.
enum GuardianCommands {
    /// Sets the PIN (first time) or changes it, and prints a fresh recovery code once. Changing it
    /// always needs the current PIN (or `guardian recover` with the recovery code), even in guardian
    /// mode: an unlocked screen left behind must not let anyone take the PIN over.
    static func setPin(_ c: Context) throws -> Int32 {
        let store = try c.store()
        try store.ensureDeviceSettings(at: c.now)
        let reader = SecretReader(c)
        let hasher = try PasswordHasher()
        let state = try store.guardianState()
        if state.hasPin {
            let current = try reader.read("cli.guardian.prompt.currentPin")
            try Validator.pin(current)
            try accepted(store.attemptUnlock(at: c.secureNow) { hasher.verify(current, against: $0) }, kind: .pin)
        }
        let pin = try newPin(reader)
        let code = Secrets.randomRecoveryCode()
        try store.setGuardianSecrets(pinHash: try hasher.hash(pin), recoveryCodeHash: try hasher.hash(code), at: c.secureNow)
        c.console.print(c.text(state.hasPin ? "cli.guardian.pinChanged" : "cli.guardian.pinSet"))
        showRecoveryCode(code, c)
        return 0
    }

    /// Turns guardian mode on with the PIN, under the stored backoff.
    static func unlock(_ c: Context) throws -> Int32 {
        let store = try c.store()
        guard try store.guardianState().hasPin else { throw GuardianError.notSet(.pin) }
        let pin = try SecretReader(c).read("guardian.pin.prompt")
        try Validator.pin(pin)
        let hasher = try PasswordHasher()
        let now = c.secureNow
        let seconds = try accepted(store.attemptUnlock(at: now) { hasher.verify(pin, against: $0) }, kind: .pin)
        c.console.print(c.text("cli.guardian.unlocked", ["minutes": String(Int(GuardianSession.idleTimeout / 60)),
                                                        "time": TodayCommands.clockTime(now.wall.addingTimeInterval(seconds), c)]))
        return 0
    }

    /// Ends guardian mode now.
    static func lock(_ c: Context) throws -> Int32 {
        try c.store().lockGuardian(at: c.secureNow)
        c.console.print(c.text("cli.guardian.locked"))
        return 0
    }

    /// Replaces the PIN with the recovery code, then replaces the recovery code too.
    static func recover(_ c: Context) throws -> Int32 {
        let store = try c.store()
        guard try store.guardianState().hasRecoveryCode else { throw GuardianError.notSet(.recoveryCode) }
        let reader = SecretReader(c)
        let code = try reader.read("guardian.recovery.prompt")
        try Validator.recoveryCode(code)
        let pin = try newPin(reader)
        let hasher = try PasswordHasher()
        let nextCode = Secrets.randomRecoveryCode()
        let attempt = try store.recover(at: c.secureNow, newPinHash: try hasher.hash(pin), newRecoveryCodeHash: try hasher.hash(nextCode)) {
            hasher.verify(code, against: $0)
        }
        try accepted(attempt, kind: .recoveryCode)
        c.console.print(c.text("cli.guardian.recovered"))
        showRecoveryCode(nextCode, c)
        return 0
    }

    /// Shows whether a PIN is set, whether guardian mode is on and for how long, and the backoff. Only looks.
    static func status(_ c: Context) throws -> Int32 {
        let state = try c.store().guardianState()
        let now = c.secureNow
        let sessionLeft = GuardianAccess.wholeSeconds(state.sessionRemaining(at: now))
        let unlocked = sessionLeft != nil
        let lockLeft = GuardianAccess.wholeSeconds(state.lockRemaining(at: now))
        if c.json {
            try c.printJSON(Status(pinSet: state.hasPin, recoveryCodeSet: state.hasRecoveryCode, unlocked: unlocked,
                                   sessionSecondsLeft: sessionLeft, failedAttempts: state.failedAttempts, lockedSeconds: lockLeft))
            return 0
        }
        c.console.print(c.text(state.hasPin ? "cli.guardian.status.pinSet" : "cli.guardian.status.noPin"))
        if state.hasPin {
            c.console.print(sessionLeft.map { c.text("cli.guardian.status.on", ["seconds": String($0)]) }
                            ?? c.text("cli.guardian.status.off"))
        }
        if state.failedAttempts > 0 {
            c.console.print(c.text("cli.guardian.status.failures", ["count": String(state.failedAttempts)]))
        }
        if let lockLeft { c.console.print(c.text("cli.guardian.status.lockedFor", ["seconds": String(lockLeft)])) }
        return 0
    }

    /// Reads a new PIN (twice on a terminal, once from standard input) and checks its form.
    private static func newPin(_ reader: SecretReader) throws -> String {
        let pin = try reader.read("cli.guardian.prompt.newPin")
        try Validator.pin(pin)
        if !reader.fromStandardInput {
            guard try reader.read("guardian.pin.confirm") == pin else { throw GuardianError.pinMismatch }
        }
        return pin
    }

    /// The seconds of guardian mode after an accepted attempt; otherwise the refusal as an error.
    @discardableResult
    static func accepted(_ attempt: GuardianAttempt, kind: GuardianSecretKind) throws -> TimeInterval {
        switch attempt {
        case .accepted(let seconds): return seconds
        case .rejected(let failures, let lock):
            throw GuardianError.wrongSecret(kind: kind, failedAttempts: failures, lockSeconds: lock.flatMap(GuardianAccess.wholeSeconds))
        case .lockedOut(let seconds):
            throw GuardianError.lockedOut(seconds: GuardianAccess.wholeSeconds(seconds) ?? 1)
        case .notSet: throw GuardianError.notSet(kind)
        }
    }

    /// The one time the recovery code is shown.
    private static func showRecoveryCode(_ code: String, _ c: Context) {
        c.console.print(c.text("cli.guardian.recoveryCode", ["code": code]))
        c.console.print(c.text("cli.guardian.recoveryCodeOnce"))
    }
}

extension GuardianCommands {
    /// `guardian status --json`.
    struct Status: Encodable {
        let pinSet: Bool
        let recoveryCodeSet: Bool
        let unlocked: Bool
        @NullIfAbsent var sessionSecondsLeft: Int?
        let failedAttempts: Int
        @NullIfAbsent var lockedSeconds: Int?
    }
}
