extension Schema {
    /// History keeps what the child saw (issue 26, item 7):
    /// - `routine_looks`: a routine's title and icon as its card showed them when it was completed,
    ///   copied from the routine row in the completion's own transaction; many logs share one look;
    /// - `daily_logs.look_id`: the look a completion showed (NULL before this migration: those
    ///   days show the routine as it is now);
    /// - `photo_hashes`: the SHA-256 of each photo file's bytes by its name. A photo's name is
    ///   never given to other bytes (each upload takes a new `routine-photo-<uuid>` name), so the
    ///   name and the hash together address the content; backups check it, sync will send by it.
    static let v8RoutineLooks = """
    CREATE TABLE routine_looks (
        id TEXT PRIMARY KEY NOT NULL CHECK (\(uuidCheck)),
        routine_id TEXT NOT NULL REFERENCES routines (id),
        title TEXT NOT NULL CHECK (json_valid(title) AND json_type(title) = 'object'),
        icon TEXT NOT NULL CHECK (json_valid(icon) AND json_extract(icon, '$.type') IN ('builtin', 'photo')),
        created_at TEXT NOT NULL CHECK (created_at \(stampCheck))
    ) STRICT;
    CREATE INDEX routine_looks_by_routine ON routine_looks (routine_id);

    ALTER TABLE daily_logs ADD COLUMN look_id TEXT REFERENCES routine_looks (id);

    CREATE TABLE photo_hashes (
        name TEXT PRIMARY KEY NOT NULL CHECK (name GLOB 'routine-photo-?*' AND instr(name, '/') = 0 AND length(name) <= 200),
        sha256 TEXT NOT NULL CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*')
    ) STRICT;
    """
}
