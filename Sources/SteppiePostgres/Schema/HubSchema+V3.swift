extension HubSchema {
    /// The centre's people and groups (issue 28 item 3, docs/centre.md):
    ///
    /// - `staff`: who may use the hub's pages and the staff and group commands: a name (1–60
    ///   characters, unique among current staff whatever its letters' case), an argon2id password
    ///   hash (`$argon2id$…`, never the password), a role (viewer, editor, admin), the sign-in
    ///   backoff (`failed_attempts`, `locked_until` in milliseconds) and `removed_at`: a removed
    ///   member's row stays (who did what keeps a name) but signs in no more.
    /// - `groups` (a class): a name (1–60 characters, unique whatever the case);
    ///   `group_children`: which children a group holds (a child may be in several groups).
    /// - `devices.group_id`: the group a device is given (none: NULL). A device's children are its
    ///   own `children` (granted one by one, or made on it) and its group's.
    static let v3Staff = PostgresMigration("2026-12-hub-v3-staff", [
        """
        CREATE TABLE staff (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 60),
            password_hash text NOT NULL CHECK (password_hash LIKE '$argon2id$%'),
            role text NOT NULL CHECK (role IN ('viewer', 'editor', 'admin')),
            failed_attempts integer NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
            locked_until bigint,
            created_at timestamptz NOT NULL DEFAULT now(),
            removed_at timestamptz
        )
        """,
        "CREATE UNIQUE INDEX staff_by_name ON staff (lower(name)) WHERE removed_at IS NULL",
        """
        CREATE TABLE groups (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 60),
            created_at timestamptz NOT NULL DEFAULT now()
        )
        """,
        "CREATE UNIQUE INDEX groups_by_name ON groups (lower(name))",
        """
        CREATE TABLE group_children (
            group_id bigint NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
            child text NOT NULL,
            PRIMARY KEY (group_id, child)
        )
        """,
        "ALTER TABLE devices ADD COLUMN group_id bigint REFERENCES groups (id) ON DELETE SET NULL",
        "CREATE INDEX devices_by_group ON devices (group_id)",
    ])
}
