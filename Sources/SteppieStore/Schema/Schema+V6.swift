extension Schema {
    /// Applied to a column name: a plain absolute path of 2…4096 bytes without control characters
    /// or empty, `.` or `..` parts (`Validator.devicePath`).
    static func plainPath(_ column: String) -> String {
        """
        (length(CAST(\(column) AS BLOB)) BETWEEN 2 AND 4096 AND substr(\(column), 1, 1) = '/'
            AND \(column) NOT GLOB ('*[' || char(1) || '-' || char(31) || char(127) || ']*')
            AND \(column) NOT GLOB '*/' AND instr(\(column), '//') = 0
            AND \(column) NOT GLOB '*/./*' AND \(column) NOT GLOB '*/../*'
            AND \(column) NOT GLOB '*/.' AND \(column) NOT GLOB '*/..')
        """
    }

    /// This device's hardware (docs/buttons.md, docs/feedback.md): not part of backups, kept by a
    /// restore.
    /// - `device_buttons`: big buttons and switches `steppie serve` reads, one row per device
    ///   path, with the canonical key map (NULL: any key is done), the child they press for (NULL:
    ///   `serve --child` or the only child), exclusive use and the debounce window; at most 16.
    /// - `device_haptics`: one row (absent: the defaults) choosing the haptic stand-ins: the audio
    ///   pulse, an evdev FF_RUMBLE device under /dev/input, a JSON-lines log file.
    static let v6DeviceButtonsHaptics = """
    CREATE TABLE device_buttons (
        id TEXT PRIMARY KEY NOT NULL CHECK (\(uuidCheck)),
        path TEXT NOT NULL UNIQUE CHECK \(plainPath("path")),
        key_map TEXT CHECK (key_map IS NULL OR (length(key_map) BETWEEN 3 AND 4000 AND key_map GLOB '*?=?*'
            AND key_map NOT GLOB '*[^ -~]*')),
        child_id TEXT REFERENCES children (id),
        grab INTEGER NOT NULL DEFAULT 0 CHECK (grab IN (0, 1)),
        debounce_ms INTEGER CHECK (debounce_ms IS NULL OR debounce_ms BETWEEN 0 AND 5000),
        created_at TEXT NOT NULL CHECK (created_at \(stampCheck)),
        updated_at TEXT NOT NULL CHECK (updated_at \(stampCheck))
    ) STRICT;
    CREATE TRIGGER device_buttons_at_most_16 BEFORE INSERT ON device_buttons
    WHEN (SELECT COUNT(*) FROM device_buttons) >= 16
    BEGIN SELECT RAISE(ABORT, 'at most 16 buttons per device'); END;

    CREATE TABLE device_haptics (
        id TEXT PRIMARY KEY NOT NULL CHECK (id = 'singleton'),
        audio_pulse INTEGER NOT NULL DEFAULT 1 CHECK (audio_pulse IN (0, 1)),
        rumble_path TEXT CHECK (rumble_path IS NULL OR (\(plainPath("rumble_path")) AND rumble_path GLOB '/dev/input/?*')),
        log_path TEXT CHECK (log_path IS NULL OR \(plainPath("log_path"))),
        updated_at TEXT NOT NULL CHECK (updated_at \(stampCheck))
    ) STRICT;
    """
}
