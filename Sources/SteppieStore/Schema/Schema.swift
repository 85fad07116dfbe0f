/// The store's schema, as an ordered list of migrations. Version 1 is the Steppie data contract
/// with several children per device.
public enum Schema {
    public static let migrations: [Migration] = [
        Migration(id: "v1-contract", sql: v1),
        Migration(id: "v2-routine-recordings", sql: v2RoutineRecordings),
        Migration(id: "v3-guardian-boot-clock", sql: v3GuardianBootClock),
        Migration(id: "v4-set-schedules", sql: v4SetSchedules),
        Migration(id: "v5-corrections-absences", sql: v5CorrectionsAbsences),
        Migration(id: "v6-device-buttons-haptics", sql: v6DeviceButtonsHaptics),
        Migration(id: "v7-network-backoff-photo-swaps", sql: v7NetworkBackoffPhotoSwaps),
        Migration(id: "v8-routine-looks", sql: v8RoutineLooks),
        Migration(id: "v9-child-pictures-sibling-switch", sql: v9ChildPicturesSiblingSwitch),
        Migration(id: "v10-sync", sql: v10Sync),
        Migration(id: "v11-sync-recordings", sql: v11SyncRecordings),
        Migration(id: "v12-compact-sync-events", sql: v12CompactSyncEvents),
    ]

    /// Applied to a column name: `HH:mm` from 00:00 to 23:59.
    static func time(_ column: String) -> String {
        "(\(column) IS NULL OR \(column) GLOB '[0-1][0-9]:[0-5][0-9]' OR \(column) GLOB '2[0-3]:[0-5][0-9]')"
    }
    static let dateCheck = "GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'"
    static let stampCheck = "GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]*'"
    static let uuidCheck = "length(id) = 36"

