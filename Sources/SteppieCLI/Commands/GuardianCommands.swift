import Foundation
import SteppieCore
import SteppieSecurity
import SteppieStore

/// `steppie guardian set-pin|unlock|lock|recover|status`: the PIN, the recovery code and guardian mode.
///
/// Secrets come only from `SecretReader` (terminal without echo, or `--pin-stdin`), are checked
/// with `Validator` before hashing, and reach the store only as argon2id hashes.
enum GuardianCommands {
    /// Sets the PIN (first time) or changes it (current PIN or guardian mode needed), and prints a
    /// fresh recovery code once.
    static func setPin(_ c: Context) throws -> Int32 {
        let store = try c.store()
        try store.ensureDeviceSettings(at: c.now)
        let reader = SecretReader(c)
        let hasher = try PasswordHasher()
        let state = try store.guardianState()
        if state.hasPin {
            if try store.touchGuardianSession(at: c.now) == nil {
                let current = try reader.read("cli.guardian.prompt.currentPin")
                try Validator.pin(current)
                _ = try accepted(store.attemptUnlock(at: c.now) { hasher.verify(current, against: $0) }, kind: .pin, now: c.now)
            }
        }
        let pin = try newPin(reader)
        let code = Secrets.randomRecoveryCode()
        try store.setGuardianSecrets(pinHash: try hasher.hash(pin), recoveryCodeHash: try hasher.hash(code), at: c.now)
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
        let until = try accepted(store.attemptUnlock(at: c.now) { hasher.verify(pin, against: $0) }, kind: .pin, now: c.now)
        c.console.print(c.text("cli.guardian.unlocked", ["minutes": String(Int(GuardianSession.idleTimeout / 60)),
                                                        "time": TodayCommands.clockTime(until, c)]))
        return 0
    }

    /// Ends guardian mode now.
    static func lock(_ c: Context) throws -> Int32 {
        try c.store().lockGuardian(at: c.now)
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
        let attempt = try store.recover(at: c.now, newPinHash: try hasher.hash(pin), newRecoveryCodeHash: try hasher.hash(nextCode)) {
            hasher.verify(code, against: $0)
        }
        _ = try accepted(attempt, kind: .recoveryCode, now: c.now)
        c.console.print(c.text("cli.guardian.recovered"))
        showRecoveryCode(nextCode, c)
        return 0
    }

    /// Shows whether a PIN is set, whether guardian mode is on and for how long, and the backoff. Only looks.
    static func status(_ c: Context) throws -> Int32 {
        let state = try c.store().guardianState()
        let unlocked = state.isUnlocked(now: c.now)
        let sessionLeft = unlocked ? state.unlockedUntil.flatMap { GuardianAccess.seconds(from: c.now, to: $0) } : nil
        let lockLeft = state.lockedUntil.flatMap { GuardianAccess.seconds(from: c.now, to: $0) }
        if c.json {
            try c.printJSON(["pinSet": state.hasPin, "recoveryCodeSet": state.hasRecoveryCode, "unlocked": unlocked,
                             "sessionSecondsLeft": sessionLeft.map { $0 as Any } ?? NSNull(), "failedAttempts": state.failedAttempts,
                             "lockedSeconds": lockLeft.map { $0 as Any } ?? NSNull()])
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

    /// The end of guardian mode after an accepted attempt; otherwise the refusal as an error.
    static func accepted(_ attempt: GuardianAttempt, kind: GuardianSecretKind, now: Date) throws -> Date {
        switch attempt {
        case .accepted(let until): return until
        case .rejected(let failures, let lockedUntil):
            throw GuardianError.wrongSecret(kind: kind, failedAttempts: failures,
                                            lockSeconds: lockedUntil.flatMap { GuardianAccess.seconds(from: now, to: $0) })
        case .lockedOut(let until):
            throw GuardianError.lockedOut(seconds: GuardianAccess.seconds(from: now, to: until) ?? 1)
        case .notSet: throw GuardianError.notSet(kind)
        }
    }

    /// The one time the recovery code is shown.
    private static func showRecoveryCode(_ code: String, _ c: Context) {
        c.console.print(c.text("cli.guardian.recoveryCode", ["code": code]))
        c.console.print(c.text("cli.guardian.recoveryCodeOnce"))
    }
}
