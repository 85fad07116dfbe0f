extension Schema {
    /// Hardening of the device service (issue 24); device-local, never in backups:
    /// - the PIN backoff of attempts made from the home network (`--guardian-lan`) is counted
    ///   apart from the device's own, so a stranger's guesses never lock the person at the device
    ///   out (docs/guardian.md);
    /// - `photo_swaps` is the restore's journal: the staging folder whose photos a committed
    ///   restore put in place, written in the restore's own transaction, so a restore killed at any
    ///   moment is finished or undone on the next start to match the database (docs/backup.md).
    static let v7NetworkBackoffPhotoSwaps = """
    ALTER TABLE device_settings ADD COLUMN network_failed_pin_attempts INTEGER NOT NULL DEFAULT 0
        CHECK (network_failed_pin_attempts >= 0);
    ALTER TABLE device_settings ADD COLUMN network_pin_locked_until TEXT
        CHECK (network_pin_locked_until IS NULL OR network_pin_locked_until \(stampCheck));
    ALTER TABLE device_settings ADD COLUMN network_pin_locked_boot TEXT
        CHECK (network_pin_locked_boot IS NULL OR length(network_pin_locked_boot) BETWEEN 3 AND 100);

    CREATE TABLE photo_swaps (
        staging TEXT PRIMARY KEY NOT NULL CHECK (staging GLOB '.steppie-restore-?*' AND instr(staging, '/') = 0
            AND length(staging) <= 100),
        created_at TEXT NOT NULL CHECK (created_at \(stampCheck))
    ) STRICT;
    """
}