    static let v1 = """
    CREATE TABLE device_settings (
        id TEXT PRIMARY KEY NOT NULL CHECK (id = 'singleton'),
        guardian_pin_hash TEXT CHECK (guardian_pin_hash IS NULL OR guardian_pin_hash LIKE '$argon2id$%'),
        recovery_code_hash TEXT CHECK (recovery_code_hash IS NULL OR recovery_code_hash LIKE '$argon2id$%'),
        locale TEXT,
        failed_pin_attempts INTEGER NOT NULL DEFAULT 0 CHECK (failed_pin_attempts >= 0),
        pin_locked_until TEXT CHECK (pin_locked_until IS NULL OR pin_locked_until \(stampCheck)),
        guardian_unlocked_until TEXT CHECK (guardian_unlocked_until IS NULL OR guardian_unlocked_until \(stampCheck)),
        created_at TEXT NOT NULL CHECK (created_at \(stampCheck)),
        updated_at TEXT NOT NULL CHECK (updated_at \(stampCheck))
    ) STRICT;

    CREATE TABLE children (
        id TEXT PRIMARY KEY NOT NULL CHECK (\(uuidCheck)),
        display_name TEXT NOT NULL CHECK (length(trim(display_name)) BETWEEN 1 AND 60),
        feedback_intensity TEXT NOT NULL DEFAULT 'normal' CHECK (feedback_intensity IN ('strong', 'normal', 'quiet', 'off')),
        sound_enabled INTEGER NOT NULL DEFAULT 1 CHECK (sound_enabled IN (0, 1)),
        tts_enabled INTEGER NOT NULL DEFAULT 1 CHECK (tts_enabled IN (0, 1)),
        haptic_enabled INTEGER NOT NULL DEFAULT 1 CHECK (haptic_enabled IN (0, 1)),
        tts_rate REAL NOT NULL DEFAULT 1.0 CHECK (tts_rate BETWEEN 0.5 AND 1.5),
        tts_volume REAL NOT NULL DEFAULT 1.0 CHECK (tts_volume BETWEEN 0.0 AND 1.0),
        volume_cap REAL NOT NULL DEFAULT 1.0 CHECK (volume_cap BETWEEN 0.0 AND 1.0),
        pitch INTEGER NOT NULL DEFAULT 50 CHECK (pitch BETWEEN 0 AND 99),
        voice_variant TEXT,
        undo_duration_seconds INTEGER NOT NULL DEFAULT 5 CHECK (undo_duration_seconds IN (3, 5, 10)),
        notification_lead_times TEXT NOT NULL DEFAULT '[10,5]'
            CHECK (json_valid(notification_lead_times) AND json_type(notification_lead_times) = 'array'),
        quiet_hours_start TEXT CHECK \(time("quiet_hours_start")),
        quiet_hours_end TEXT CHECK \(time("quiet_hours_end")),
        locale TEXT,
        created_at TEXT NOT NULL CHECK (created_at \(stampCheck)),
        updated_at TEXT NOT NULL CHECK (updated_at \(stampCheck)),
        archived_at TEXT CHECK (archived_at IS NULL OR archived_at \(stampCheck)),
        CHECK ((quiet_hours_start IS NULL) = (quiet_hours_end IS NULL))
    ) STRICT;
    CREATE UNIQUE INDEX children_unique_active_name ON children (display_name COLLATE NOCASE) WHERE archived_at IS NULL;

    CREATE TABLE routine_sets (
        id TEXT PRIMARY KEY NOT NULL CHECK (\(uuidCheck)),
        child_id TEXT NOT NULL REFERENCES children (id),
        name TEXT NOT NULL CHECK (json_valid(name) AND json_type(name) = 'object'),
        is_active INTEGER NOT NULL DEFAULT 0 CHECK (is_active IN (0, 1)),
        start_time TEXT CHECK \(time("start_time")),
        created_at TEXT NOT NULL CHECK (created_at \(stampCheck)),
        updated_at TEXT NOT NULL CHECK (updated_at \(stampCheck)),
        deleted_at TEXT CHECK (deleted_at IS NULL OR deleted_at \(stampCheck)),
        CHECK (NOT (is_active = 1 AND deleted_at IS NOT NULL))
    ) STRICT;
    CREATE UNIQUE INDEX routine_sets_one_active_per_child ON routine_sets (child_id) WHERE is_active = 1;
    CREATE INDEX routine_sets_by_child ON routine_sets (child_id);

    CREATE TABLE routines (
        id TEXT PRIMARY KEY NOT NULL CHECK (\(uuidCheck)),
        routine_set_id TEXT NOT NULL REFERENCES routine_sets (id),
        title_key TEXT,
        title TEXT NOT NULL CHECK (json_valid(title) AND json_type(title) = 'object'),
        icon TEXT NOT NULL CHECK (json_valid(icon) AND json_extract(icon, '$.type') IN ('builtin', 'photo')),
        color_token TEXT NOT NULL DEFAULT 'color.card.sky' CHECK (color_token IN
            ('color.card.sky', 'color.card.mint', 'color.card.lemon', 'color.card.peach', 'color.card.lavender', 'color.card.rose')),
        sort_order INTEGER NOT NULL CHECK (sort_order >= 0),
        scheduled_time TEXT CHECK \(time("scheduled_time")),
        is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
        created_at TEXT NOT NULL CHECK (created_at \(stampCheck)),
        updated_at TEXT NOT NULL CHECK (updated_at \(stampCheck)),
        deleted_at TEXT CHECK (deleted_at IS NULL OR deleted_at \(stampCheck))
    ) STRICT;
    CREATE UNIQUE INDEX routines_unique_visible_order ON routines (routine_set_id, sort_order)
        WHERE is_active = 1 AND deleted_at IS NULL;

    CREATE TABLE daily_logs (
        id TEXT PRIMARY KEY NOT NULL CHECK (\(uuidCheck)),
        date TEXT NOT NULL CHECK (date \(dateCheck)),
        routine_id TEXT NOT NULL REFERENCES routines (id),
        routine_set_id TEXT NOT NULL REFERENCES routine_sets (id),
        status TEXT NOT NULL DEFAULT 'undone' CHECK (status IN ('completed', 'undone')),
        completed_at TEXT CHECK (completed_at IS NULL OR completed_at \(stampCheck)),
        created_at TEXT NOT NULL CHECK (created_at \(stampCheck)),
        updated_at TEXT NOT NULL CHECK (updated_at \(stampCheck)),
        UNIQUE (date, routine_id),
        CHECK ((status = 'completed') = (completed_at IS NOT NULL))
    ) STRICT;
    CREATE INDEX daily_logs_by_routine ON daily_logs (routine_id, date);
    CREATE INDEX daily_logs_by_set_date ON daily_logs (routine_set_id, date);

    -- A log's set must be its routine's set: history keeps pointing at what the child saw.
    CREATE TRIGGER daily_logs_set_matches_routine BEFORE INSERT ON daily_logs
    WHEN (SELECT routine_set_id FROM routines WHERE id = NEW.routine_id) IS NOT NEW.routine_set_id
    BEGIN SELECT RAISE(ABORT, 'daily_logs.routine_set_id must be the routine''s set'); END;

    -- Rows that history points at are never physically deleted; soft delete instead.
    CREATE TRIGGER routines_no_delete_with_history BEFORE DELETE ON routines
    WHEN EXISTS (SELECT 1 FROM daily_logs WHERE routine_id = OLD.id)
    BEGIN SELECT RAISE(ABORT, 'routines with history are soft-deleted, not removed'); END;
    """

