import Foundation
import SteppieCore
import SteppiePostgres
import SteppieSecurity

/// The centre's staff (docs/centre.md, "Staff, roles and groups"): argon2id password hashes
/// (`PasswordHasher`, the guardian PIN's), roles checked against the database on every change,
/// the guardian PIN's backoff for wrong passwords (`PinBackoffPolicy.standard`, counted per name
/// in the database, so every hub process sees it).
extension CentreStore {
    /// A password has at least this many characters…
    package static let minimumPasswordLength = 10
    /// …and at most this many bytes (argon2id hashes anything; a megabyte of it is still a waste).
    package static let maximumPasswordBytes = 1024
    /// Wrong passwords for one name: 4 free, then 30 s doubling up to an hour.
    package static let signInPolicy = PinBackoffPolicy.standard
    /// The advisory lock every change to the staff takes ("StepStaf" in ASCII): the first-admin
    /// rule and the last-admin rule hold across processes.
    static let staffLockKey: Int64 = 0x5374_6570_5374_6166

    /// A member's name, trimmed: 1–60 characters of plain text.
    static func checkedName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        do { try Validator.plainText(trimmed, field: "staff.name", maxLength: 60) } catch { throw CentreStaffError.invalidName }
        return trimmed
    }

    /// The password's argon2id hash, after its length is checked.
    func hashPassword(_ password: String) throws -> String {
        guard password.count >= Self.minimumPasswordLength, password.utf8.count <= Self.maximumPasswordBytes else {
            throw CentreStaffError.passwordLength(minimum: Self.minimumPasswordLength, maximum: Self.maximumPasswordBytes)
        }
        return try PasswordHasher(limits: passwordLimits).hash(password)
    }

    /// The first admin, added by the machine's operator without signing in: only while the hub
    /// has no current admin (`adminExists` after that).
    package func addFirstAdmin(name: String, password: String) throws -> Staff {
        let name = try Self.checkedName(name)
        let hash = try hashPassword(password)
        return try pool.withConnection { c in
            try c.transaction { c in
                try c.run("SELECT pg_advisory_xact_lock($1)", [.integer(Self.staffLockKey)])
                guard try Self.currentAdmins(c) == 0 else { throw CentreStaffError.adminExists }
                return try Self.insertStaff(c, name: name, hash: hash, role: .admin)
            }
        }
    }

    /// A new member of staff, added by an admin.
    package func addStaff(name: String, password: String, role: StaffRole, actor: Staff) throws -> Staff {
        let name = try Self.checkedName(name)
        let hash = try hashPassword(password)
        return try pool.withConnection { c in
            try c.transaction { c in
                try c.run("SELECT pg_advisory_xact_lock($1)", [.integer(Self.staffLockKey)])
                try Self.authorize(c, actor, .manageStaff)
                return try Self.insertStaff(c, name: name, hash: hash, role: role)
            }
        }
    }

    /// Removes a member (by name, whatever its letters' case), by an admin: their password stops
    /// working at once and any act they were signed in for is refused. The last admin stays.
    package func removeStaff(name: String, actor: Staff) throws {
        try pool.withConnection { c in
            try c.transaction { c in
                try c.run("SELECT pg_advisory_xact_lock($1)", [.integer(Self.staffLockKey)])
                try Self.authorize(c, actor, .manageStaff)
                guard let role = try c.queryFirst("SELECT role FROM staff WHERE lower(name) = lower($1) AND removed_at IS NULL",
                                                  [.text(name)], { try $0.text(0) }) else { throw CentreStaffError.noSuchStaff(name) }
                if role == StaffRole.admin.rawValue, try Self.currentAdmins(c) <= 1 { throw CentreStaffError.lastAdmin }
                try c.run("UPDATE staff SET removed_at = now() WHERE lower(name) = lower($1) AND removed_at IS NULL", [.text(name)])
            }
        }
    }

    /// The current staff, by name.
    package func staff() throws -> [Staff] {
        try pool.withConnection { c in
            try c.query("SELECT id, name, role FROM staff WHERE removed_at IS NULL ORDER BY lower(name), id") { r in
                guard let role = StaffRole(rawValue: try r.text(2)) else {
                    throw PostgresError.unexpectedValue(column: 2, expected: "a role", statement: "staff")
                }
                return Staff(id: try r.int(0), name: try r.text(1), role: role)
            }
        }
    }

    /// Signs a member in by name and password: `signInRefused` for a wrong name or password (the
    /// same answer), `lockedOut` while the backoff holds — checked before the password, so a
    /// locked attempt learns nothing. A wrong password counts for the name; a right one resets it.
    package func signIn(name: String, password: String, now: Int64) throws -> Staff {
        let hasher = try PasswordHasher(limits: passwordLimits)
        let result = try pool.withConnection { c in
            try c.transaction { c -> Result<Staff, CentreStaffError> in
                guard let row = try c.queryFirst("""
                    SELECT id, name, password_hash, role, failed_attempts, locked_until FROM staff
                    WHERE lower(name) = lower($1) AND removed_at IS NULL FOR UPDATE
                    """, [.text(name)], { r in
                        (id: try r.int(0), name: try r.text(1), hash: try r.text(2), role: StaffRole(rawValue: try r.text(3)),
                         failures: Int(clamping: try r.int(4)), lockedUntil: try r.optionalInt(5))
                    }), let role = row.role else {
                    // As long as a real check: the answer's time tells no name apart.
                    _ = try? hasher.hash(password)
                    return .failure(.signInRefused)
                }
                let longest = Int64(Self.signInPolicy.lockDuration(afterFailures: row.failures) * 1000)
                if let until = row.lockedUntil, min(until - now, longest) > 0 {
                    return .failure(.lockedOut(seconds: Int((min(until - now, longest) + 999) / 1000)))
                }
                guard hasher.verify(password, against: row.hash) else {
                    let failures = row.failures + 1
                    let lock = Int64(Self.signInPolicy.lockDuration(afterFailures: failures) * 1000)
                    try c.run("UPDATE staff SET failed_attempts = $1, locked_until = $2 WHERE id = $3",
                              [.int(failures), lock > 0 ? PostgresValue.integer(now + lock) : PostgresValue.null, .integer(row.id)])
                    return .failure(.signInRefused)
                }
                try c.run("UPDATE staff SET failed_attempts = 0, locked_until = NULL WHERE id = $1", [.integer(row.id)])
                if hasher.needsRehash(row.hash) {
                    try c.run("UPDATE staff SET password_hash = $1 WHERE id = $2", [.text(try hasher.hash(password)), .integer(row.id)])
                }
                return .success(Staff(id: row.id, name: row.name, role: role))
            }
        }
        return try result.get()
    }

    /// Checks, inside the act's transaction, that `actor` is still current staff and that their
    /// role now permits `action`; their row is held (`FOR SHARE`) until the act commits, so a
    /// removal waits for it rather than slipping between the check and the change.
    static func authorize(_ c: PostgresConnection, _ actor: Staff, _ action: StaffAction) throws {
        guard let text = try c.queryFirst("SELECT role FROM staff WHERE id = $1 AND removed_at IS NULL FOR SHARE",
                                          [.integer(actor.id)], { try $0.text(0) }),
              let role = StaffRole(rawValue: text) else { throw CentreStaffError.notStaff }
        guard role.permits(action) else { throw CentreStaffError.notPermitted(role: role, action: action) }
    }

    static func currentAdmins(_ c: PostgresConnection) throws -> Int64 {
        try c.queryFirst("SELECT COUNT(*) FROM staff WHERE role = 'admin' AND removed_at IS NULL", [], { try $0.int(0) }) ?? 0
    }

    static func insertStaff(_ c: PostgresConnection, name: String, hash: String, role: StaffRole) throws -> Staff {
        guard try c.queryFirst("SELECT 1 FROM staff WHERE lower(name) = lower($1) AND removed_at IS NULL", [.text(name)], { _ in true })
                == nil else { throw CentreStaffError.staffNameTaken(name) }
        guard let id = try c.queryFirst("INSERT INTO staff (name, password_hash, role) VALUES ($1, $2, $3) RETURNING id",
                                        [.text(name), .text(hash), .text(role.rawValue)], { try $0.int(0) }) else {
            throw PostgresError.unexpectedValue(column: 0, expected: "the new member's id", statement: "staff")
        }
        return Staff(id: id, name: name, role: role)
    }
}
