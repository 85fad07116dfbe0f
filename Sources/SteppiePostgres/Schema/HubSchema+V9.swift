extension HubSchema {
    /// The index of events by routine and day goes (docs/centre.md, "What the hub keeps"): no read
    /// of the centre's hub looks events up by routine (a group's today, a child's month, a copy and
    /// a photo's check all go by child, `events_by_child_day`), and every event taken paid for it,
    /// one b-tree entry of two text keys of the three an event's row made (docs/performance.md,
    /// session 52).
    static let v9NoEventsByDay = PostgresMigration("2026-12-hub-v9-no-events-by-day", [
        "DROP INDEX events_by_day",
    ])
}
