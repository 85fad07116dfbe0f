import Foundation
import SteppieCore

/// Guardian PIN, recovery code, backoff and session, all kept in the `device_settings` row.
///
/// The store only ever sees argon2id hash strings (made by `SteppieSecurity.PasswordHasher`); the
/// secret itself is checked by the caller's `verify` closure, which receives the stored hash.
extension Store {
    /// The guardian state, or the defaults when the device row does not exist yet.
    public func guardianState() throws -> GuardianState {
        try read {
            try db.queryFirst("""
                SELECT guardian_pin_hash IS NOT NULL, recovery_code_hash IS NOT NULL, failed_pin_attempts,
                       pin_locked_until, guardian_unlocked_until FROM device_settings
                """) { row in
                GuardianState(hasPin: row.bool(0), hasRecoveryCode: row.bool(1), failedAttempts: row.int(2),
                              lockedUntil: row.optionalText(3).flatMap(Timestamp.parse),
                              unlockedUntil: row.optionalText(4).flatMap(Timestamp.parse))
            } ?? GuardianState(hasPin: false, hasRecoveryCode: false, failedAttempts: 0, lockedUntil: nil, unlockedUntil: nil)
        }
    }

    /// Stores a new PIN hash and, when given, a new recovery-code hash (both must be `$argon2id$`
    /// strings), and clears the failure count and the lock. The session is left as it was.
    public func setGuardianSecrets(pinHash: String, recoveryCodeHash: String?, at now: Date) throws {
        try validate {
            try Store.checkHash(pinHash, field: "pin")
            if let recoveryCodeHash { try Store.checkHash(recoveryCodeHash, field: "recoveryCode") }
        }
        try write {
            try ensureDeviceRow(now)
            try db.run("""
                UPDATE device_settings SET guardian_pin_hash = ?, recovery_code_hash = coalesce(?, recovery_code_hash),
                    failed_pin_attempts = 0, pin_locked_until = NULL, updated_at = ?
                """, [.text(pinHash), .optionalText(recoveryCodeHash), stamp(now)])
        }
    }

    /// One PIN attempt, atomic across processes: in one `BEGIN IMMEDIATE` transaction the lock is
    /// checked first (a locked attempt never reaches `verify`), then `verify(storedHash)` runs; a
    /// failure increments the count and sets the lock from `policy`, a success resets them and turns
    /// guardian mode on for `GuardianSession.idleTimeout`.
    ///
    /// `verify` runs while the write lock is held (~0.1 s of argon2id), which is what serializes
    /// parallel guessers; other writers wait on the busy timeout meanwhile.
    public func attemptUnlock(at now: Date, policy: PinBackoffPolicy = .standard,
                              verify: (_ storedHash: String) -> Bool) throws -> GuardianAttempt {
        try attempt(.pin, at: now, policy: policy, verify: verify) {}
    }

    /// One recovery-code attempt under the same backoff as the PIN. On success, in the same
    /// transaction, the PIN and the recovery code are replaced by the given hashes (the old code is
    /// then useless) and guardian mode turns on.
    public func recover(at now: Date, policy: PinBackoffPolicy = .standard, newPinHash: String,
                        newRecoveryCodeHash: String, verify: (_ storedHash: String) -> Bool) throws -> GuardianAttempt {
        try validate {
            try Store.checkHash(newPinHash, field: "pin")
            try Store.checkHash(newRecoveryCodeHash, field: "recoveryCode")
        }
        return try attempt(.recoveryCode, at: now, policy: policy, verify: verify) {
            try db.run("UPDATE device_settings SET guardian_pin_hash = ?, recovery_code_hash = ?",
                       [.text(newPinHash), .text(newRecoveryCodeHash)])
        }
    }

    /// Extends guardian mode after a guardian command at `now`; returns the new end, or nil (and
    /// clears the stale session) when guardian mode had already ended.
    @discardableResult
    public func touchGuardianSession(at now: Date) throws -> Date? {
        try write {
            let until = try db.queryFirst("SELECT guardian_unlocked_until FROM device_settings") {
                $0.optionalText(0).flatMap(Timestamp.parse)
            } ?? nil
            guard let until, GuardianSession(unlockedUntil: until).isUnlocked(now: now) else {
                if until != nil { try db.run("UPDATE device_settings SET guardian_unlocked_until = NULL") }
                return nil
            }
            let next = GuardianSession(unlockedUntil: until).touched(at: now).unlockedUntil
            try db.run("UPDATE device_settings SET guardian_unlocked_until = ?", [stamp(next)])
            return next
        }
    }

    /// Ends guardian mode now.
    public func lockGuardian(at now: Date) throws {
        try write {
            try db.run("UPDATE device_settings SET guardian_unlocked_until = NULL, updated_at = ? WHERE guardian_unlocked_until IS NOT NULL",
                       [stamp(now)])
        }
    }

    private func attempt(_ kind: GuardianSecretKind, at now: Date, policy: PinBackoffPolicy,
                         verify: (String) -> Bool, onSuccess: () throws -> Void) throws -> GuardianAttempt {
        try write {
            try ensureDeviceRow(now)
            let column = kind == .pin ? "guardian_pin_hash" : "recovery_code_hash"
            let row = try db.queryFirst("SELECT \(column), failed_pin_attempts, pin_locked_until FROM device_settings") {
                (hash: $0.optionalText(0), failures: $0.int(1), lockedUntil: $0.optionalText(2).flatMap(Timestamp.parse))
            }
            guard let row else { throw StoreError.corruptRow(table: "device_settings", id: "singleton", reason: "missing") }
            // The lock is checked before the secret: a locked attempt learns nothing.
            if let until = row.lockedUntil, PinBackoffPolicy.isLocked(until: until, now: now) { return .lockedOut(until: until) }
            guard let hash = row.hash else { return .notSet }
            if verify(hash) {
                let session = GuardianSession(lastActivity: now)
                try onSuccess()
                try db.run("""
                    UPDATE device_settings SET failed_pin_attempts = 0, pin_locked_until = NULL,
                        guardian_unlocked_until = ?, updated_at = ?
                    """, [stamp(session.unlockedUntil), stamp(now)])
                return .accepted(unlockedUntil: session.unlockedUntil)
            }
            let failures = row.failures + 1
            let lockedUntil = policy.lockedUntil(failures: failures, lastFailure: now)
            try db.run("UPDATE device_settings SET failed_pin_attempts = ?, pin_locked_until = ?, updated_at = ?",
                       [.int(failures), optionalStamp(lockedUntil), stamp(now)])
            return .rejected(failedAttempts: failures, lockedUntil: lockedUntil)
        }
    }

    private func ensureDeviceRow(_ now: Date) throws {
        try db.run("INSERT OR IGNORE INTO device_settings (id, created_at, updated_at) VALUES ('singleton', ?, ?)", [stamp(now), stamp(now)])
    }

    private static func checkHash(_ hash: String, field: String) throws {
        guard hash.hasPrefix("$argon2id$") else {
            // Never echo the value: it might be the secret itself, passed by mistake.
            throw ContractViolation(field: field, value: "(not a hash)", allowed: "an argon2id hash ($argon2id$…)")
        }
    }
}
