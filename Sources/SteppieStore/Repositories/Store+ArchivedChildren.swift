import Foundation
import SteppieCore

/// Archived children: listed, brought back, and their history read (an archived child's sets,
/// routines and logs stay; archiving only hides the child).
extension Store {
    /// The archived children, most recently archived first.
    public func archivedChildren() throws -> [Child] {
        try children(includeArchived: true).filter { $0.archivedAt != nil }
            .sorted { ($0.archivedAt ?? .distantPast) > ($1.archivedAt ?? .distantPast) }
    }

    /// Brings an archived child back into lists, `--child` and child mode, with their sets and
    /// history as they were. Refused when the child is not archived
    /// (`GuardianEditError.childNotArchived`) or another child now has a name that folds alike
    /// (`StoreError.childNameTaken`: rename one of them first).
    @discardableResult
    public func unarchiveChild(id: UUID, at now: Date) throws -> Child {
        try write {
            var found = try child(id: id)
            guard found.archivedAt != nil else { throw GuardianEditError.childNotArchived(name: found.displayName) }
            let wanted = Validator.foldedName(found.displayName)
            if try children().contains(where: { Validator.foldedName($0.displayName) == wanted }) {
                throw StoreError.childNameTaken(found.displayName)
            }
            try db.run("UPDATE children SET archived_at = NULL, updated_at = ? WHERE id = ? AND archived_at IS NOT NULL",
                       [stamp(now), .text(id.lowercased)])
            found.archivedAt = nil
            found.updatedAt = now
            return found
        }
    }

    /// The child `selector` names among the archived children only (by name, compared as
    /// `resolveChild` does, or by id). Several archived children whose names fold alike are
    /// `StoreError.childNameAmbiguous`, listing each with its id; `--child ID` still works.
    public func resolveArchivedChild(_ selector: String) throws -> Child {
        let archived = try archivedChildren()
        if let hit = archived.first(where: { $0.id.lowercased == selector.lowercased() }) { return hit }
        let wanted = Validator.foldedName(selector)
        let hits = wanted.isEmpty ? [] : archived.filter { Validator.foldedName($0.displayName) == wanted }
        if hits.count > 1 {
            throw StoreError.childNameAmbiguous(name: selector, children: hits.map { "\($0.displayName) (\($0.id.lowercased))" })
        }
        guard let hit = hits.first else { throw StoreError.childNotFound(selector) }
        return hit
    }

    /// The child a reading command means (history, statistics): `resolveChild`'s answer, or, when
    /// no active child has that name or id, an archived child who has.
    public func resolveChildIncludingArchived(_ selector: String?) throws -> Child {
        do {
            return try resolveChild(selector)
        } catch StoreError.childNotFound(let name) {
            guard let selector, !selector.isEmpty else { throw StoreError.childNotFound(name) }
            return try resolveArchivedChild(selector)
        }
    }
}
