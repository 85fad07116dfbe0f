extension HubSchema {
    /// The staff pages' sessions (issue 28, docs/centre.md "The staff pages"), kept in the
    /// database so any hub process of the centre answers a signed-in browser:
    ///
    /// - `staff_sessions`: the SHA-256 of the session's cookie token (never the token), the member
    ///   it signs in, its CSRF token, the page language chosen, and two ends on the database's
    ///   clock (one clock for every process): `deadline` (idle: moved on by each request) and
    ///   `lifetime` (fixed at sign-in; `deadline` never passes it). A removed member's sessions
    ///   are refused by the join with `staff.removed_at`; the rows go when the member's row goes.
    static let v4StaffSessions = PostgresMigration("2026-12-hub-v4-staff-sessions", [
        """
        CREATE TABLE staff_sessions (
            token_hash text PRIMARY KEY CHECK (token_hash ~ \(hashCheck)),
            staff_id bigint NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
            csrf text NOT NULL CHECK (csrf ~ '^[0-9a-f]{64}$'),
            locale text CHECK (locale IN ('ko', 'en')),
            deadline timestamptz NOT NULL,
            lifetime timestamptz NOT NULL CHECK (deadline <= lifetime),
            created_at timestamptz NOT NULL DEFAULT now()
        )
        """,
        "CREATE INDEX staff_sessions_by_lifetime ON staff_sessions (lifetime)",
        "CREATE INDEX staff_sessions_by_staff ON staff_sessions (staff_id)",
    ])
}
