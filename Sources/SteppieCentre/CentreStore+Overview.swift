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

/// What the overview reads besides the children's day: one group, the devices that serve some
/// children, device names and one child's name — each scoped to what the page shows, since the
/// page asks every second while it is open (reading every device and every group of a district
/// for each of those polls grew with the district, not with the class).
extension CentreStore {
    /// A group with its children and devices (`groups()`'s columns) by a condition on `g`.
    static func groupsQuery(where condition: String, limit: Int? = nil) -> String {
        """
        SELECT g.id, g.name,
               COALESCE((SELECT jsonb_agg(child ORDER BY child COLLATE "C") FROM group_children WHERE group_id = g.id), '[]')::text,
               COALESCE((SELECT jsonb_agg(id ORDER BY id) FROM devices WHERE group_id = g.id), '[]')::text
        FROM groups g WHERE \(condition) ORDER BY lower(g.name), g.id\(limit.map { " LIMIT \($0)" } ?? "")
        """
    }

    static func group(_ r: PostgresRow) throws -> Group {
        Group(id: try r.int(0), name: try r.text(1), children: SyncJSON.value(try r.text(2))?.strings ?? [],
              devices: (SyncJSON.value(try r.text(3))?.strings ?? []).compactMap(DeviceID.init))
    }

    /// One group by its id; nil when there is none.
    package func group(id: Int64) throws -> Group? {
        try pool.withConnection { c in try c.queryFirst(Self.groupsQuery(where: "g.id = $1"), [.integer(id)], Self.group) }
    }

    /// The first group by name (the overview's choice when none is asked for); nil when there is none.
    package func firstGroup() throws -> Group? {
        try pool.withConnection { c in try c.queryFirst(Self.groupsQuery(where: "true", limit: 1), [], Self.group) }
    }

    /// Every group's id and name, by name (the overview's choice of group).
    package func groupNames() throws -> [(id: Int64, name: String)] {
        try pool.withConnection { c in
            try c.query("SELECT id, name FROM groups ORDER BY lower(name), id") { r in (try r.int(0), try r.text(1)) }
        }
    }

    /// The devices that serve a group: given the group (`$1`), or holding one of its children
    /// (`$2`, `text[]`) as their own or through another group they were given — a child in two
    /// classes is served by both classes' devices. In joining order.
    package static let servingDevices = """
        SELECT id, name, children::text, acknowledged, cursor, last_contact, last_offset_ms FROM devices d
        WHERE d.group_id = $1 OR d.children ?| $2::text[]
           OR d.group_id IN (SELECT group_id FROM group_children WHERE child = ANY ($2::text[]))
        ORDER BY joined_at, id
        """

    package func devices(serving group: Int64, children: [String]) throws -> [Device] {
        try pool.withConnection { c in try c.query(Self.servingDevices, [.integer(group), .textArray(children)], Self.device) }
    }

    /// The names of these devices, those that are still joined.
    package func deviceNames(_ ids: Set<DeviceID>) throws -> [DeviceID: String] {
        guard !ids.isEmpty else { return [:] }
        return try pool.withConnection { c in
            Dictionary(try c.query("SELECT id, name FROM devices WHERE id = ANY ($1::text[])", [.textArray(ids.map(\.text).sorted())]) { r in
                (DeviceID(try r.text(0)), try r.text(1))
            }.compactMap { id, name in id.map { ($0, name) } }, uniquingKeysWith: { a, _ in a })
        }
    }

    /// A shown (not archived) child's name; nil when the hub has no such child.
    package func childName(_ id: String) throws -> String? {
        try pool.withConnection { c in try Self.shownChildName(c, id) }
    }
}
