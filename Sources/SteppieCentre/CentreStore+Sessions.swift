import Foundation
import SteppiePostgres
import SteppieSecurity

/// The staff pages' sessions (docs/centre.md, "The staff pages"), kept in PostgreSQL
/// (`staff_sessions`, migration v4) so a browser signed in through one hub process is answered by
/// any other. The cookie carries a random 256-bit token; the database keeps only its SHA-256.
/// Both ends are on the database's clock, one clock for every process, so neither a hub's clock
/// nor anything a client sends can stretch a session.
extension CentreStore {
    /// How long a session lasts: `idle` seconds after its last request, never more than
    /// `lifetime` seconds after its sign-in.
    package struct SessionPolicy: Equatable, Sendable {
        package var idleSeconds: Int
        package var lifetimeSeconds: Int

        package init(idleSeconds: Int, lifetimeSeconds: Int) {
            self.idleSeconds = idleSeconds
            self.lifetimeSeconds = lifetimeSeconds
        }

        /// 15 idle minutes (a teacher looks away from the overview longer than a parent from the
        /// kiosk's pages), 10 hours at most (a school day; the overview's polling cannot keep it longer).
        package static let standard = SessionPolicy(idleSeconds: 15 * 60, lifetimeSeconds: 10 * 60 * 60)
    }

    /// A signed-in browser as a request sees it: the member as the database says now (a role
    /// changed meanwhile is the new one), the CSRF token its forms carry, the language chosen.
    package struct StaffSession: Equatable, Sendable {
        package let staff: Staff
        package let csrf: String
        package let locale: String?
    }

    /// The token's hash as `staff_sessions.token_hash` keeps it.
    static func sessionHash(_ token: String) -> String { SHA256.hex(of: Data(token.utf8)) }

    /// A new session for `staff` (just signed in); the cookie's token, the only copy of it.
    package func openSession(staff: Staff, locale: String?, policy: SessionPolicy = .standard) throws -> (token: String, session: StaffSession) {
        let token = Secrets.randomToken(), csrf = Secrets.randomToken()
        try pool.withConnection { c in
            try c.transaction { c in
                // Ended sessions go when another begins: the table holds only live ones and a few stale.
                try c.run("DELETE FROM staff_sessions WHERE deadline < clock_timestamp() OR lifetime < clock_timestamp()")
                try c.run("""
                    INSERT INTO staff_sessions (token_hash, staff_id, csrf, locale, deadline, lifetime)
                    SELECT $1, $2, $3, $4, clock_timestamp() + make_interval(secs => $5), clock_timestamp() + make_interval(secs => $6)
                    """, [.text(Self.sessionHash(token)), .integer(staff.id), .text(csrf), locale.map(PostgresValue.text) ?? .null,
                          .int(min(policy.idleSeconds, policy.lifetimeSeconds)), .int(policy.lifetimeSeconds)])
            }
        }
        return (token, StaffSession(staff: staff, csrf: csrf, locale: locale))
    }

    /// The live session of a cookie's token, its idle end moved on (never past its lifetime); nil
    /// when it ended, never existed, or its member was removed.
    package func session(token: String, policy: SessionPolicy = .standard) throws -> StaffSession? {
        guard token.utf8.count == 64, token.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        return try pool.withConnection { c in
            try c.queryFirst("""
                UPDATE staff_sessions s SET deadline = least(s.lifetime, clock_timestamp() + make_interval(secs => $2))
                FROM staff m
                WHERE s.token_hash = $1 AND m.id = s.staff_id AND m.removed_at IS NULL
                  AND s.deadline > clock_timestamp() AND s.lifetime > clock_timestamp()
                RETURNING m.id, m.name, m.role, s.csrf, s.locale
                """, [.text(Self.sessionHash(token)), .int(policy.idleSeconds)]) { r -> StaffSession? in
                guard let role = StaffRole(rawValue: try r.text(2)) else { return nil }
                return StaffSession(staff: Staff(id: try r.int(0), name: try r.text(1), role: role), csrf: try r.text(3),
                                    locale: try r.optionalText(4))
            } ?? nil
        }
    }

    /// The page language a session chose (`ko`, `en`).
    package func setSessionLocale(token: String, locale: String) throws {
        try pool.withConnection { c in
            _ = try c.run("UPDATE staff_sessions SET locale = $2 WHERE token_hash = $1", [.text(Self.sessionHash(token)), .text(locale)])
        }
    }

    /// Ends a session (sign-out).
    package func closeSession(token: String) throws {
        try pool.withConnection { c in _ = try c.run("DELETE FROM staff_sessions WHERE token_hash = $1", [.text(Self.sessionHash(token))]) }
    }
}
