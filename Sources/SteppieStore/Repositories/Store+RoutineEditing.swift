import Foundation
import SteppieCore

/// Guardian edits of one routine that need more than one statement: each runs in one write
/// transaction, so the data contract (unique visible order) holds after every command.
extension Store {
    /// Adds a routine and, when `position` (zero-based) is given, moves it there, shifting the others.
    @discardableResult
    public func addRoutine(setId: UUID, title: LocalizedText, icon: IconRef = .fallback, colorToken: String? = nil,
                           position: Int?, scheduledTime: LocalTime? = nil, at now: Date) throws -> Routine {
        try write {
            let added = try addRoutine(setId: setId, title: title, icon: icon, colorToken: colorToken,
                                       scheduledTime: scheduledTime, at: now)
            guard let position else { return added }
            try moveRoutine(id: added.id, to: position, at: now)
            return try routine(id: added.id)
        }
    }

    /// Moves a visible routine to `position` (zero-based) among its set's visible routines.
    public func moveRoutine(id: UUID, to position: Int, at now: Date) throws {
        try write {
            let moving = try routine(id: id)
            var visible = try routines(setId: moving.routineSetId).filter(\.isVisible).map(\.id)
            guard let from = visible.firstIndex(of: id) else {
                throw StoreError.invalid(ContractViolation(field: "routine", value: id.lowercased,
                                                           allowed: "an active routine that is not deleted",
                                                           allowedKey: "contract.allowed.activeRoutine"))
            }
            guard (0..<visible.count).contains(position) else {
                throw StoreError.invalid(ContractViolation(field: "position", value: String(position + 1),
                                                           allowed: "1…\(visible.count)"))
            }
            visible.remove(at: from)
            visible.insert(id, at: position)
            try reorder(setId: moving.routineSetId, ids: visible, at: now)
        }
    }

    /// Soft-deletes a routine: hidden from child mode, history and statistics kept.
    @discardableResult
    public func deleteRoutine(id: UUID, at now: Date) throws -> Routine {
        try write {
            var r = try routine(id: id)
            try keepActiveSetNonEmpty(without: r)
            if r.deletedAt == nil { r.deletedAt = now }
            try updateRoutine(r, at: now)
            return r
        }
    }

    /// Undoes a soft delete; the routine goes back to its old place, or to the end when another
    /// visible routine has taken that place meanwhile. The time it was deleted is recorded
    /// (`routine_absences`), so the whole days in between do not count as missed.
    @discardableResult
    public func restoreRoutine(id: UUID, at now: Date) throws -> Routine {
        try write {
            var r = try routine(id: id)
            // The days it was away are not missed days (docs/guardian.md).
            if let deletedAt = r.deletedAt { try recordAbsence(routineId: id, deletedAt: deletedAt, restoredAt: now) }
            r.deletedAt = nil
            r.order = try freeOrder(for: r)
            try updateRoutine(r, at: now)
            return r
        }
    }

    /// Turns a routine on or off in child mode; turning it on puts it at the end when its old place is taken.
    @discardableResult
    public func setRoutineActive(id: UUID, _ active: Bool, at now: Date) throws -> Routine {
        try write {
            var r = try routine(id: id)
            if !active { try keepActiveSetNonEmpty(without: r) }
            r.isActive = active
            if active { r.order = try freeOrder(for: r) }
            try updateRoutine(r, at: now)
            return r
        }
    }

    /// Refuses to hide `r` when it is the last routine the child sees in their active set: an active
    /// set with nothing in it is a screen with nothing to do (and the set could not be activated so).
    private func keepActiveSetNonEmpty(without r: Routine) throws {
        guard r.isVisible, try set(id: r.routineSetId).isActive,
              try !routines(setId: r.routineSetId).contains(where: { $0.isVisible && $0.id != r.id }) else { return }
        throw GuardianEditError.lastRoutineOfActiveSet(routineId: r.id, set: try set(id: r.routineSetId).name)
    }

    /// `r.order` when no other visible routine of its set uses it, else one past the last visible order.
    private func freeOrder(for r: Routine) throws -> Int {
        let others = try routines(setId: r.routineSetId).filter { $0.isVisible && $0.id != r.id }
        guard others.contains(where: { $0.order == r.order }) else { return r.order }
        return (others.map(\.order).max() ?? -1) + 1
    }
}