    /// Guardian-recorded prompts: one audio file per routine and locale, kept beside the database
    /// in `recordings/` (the row holds the file name only).
    static let v2RoutineRecordings = """
    CREATE TABLE routine_recordings (
        routine_id TEXT NOT NULL REFERENCES routines (id),
        locale TEXT NOT NULL CHECK (length(locale) BETWEEN 2 AND 35),
        file_name TEXT NOT NULL CHECK (length(file_name) BETWEEN 5 AND 80 AND file_name NOT LIKE '%/%'
            AND file_name NOT LIKE '.%'),
        duration_ms INTEGER NOT NULL CHECK (duration_ms BETWEEN 1 AND 30000),
        created_at TEXT NOT NULL CHECK (created_at \(stampCheck)),
        UNIQUE (routine_id, locale)
    ) STRICT;
    """

    /// The PIN lock and the guardian session also kept on the boot clock (`<boot id> <seconds>`),
    /// so a wall-clock jump can neither shorten nor stretch them (docs/guardian.md). Sessions
    /// written before this migration have no boot mark and end.
    static let v3GuardianBootClock = """
    ALTER TABLE device_settings ADD COLUMN pin_locked_boot TEXT
        CHECK (pin_locked_boot IS NULL OR length(pin_locked_boot) BETWEEN 3 AND 100);
    ALTER TABLE device_settings ADD COLUMN guardian_unlocked_boot TEXT
        CHECK (guardian_unlocked_boot IS NULL OR length(guardian_unlocked_boot) BETWEEN 3 AND 100);
    UPDATE device_settings SET guardian_unlocked_until = NULL;
    """

    /// Weekly schedules: per child, one row per weekday and start time naming the set that becomes
    /// active then (docs/data-contract.md, "Weekly schedules"). The set must be the child's own;
    /// at most 8 start times a weekday.
    static let v4SetSchedules = """
    CREATE TABLE set_schedules (
        child_id TEXT NOT NULL REFERENCES children (id),
        weekday INTEGER NOT NULL CHECK (weekday BETWEEN 1 AND 7),
        start_time TEXT NOT NULL CHECK \(time("start_time")),
        routine_set_id TEXT NOT NULL REFERENCES routine_sets (id),
        created_at TEXT NOT NULL CHECK (created_at \(stampCheck)),
        updated_at TEXT NOT NULL CHECK (updated_at \(stampCheck)),
        PRIMARY KEY (child_id, weekday, start_time)
    ) STRICT;
    CREATE INDEX set_schedules_by_set ON set_schedules (routine_set_id);

    CREATE TRIGGER set_schedules_own_set BEFORE INSERT ON set_schedules
    WHEN (SELECT child_id FROM routine_sets WHERE id = NEW.routine_set_id) IS NOT NEW.child_id
    BEGIN SELECT RAISE(ABORT, 'set_schedules.routine_set_id must be a set of the child'); END;
    CREATE TRIGGER set_schedules_own_set_update BEFORE UPDATE ON set_schedules
    WHEN (SELECT child_id FROM routine_sets WHERE id = NEW.routine_set_id) IS NOT NEW.child_id
    BEGIN SELECT RAISE(ABORT, 'set_schedules.routine_set_id must be a set of the child'); END;
    CREATE TRIGGER set_schedules_starts_per_day BEFORE INSERT ON set_schedules
    WHEN (SELECT COUNT(*) FROM set_schedules WHERE child_id = NEW.child_id AND weekday = NEW.weekday) >= 8
    BEGIN SELECT RAISE(ABORT, 'at most 8 schedule start times per weekday'); END;
    """
}
