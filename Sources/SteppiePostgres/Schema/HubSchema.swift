/// The centre's hub on PostgreSQL (issue 28, docs/centre.md): its migrations, in order. Shipped
/// migrations are never edited; a change is a new one appended here.
package enum HubSchema {
    package static let migrations: [PostgresMigration] = [
        v1Sync, v2BlobsIdentity, v3Staff, v4StaffSessions, v5FeedByChild, v6DevicesByCredential, v7EventsByChildDay,
        v8ChildNames, v9NoEventsByDay,
    ]

    package static var migrator: PostgresMigrator { PostgresMigrator(migrations) }

    /// A date (`2026-12-03`) and a moment (`2026-12-03T08:15:00…`) as the SQLite store checks them.
    static let dateCheck = "'^[0-9]{4}-[0-1][0-9]-[0-3][0-9]$'"
    static let stampCheck = "'^[0-9]{4}-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]'"
    static let hashCheck = "'^[0-9a-f]{64}$'"
    static let entities = "('child', 'routineSet', 'routine', 'schedule', 'recording')"
    static let kinds = "('press', 'undo', 'correctDone', 'correctUndone')"

    /// The household hub's sync tables (schema v10 on SQLite, docs/sync.md) with the same
    /// constraints; JSON is `jsonb` (valid by type), counters are `bigint`, flags `boolean`, and
    /// the feed is ordered by an identity sequence.
    ///
    /// - `hub_state`: the hub's device id, its hybrid clock and the feed position forgotten through
    ///   (one row, shared by every hub process of the centre).
    /// - `devices`: the joined devices, credential kept as a SHA-256 hash, their children, what
    ///   the hub acknowledged of their pushes and their cursor in the feed.
    /// - `invites`, `join_attempts`: joining codes (hashed) and failed joins (the backoff).
    /// - `registers`, `events`: every synced field's last value and stamp; every completion event.
    /// - `feed`: the entries in the order the hub took them; `conflicts`: what the hub settled.
    static let v1Sync = PostgresMigration("2026-12-hub-v1-sync", [
        """
        CREATE TABLE hub_state (
            id text PRIMARY KEY CHECK (id = 'singleton'),
            device_id text NOT NULL CHECK (length(device_id) = 36),
            clock_wall bigint NOT NULL DEFAULT 0 CHECK (clock_wall >= 0),
            clock_counter integer NOT NULL DEFAULT 0 CHECK (clock_counter BETWEEN 0 AND 16777215),
            forgotten_through bigint NOT NULL DEFAULT 0 CHECK (forgotten_through >= 0),
            created_at timestamptz NOT NULL DEFAULT now()
        )
        """,
        """
        CREATE TABLE devices (
            id text PRIMARY KEY CHECK (length(id) = 36),
            name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 60),
            credential_hash text NOT NULL CHECK (credential_hash ~ \(hashCheck)),
            children jsonb NOT NULL CHECK (jsonb_typeof(children) = 'array'),
            acknowledged bigint NOT NULL DEFAULT 0 CHECK (acknowledged >= 0),
            needs_copy boolean NOT NULL DEFAULT true,
            joined_at text NOT NULL CHECK (joined_at ~ \(stampCheck)),
            last_contact bigint,
            last_offset_ms bigint,
            cursor bigint NOT NULL DEFAULT 0 CHECK (cursor >= 0)
        )
        """,
        """
        CREATE TABLE invites (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            code_hash text NOT NULL CHECK (code_hash ~ \(hashCheck)),
            children jsonb NOT NULL CHECK (jsonb_typeof(children) = 'array'),
            expires_at bigint NOT NULL,
            used boolean NOT NULL DEFAULT false
        )
        """,
        "CREATE INDEX invites_by_code ON invites (code_hash) WHERE NOT used",
        "CREATE TABLE join_attempts (at bigint NOT NULL)",
        "CREATE INDEX join_attempts_by_time ON join_attempts (at)",
        """
        CREATE TABLE registers (
            entity text NOT NULL CHECK (entity IN \(entities)),
            record text NOT NULL,
            field text NOT NULL,
            child text NOT NULL,
            value jsonb NOT NULL,
            stamp text NOT NULL CHECK (length(stamp) = 61),
            PRIMARY KEY (entity, record, field)
        )
        """,
        "CREATE INDEX registers_by_child ON registers (child)",
        """
        CREATE TABLE events (
            id text PRIMARY KEY,
            child text NOT NULL,
            routine text NOT NULL,
            set_id text NOT NULL,
            date text NOT NULL CHECK (date ~ \(dateCheck)),
            kind text NOT NULL CHECK (kind IN \(kinds)),
            at text NOT NULL,
            stamp text NOT NULL CHECK (length(stamp) = 61),
            shown_title jsonb,
            shown_icon jsonb
        )
        """,
        "CREATE INDEX events_by_day ON events (routine, date)",
        "CREATE INDEX events_by_child ON events (child)",
        """
        CREATE TABLE feed (
            position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            origin text NOT NULL,
            child text NOT NULL,
            taken_at bigint NOT NULL,
            entry jsonb NOT NULL
        )
        """,
        "CREATE INDEX feed_by_time ON feed (taken_at)",
        """
        CREATE TABLE conflicts (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            at bigint NOT NULL,
            entity text NOT NULL,
            record text NOT NULL,
            reason text NOT NULL
        )
        """,
    ])
}
