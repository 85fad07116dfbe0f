import SteppiePostgres
import SteppieSync

extension CentreStore {
    /// A child name as the household's tables compare it (`COLLATE NOCASE`: ASCII letters only).
    static func nameKey(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.map { $0.isASCII ? Unicode.Scalar(UInt8(ascii: $0).lowercasedASCII) : $0 }))
    }

    /// The children that are not archived, with their names (from the `child` registers).
    static func activeChildNames(_ c: PostgresConnection) throws -> [(id: String, name: String)] {
        try c.query("""
            SELECT n.record, n.value::text FROM registers n
            WHERE n.entity = 'child' AND n.field = 'name' AND NOT EXISTS (
                SELECT 1 FROM registers a WHERE a.entity = 'child' AND a.record = n.record AND a.field = 'archived' AND a.value = 'true'::jsonb)
            ORDER BY n.record COLLATE "C"
            """) { r in (try r.text(0), SyncJSON.value(try r.text(1))?.string ?? "") }
    }

    /// Whether a shown child other than `$2` has a name whose key (`CentreStore.nameKey`) is `$1`:
    /// the expression of `registers_child_names` (migration `2026-12-hub-v8-child-names`), word
    /// for word, so the look-up is that index's.
    package static let childNameTaken = """
        SELECT 1 FROM registers n
        WHERE n.entity = 'child' AND n.field = 'name'
            AND translate(CASE WHEN jsonb_typeof(n.value) = 'string' THEN n.value #>> '{}' ELSE '' END,
                          'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') = $1
            AND n.record <> $2 AND NOT EXISTS (
                SELECT 1 FROM registers a WHERE a.entity = 'child' AND a.record = n.record AND a.field = 'archived' AND a.value = 'true'::jsonb)
        LIMIT 1
        """

    /// On the hub, as the household hub does (`Store.settleChildNameConflicts`): a child named or
    /// shown again with a name another shown child already has (two devices each made a "Mina")
    /// is renamed "Mina (2)" by the hub itself, a change with the hub's stamp that every device
    /// takes through the feed; the conflict and how it was settled are kept in `conflicts`.
    /// Children are taken in id order; each name is looked up by its key
    /// (`registers_child_names`), the renames written so far in this transaction seen by the next
    /// look-up. Names compare as their text with ASCII letters folded, code unit by code unit, as
    /// SQLite's `NOCASE` compares them at home (a name spelled with a combining accent is not the
    /// same name as one with the accented letter).
    /// A shown (not archived) child's name as its register keeps it (not a JSON string: empty);
    /// nil when the hub has no such child.
    static func shownChildName(_ c: PostgresConnection, _ id: String) throws -> String? {
        try c.queryFirst(Statements.shownChildName, [.text(id)], { SyncJSON.value(try $0.text(0))?.string ?? "" })
    }

    static func settleChildNames(_ c: PostgresConnection, _ touched: Set<String>, clock: inout HubClock, now: Int64) throws {
        for id in touched.sorted() {
            // The push holds `namesLockKey`: no other push changes a name meanwhile.
            guard let name = try shownChildName(c, id) else { continue }
            func taken(_ candidate: String) throws -> Bool {
                try c.queryFirst(Statements.childNameTaken, [.text(nameKey(candidate)), .text(id)]) { _ in true } ?? false
            }
            guard try taken(name) else { continue }
            var n = 2
            var candidate = name
            repeat {
                let suffix = " (\(n))"
                candidate = String(name.prefix(60 - suffix.count)) + suffix
                n += 1
            } while try taken(candidate)
            let change = FieldChange(entity: .child, record: id, child: id, field: "name", value: .string(candidate),
                                     stamp: clock.tick(physical: now))
            try c.run(Statements.register, [.text("child"), .text(id), .text("name"), .text(id),
                                            .text(SyncJSON.text(change.value)), .text(change.stamp.description)])
            try c.run(Statements.feed, [.text(change.stamp.device.text), .text(id), .integer(now), .text(json(.change(change)))])
            try c.run("INSERT INTO conflicts (at, entity, record, reason) VALUES ($1, 'child', $2, $3)",
                      [.integer(now), .text(id), .text("renamed: \(name) → \(candidate)")])
        }
    }
}

private extension UInt8 {
    var lowercasedASCII: UInt8 { (0x41...0x5A).contains(self) ? self + 0x20 : self }
}
