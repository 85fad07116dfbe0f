extension HubSchema {
    /// Events by child and day (docs/centre.md, "What the hub keeps"): the staff pages read a
    /// group's today and a child's month, and `events_by_child` gave every event those children
    /// ever had, filtered by date afterwards; ten years of a child's presses are some 40,000 rows
    /// for one day's dozen. The new index also serves every read by child alone (a copy's events,
    /// a photo's check), so the old one goes.
    static let v7EventsByChildDay = PostgresMigration("2026-12-hub-v7-events-by-child-day", [
        "CREATE INDEX events_by_child_day ON events (child, date)",
        "DROP INDEX events_by_child",
    ])
}
