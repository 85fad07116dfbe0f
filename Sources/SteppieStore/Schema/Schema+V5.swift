extension Schema {
    /// Guardian corrections of past days and the absences of restored routines
    /// (docs/data-contract.md, "Corrections and absences"):
    /// - `log_corrections`: one row per change a guardian made to a day's entry (`history set`),
    ///   with the state before and when the change was made; the log row itself holds the state.
    /// - `routine_absences`: one row per soft delete that was undone, with both instants, so the
    ///   whole days in between are not counted as missed.
    static let v5CorrectionsAbsences = """
    CREATE TABLE log_corrections (
        id TEXT PRIMARY KEY NOT NULL CHECK (\(uuidCheck)),
        date TEXT NOT NULL CHECK (date \(dateCheck)),
        routine_id TEXT NOT NULL REFERENCES routines (id),
        done INTEGER NOT NULL CHECK (done IN (0, 1)),
        previous_status TEXT CHECK (previous_status IS NULL OR previous_status IN ('completed', 'undone')),
        made_at TEXT NOT NULL CHECK (made_at \(stampCheck))
    ) STRICT;
    CREATE INDEX log_corrections_by_routine_date ON log_corrections (routine_id, date);

    CREATE TABLE routine_absences (
        routine_id TEXT NOT NULL REFERENCES routines (id),
        deleted_at TEXT NOT NULL CHECK (deleted_at \(stampCheck)),
        restored_at TEXT NOT NULL CHECK (restored_at \(stampCheck)),
        PRIMARY KEY (routine_id, deleted_at)
    ) STRICT;
    """
}
