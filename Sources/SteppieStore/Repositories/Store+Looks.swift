import Foundation
import SteppieCore

/// What completions showed (`routine_looks`, schema v8) and the content hashes of photo files
/// (`photo_hashes`): history keeps the title and picture the child saw (docs/data-contract.md,
/// "History keeps what the child saw").
extension Store {
    /// The looks of a child's routines (deleted routines included).
    public func looks(childId: UUID) throws -> [RoutineLook] {
        try read {
            try db.query("""
                SELECT \(Store.qualified(Store.lookColumns, "k")), h.sha256 FROM routine_looks k
                JOIN routines r ON r.id = k.routine_id JOIN routine_sets s ON s.id = r.routine_set_id
                LEFT JOIN photo_hashes h ON h.name = json_extract(k.icon, '$.backupAssetName')
                WHERE s.child_id = ? ORDER BY k.rowid
                """, [.text(childId.lowercased)], decodeLook)
        }
    }

    /// Every look, in insertion order, each with its photo's hash when known.
    func allLooks() throws -> [RoutineLook] {
        try db.query("""
            SELECT \(Store.qualified(Store.lookColumns, "k")), h.sha256 FROM routine_looks k
            LEFT JOIN photo_hashes h ON h.name = json_extract(k.icon, '$.backupAssetName') ORDER BY k.rowid
            """, [], decodeLook)
    }

    func decodeLook(_ row: Row) throws -> RoutineLook {
        guard let id = UUIDText.parse(row.bytes(0)), let routine = UUIDText.parse(row.bytes(1)),
              let created = Timestamp.parse(utf8: row.bytes(4)) else {
            throw StoreError.corruptRow(table: "routine_looks", id: row.text(0), reason: "bad id, routine or stamp")
        }
        return RoutineLook(id: id, routineId: routine, title: try JSONColumn.decode(LocalizedText.self, row.text(2), table: "routine_looks", id: row.text(0)),
                           icon: try JSONColumn.decode(IconRef.self, row.text(3), table: "routine_looks", id: row.text(0)),
                           photoSha256: row.optionalText(5), createdAt: created)
    }

    /// Inserts looks as they are (a restore), before the logs that name them; the caller runs
    /// inside a write. Each look's title and icon are checked against the contract.
    func insertLooks(_ looks: [RoutineLook]) throws {
        let statement = try db.statement("INSERT INTO routine_looks (\(Store.lookColumns)) VALUES (?, ?, ?, ?, ?)")
        for k in looks {
            try validate { try Validator.title(k.title); try Validator.icon(k.icon) }
            try statement.bind([.text(k.id.lowercased), .text(k.routineId.lowercased), .text(try JSONColumn.encode(k.title)),
                                .text(try JSONColumn.encode(k.icon)), stamp(k.createdAt)])
            try statement.runToEnd()
        }
    }

    /// Records the SHA-256 (lowercase hex) of the photo file `name`'s bytes. A name is never given
    /// to other bytes; recording it again (the same bytes) changes nothing.
    public func recordPhotoHash(name: String, sha256: String) throws {
        try validate { try Validator.photoAssetName(name) }
        guard RoutineLook.isSha256(sha256) else {
            throw StoreError.invalid(ContractViolation(field: "photoSha256", value: Validator.printable(sha256), allowed: "64 lowercase hex digits"))
        }
        try write {
            try db.run("INSERT INTO photo_hashes (name, sha256) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET sha256 = excluded.sha256",
                       [.text(name), .text(sha256)])
        }
    }

    /// The recorded SHA-256 of every photo name.
    public func photoHashes() throws -> [String: String] {
        try read {
            Dictionary(try db.query("SELECT name, sha256 FROM photo_hashes", []) { ($0.text(0), $0.text(1)) }, uniquingKeysWith: { a, _ in a })
        }
    }

    /// Replaces every recorded photo hash (a device restore: the photo folder is the backup's).
    func replacePhotoHashes(_ hashes: [String: String]) throws {
        try db.run("DELETE FROM photo_hashes")
        for (name, sha) in hashes.sorted(by: { $0.key < $1.key }) where RoutineLook.isSha256(sha) {
            try db.run("INSERT INTO photo_hashes (name, sha256) VALUES (?, ?)", [.text(name), .text(sha)])
        }
    }

    /// True when a routine or a child's picture shows the photo file `name` or a completion showed
    /// it: the file must stay (a replaced photo stays while history names it; photos are named by
    /// content, so one file may be shown by several).
    public func photoInUse(_ name: String) throws -> Bool {
        try read {
            try db.queryFirst("""
                SELECT EXISTS (SELECT 1 FROM routines WHERE json_extract(icon, '$.backupAssetName') = ?1)
                    OR EXISTS (SELECT 1 FROM routine_looks WHERE json_extract(icon, '$.backupAssetName') = ?1)
                    OR EXISTS (SELECT 1 FROM children WHERE picture IS NOT NULL AND json_extract(picture, '$.backupAssetName') = ?1)
                """, [.text(name)]) { $0.bool(0) } ?? true
        }
    }

    /// Removes the looks no log names any more (after a child's history was replaced).
    func dropUnusedLooks() throws {
        try db.run("DELETE FROM routine_looks WHERE id NOT IN (SELECT look_id FROM daily_logs WHERE look_id IS NOT NULL)")
    }
}
