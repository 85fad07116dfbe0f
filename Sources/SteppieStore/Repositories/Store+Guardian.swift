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
                       pin_locked_until, pin_locked_boot, guardian_unlocked_until, guardian_unlocked_boot,
                       network_failed_pin_attempts, network_pin_locked_until, network_pin_locked_boot FROM device_settings
                """) { row in
                GuardianState(hasPin: row.bool(0), hasRecoveryCode: row.bool(1), failedAttempts: row.int(2),
                              lock: Store.deadline(wall: row.optionalText(3), boot: row.optionalText(4)),
                              session: Store.deadline(wall: row.optionalText(5), boot: row.optionalText(6)),
                              networkFailedAttempts: row.int(7),
                              networkLock: Store.deadline(wall: row.optionalText(8), boot: row.optionalText(9)))
            } ?? GuardianState(hasPin: false, hasRecoveryCode: false, failedAttempts: 0, lock: nil, session: nil)
        }
    }

    /// Stores a new PIN hash and, when given, a new recovery-code hash (both must be `$argon2id$`
    /// strings), and clears the failure count and the lock. The session is left as it was.
    public func setGuardianSecrets(pinHash: String, recoveryCodeHash: String?, at now: SecureInstant) throws {
        try validate {
            try Store.checkHash(pinHash, field: "pin")
            if let recoveryCodeHash { try Store.checkHash(recoveryCodeHash, field: "recoveryCode") }
        }
        try write {
            try ensureDeviceRow(now.wall)
            try db.run("""
                UPDATE device_settings SET guardian_pin_hash = ?, recovery_code_hash = coalesce(?, recovery_code_hash),
                    failed_pin_attempts = 0, pin_locked_until = NULL, pin_locked_boot = NULL, updated_at = ?
                """, [.text(pinHash), .optionalText(recoveryCodeHash), stamp(now.wall)])
        }
    }

    /// One PIN attempt, atomic across processes: in one `BEGIN IMMEDIATE` transaction the lock is
    /// checked first (a locked attempt never reaches `verify`), then `verify(storedHash)` runs; a
    /// failure increments the count and sets the lock from `policy`, a success resets them and turns
    /// guardian mode on for `GuardianSession.idleTimeout`.
    ///
    /// `verify` runs while the write lock is held (~0.1 s of argon2id), which is what serializes
    /// parallel guessers; other writers wait on the busy timeout meanwhile.
    ///
    /// `startsSession: false` checks the PIN under the same backoff without turning on the
    /// command line's guardian mode (the guardian pages keep their own sessions).
    ///
    /// `origin` chooses whose backoff counts the attempt: the device's own (its PIN pad, the
    /// command line) or the home network's (`--guardian-lan`), kept apart so that a stranger's
    /// guesses lock only the network out, never the person at the device.
    public func attemptUnlock(at now: SecureInstant, policy: PinBackoffPolicy = .standard, startsSession: Bool = true,
                              origin: AttemptOrigin = .device, verify: (_ storedHash: String) -> Bool) throws -> GuardianAttempt {
        try attempt(.pin, at: now, policy: policy, startsSession: startsSession, origin: origin, verify: verify) {}
    }

    /// A tag that changes whenever the PIN is set, changed or recovered (the tail of its salted
    /// hash, never enough to check a guess against): sessions opened under another PIN end.
    public func pinGeneration() throws -> String? {
        try read { try db.queryFirst("SELECT substr(guardian_pin_hash, -12) FROM device_settings") { $0.optionalText(0) } ?? nil }
    }

    /// One recovery-code attempt under the same backoff as the PIN. On success, in the same
    /// transaction, the PIN and the recovery code are replaced by the given hashes (the old code is
    /// then useless) and guardian mode turns on.
    public func recover(at now: SecureInstant, policy: PinBackoffPolicy = .standard, startsSession: Bool = true, origin: AttemptOrigin = .device,
                        newPinHash: String, newRecoveryCodeHash: String, verify: (_ storedHash: String) -> Bool) throws -> GuardianAttempt {
        try validate {
            try Store.checkHash(newPinHash, field: "pin")
            try Store.checkHash(newRecoveryCodeHash, field: "recoveryCode")
        }
        return try attempt(.recoveryCode, at: now, policy: policy, startsSession: startsSession, origin: origin, verify: verify) {
            try db.run("UPDATE device_settings SET guardian_pin_hash = ?, recovery_code_hash = ?",
                       [.text(newPinHash), .text(newRecoveryCodeHash)])
        }
    }

    /// Extends guardian mode after a guardian command that changes something at `now`; returns the
    /// new end, or nil (and clears the stale session) when guardian mode had already ended.
    @discardableResult
    public func touchGuardianSession(at now: SecureInstant) throws -> SecureDeadline? {
        try write {
            let stored = try db.queryFirst("SELECT guardian_unlocked_until, guardian_unlocked_boot FROM device_settings") {
                Store.deadline(wall: $0.optionalText(0), boot: $0.optionalText(1))
            } ?? nil
            guard let stored, GuardianSession(until: stored).isUnlocked(at: now) else {
                if stored != nil { try clearSession() }
                return nil
            }
            let next = GuardianSession(until: stored).touched(at: now).until
            try db.run("UPDATE device_settings SET guardian_unlocked_until = ?, guardian_unlocked_boot = ?",
                       [stamp(next.wall), .optionalText(next.boot?.stored)])
            return next
        }
    }

    /// Ends guardian mode now.
    public func lockGuardian(at now: SecureInstant) throws {
        try write {
            try db.run("""
                UPDATE device_settings SET guardian_unlocked_until = NULL, guardian_unlocked_boot = NULL, updated_at = ?
                WHERE guardian_unlocked_until IS NOT NULL
                """, [stamp(now.wall)])
        }
    }

    private func clearSession() throws {
        try db.run("UPDATE device_settings SET guardian_unlocked_until = NULL, guardian_unlocked_boot = NULL")
    }

    /// A deadline from its two stored columns; nil without a wall time.
    static func deadline(wall: String?, boot: String?) -> SecureDeadline? {
        guard let wall = wall.flatMap(Timestamp.parse) else { return nil }
        return SecureDeadline(wall: wall, boot: boot.flatMap(BootTime.init(stored:)))
    }

    private func attempt(_ kind: GuardianSecretKind, at now: SecureInstant, policy: PinBackoffPolicy, startsSession: Bool,
                         origin: AttemptOrigin, verify: (String) -> Bool, onSuccess: () throws -> Void) throws -> GuardianAttempt {
        try write {
            try ensureDeviceRow(now.wall)
            let column = kind == .pin ? "guardian_pin_hash" : "recovery_code_hash"
            // The backoff's three columns of this origin (names from this code only, never input).
            let (failed, until, boot) = origin == .device
                ? ("failed_pin_attempts", "pin_locked_until", "pin_locked_boot")
                : ("network_failed_pin_attempts", "network_pin_locked_until", "network_pin_locked_boot")
            let row = try db.queryFirst("SELECT \(column), \(failed), \(until), \(boot) FROM device_settings") {
                (hash: $0.optionalText(0), failures: $0.int(1), lock: Store.deadline(wall: $0.optionalText(2), boot: $0.optionalText(3)))
            }
            guard let row else { throw StoreError.corruptRow(table: "device_settings", id: "singleton", reason: "missing") }
            // The lock is checked before the secret: a locked attempt learns nothing.
            let left = policy.lockRemaining(until: row.lock, failures: row.failures, now: now)
            if left > 0 { return .lockedOut(seconds: left) }
            guard let hash = row.hash else { return .notSet }
            if verify(hash) {
                let session = GuardianSession(lastActivity: now)
                try onSuccess()
                try db.run("UPDATE device_settings SET \(failed) = 0, \(until) = NULL, \(boot) = NULL, updated_at = ?",
                           [stamp(now.wall)])
                if startsSession {
                    try db.run("UPDATE device_settings SET guardian_unlocked_until = ?, guardian_unlocked_boot = ?",
                               [stamp(session.until.wall), .optionalText(session.until.boot?.stored)])
                }
                return .accepted(sessionSeconds: GuardianSession.idleTimeout)
            }
            let failures = row.failures + 1
            let lock = policy.lockedUntil(failures: failures, lastFailure: now)
            try db.run("UPDATE device_settings SET \(failed) = ?, \(until) = ?, \(boot) = ?, updated_at = ?",
                       [.int(failures), optionalStamp(lock?.wall), .optionalText(lock?.boot?.stored), stamp(now.wall)])
            return .rejected(failedAttempts: failures, lockSeconds: lock == nil ? nil : policy.lockDuration(afterFailures: failures))
        }
    }

    private func ensureDeviceRow(_ now: Date) throws {
        try db.run("INSERT OR IGNORE INTO device_settings (id, created_at, updated_at) VALUES ('singleton', ?, ?)", [stamp(now), stamp(now)])
    }

    private static func checkHash(_ hash: String, field: String) throws {
        guard hash.hasPrefix("$argon2id$") else {
            // Never echo the value: it might be the secret itself, passed by mistake.
            throw ContractViolation(field: field, value: "(not a hash)", allowed: "an argon2id hash ($argon2id$…)",
                                    allowedKey: "contract.allowed.argon2", valueKey: "contract.value.notHash")
        }
    }
}
