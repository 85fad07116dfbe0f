import SteppiePostgres
import SteppieSync

/// What the staff pages read (docs/centre.md, "The teachers' overview"): some children's
/// registers and events as a `SyncReplica`, so the pages fold them with SteppieSync's own rules
/// (`SyncView`, `DayFold`) exactly as every device does, and never decide a day by other SQL.
extension CentreStore {
    /// The registers of some children (`$1`, `text[]`), by `registers_by_child`.
    package static let replicaRegisters = """
        SELECT entity, record, field, child, value::text, stamp FROM registers WHERE child = ANY ($1::text[])
        """

    /// The events of some children (`$1`) on the days from `$2` to `$3` (every day when `$2` is
    /// NULL), by `events_by_child_day`: a group's today was a sequential scan of every event the
    /// centre ever took (69 ms with 480,000 events, in three processes), and the page asks every
    /// few seconds.
    package static let replicaEvents = """
        SELECT id, child, routine, set_id, date, kind, at, stamp, shown_title::text, shown_icon::text FROM events
        WHERE child = ANY ($1::text[]) AND ($2::text IS NULL OR date BETWEEN $2::text AND $3::text)
        """

    /// The registers and completion events of `children`, in one snapshot (repeatable read);
    /// `dates` (local dates, `YYYY-MM-DD`, inclusive): only the events of those days — a day is
    /// decided by its own events, and a page showing today or one month need not read ten years.
    package func replica(children: Set<String>, dates: ClosedRange<String>? = nil) throws -> SyncReplica {
        guard !children.isEmpty else { return SyncReplica() }
        return try pool.withConnection { c in
            try c.transaction { c in
                try c.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                var replica = SyncReplica()
                let changes = try c.query(Self.replicaRegisters, [.textArray(children.sorted())]) { r -> FieldChange in
                    guard let entity = SyncEntity(rawValue: try r.text(0)), let value = SyncJSON.value(try r.text(4)),
                          let stamp = HybridTimestamp(try r.text(5)) else {
                        throw PostgresError.unexpectedValue(column: 0, expected: "a register", statement: "registers")
                    }
                    return FieldChange(entity: entity, record: try r.text(1), child: try r.text(3), field: try r.text(2), value: value, stamp: stamp)
                }
                // Oldest first: a record's owner is fixed by its first change, as on a device.
                for change in changes.sorted(by: { $0.stamp < $1.stamp }) { replica.apply(change) }
                for event in try c.query(Self.replicaEvents, [.textArray(children.sorted()), dates.map { .text($0.lowerBound) } ?? .null,
                                                              dates.map { .text($0.upperBound) } ?? .null],
                    { r -> CompletionEvent in
                        guard let kind = CompletionEvent.Kind(rawValue: try r.text(5)), let stamp = HybridTimestamp(try r.text(7)) else {
                            throw PostgresError.unexpectedValue(column: 5, expected: "an event", statement: "events")
                        }
                        return CompletionEvent(id: try r.text(0), child: try r.text(1), routine: try r.text(2), set: try r.text(3),
                                               date: try r.text(4), kind: kind, at: try r.text(6), stamp: stamp,
                                               shownTitle: try r.optionalText(8).flatMap(SyncJSON.value),
                                               shownIcon: try r.optionalText(9).flatMap(SyncJSON.value))
                    }) {
                    replica.apply(event)
                }
                return replica
            }
        }
    }
}
