import Foundation
import SteppieCore

/// Guardian edits of whole sets, and the lists a guardian needs to undo a deletion. Each write
/// runs in one transaction; a refusal leaves the database unchanged.
extension Store {
    /// Renames a set: `name` replaces the set's name in the locales it gives; an empty value removes
    /// that locale (as `routine edit` does with titles). The result must still be a valid title
    /// (`Validator.title`, field `routineSet.name`). Deleted sets are `StoreError.setNotFound`.
    @discardableResult
    public func renameSet(id: UUID, to name: [String: String], at now: Date) throws -> RoutineSet {
        try write {
            var target = try set(id: id)
            guard target.deletedAt == nil else { throw StoreError.setNotFound(id.lowercased) }
            var values = target.name.values
            for (tag, value) in name { values[tag] = value.isEmpty ? nil : value }
            let renamed = LocalizedText(values)
            try validate { try Validator.title(renamed, field: "routineSet.name") }
            try db.run("UPDATE routine_sets SET name = ?, updated_at = ? WHERE id = ?",
                       [.text(try JSONColumn.encode(renamed)), stamp(now), .text(id.lowercased)])
            target.name = renamed
            target.updatedAt = now
            return target
        }
    }

    /// Soft-deletes a set that is not its child's active set (`GuardianEditError.activeSetCannotBeDeleted`).
    /// Its routines and their history stay (history shows what the child saw); the weekly schedule
    /// slots that name it are removed, since a schedule may only name usable sets. Deleting a
    /// deleted set is `StoreError.setNotFound`.
    @discardableResult
    public func deleteSet(id: UUID, at now: Date) throws -> RoutineSet {
        try write {
            var target = try set(id: id)
            guard target.deletedAt == nil else { throw StoreError.setNotFound(id.lowercased) }
            if target.isActive { throw GuardianEditError.activeSetCannotBeDeleted(setId: id, name: target.name) }
            try db.run("DELETE FROM set_schedules WHERE routine_set_id = ?", [.text(id.lowercased)])
            try db.run("UPDATE routine_sets SET deleted_at = ?, updated_at = ? WHERE id = ?",
                       [stamp(now), stamp(now), .text(id.lowercased)])
            target.deletedAt = now
            target.updatedAt = now
            return target
        }
    }

    /// Whether a set has at least one visible routine (active, not deleted).
    public func hasVisibleRoutines(setId: UUID) throws -> Bool {
        try read {
            try db.queryFirst("SELECT 1 FROM routines WHERE routine_set_id = ? AND is_active = 1 AND deleted_at IS NULL LIMIT 1",
                              [.text(setId.lowercased)]) { _ in true } ?? false
        }
    }

    /// The child's soft-deleted routines (of every set, deleted sets included), most recently
    /// deleted first, each with its set: what `routine restore ROUTINE-ID` can bring back.
    public func deletedRoutines(childId: UUID) throws -> [(routine: Routine, set: RoutineSet)] {
        try read {
            _ = try child(id: childId)
            return try db.query("""
                SELECT \(Store.routineColumnsOfR), \(Store.qualified(Store.setColumns, "s")) FROM routine_sets s
                JOIN routines r ON r.routine_set_id = s.id
                WHERE s.child_id = ? AND r.deleted_at IS NOT NULL
                ORDER BY r.deleted_at DESC, r.rowid
                """, [.text(childId.lowercased)]) { row in
                (try decodeRoutine(row, offset: 0), try decodeSet(row, offset: 12))
            }
        }
    }
}
