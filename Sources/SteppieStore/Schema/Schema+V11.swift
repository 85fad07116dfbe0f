extension Schema {
    /// Sync of recorded prompts' content (issue 27, docs/sync.md "Photos and recordings"): each
    /// recording row keeps the SHA-256 of its file's bytes (the name its content travels by), and
    /// the rows of `routine_recordings` are logged as the `recording` kind (record
    /// `<routine id>/<locale>`: `routine`, `locale`, `sha256`, `durationMs`, `deleted`) as the v10
    /// triggers log routines. A row kept before v11 has no hash and is not logged until it is
    /// recorded again.
    static var v11SyncRecordings: String {
        let child = "(SELECT s.child_id FROM routines r JOIN routine_sets s ON s.id = r.routine_set_id WHERE r.id = NEW.routine_id)"
        let oldChild = "(SELECT s.child_id FROM routines r JOIN routine_sets s ON s.id = r.routine_set_id WHERE r.id = OLD.routine_id)"
        return """
        ALTER TABLE routine_recordings ADD COLUMN sha256 TEXT
            CHECK (sha256 IS NULL OR (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'));

        CREATE TRIGGER sync_recordings_insert AFTER INSERT ON routine_recordings
        WHEN \(syncLogging) AND NEW.sha256 IS NOT NULL
        BEGIN
            INSERT INTO sync_local_writes SELECT 'recording', NEW.routine_id || '/' || NEW.locale, \(child), f, v FROM (
                SELECT 'routine' AS f, json_quote(NEW.routine_id) AS v UNION ALL SELECT 'locale', json_quote(NEW.locale)
                UNION ALL SELECT 'sha256', json_quote(NEW.sha256) UNION ALL SELECT 'durationMs', json_quote(NEW.duration_ms)
                UNION ALL SELECT 'deleted', 'false');
        END;
        CREATE TRIGGER sync_recordings_delete AFTER DELETE ON routine_recordings
        WHEN \(syncLogging) AND OLD.sha256 IS NOT NULL
        BEGIN
            INSERT INTO sync_local_writes VALUES ('recording', OLD.routine_id || '/' || OLD.locale, \(oldChild), 'deleted', 'true');
        END;
        """
    }
}
