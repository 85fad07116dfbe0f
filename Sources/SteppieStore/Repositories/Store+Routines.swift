import Foundation
import SteppieCore

extension Store {
    static let setColumns = "id, child_id, name, is_active, start_time, created_at, updated_at, deleted_at"
    static let routineColumns = """
        id, routine_set_id, title_key, title, icon, color_token, sort_order, scheduled_time, is_active,
        created_at, updated_at, deleted_at
        """

    // MARK: Sets

    /// Creates a routine set for a child, filled from `template` when given. The first set of a
    /// child, or one created with `activate`, becomes the child's one active set.
    @discardableResult
    public func createSet(childId: UUID, name: LocalizedText? = nil, template: Template? = nil,
                          activate: Bool = false, startTime: LocalTime? = nil, at now: Date) throws -> RoutineSet {
        guard let setName = name ?? template?.name else {
            throw StoreError.invalid(ContractViolation(field: "routineSet.name", value: "(none)", allowed: "a name or a template",
                                                                  allowedKey: "contract.allowed.setNameOrTemplate", valueKey: "contract.value.none"))
        }
        try validate { try Validator.title(setName, field: "routineSet.name") }
        return try write {
            _ = try child(id: childId)
            let hasActive = try db.queryFirst("SELECT 1 FROM routine_sets WHERE child_id = ? AND is_active = 1",
                                              [.text(childId.lowercased)]) { _ in true } ?? false
            // A new set without routines cannot be activated on purpose; a child's first set
            // still becomes the active one (one active set per child once it has sets).
            if activate, hasActive, (template?.items ?? []).isEmpty {
                throw GuardianEditError.emptySetCannotBeActivated(setId: nil, name: setName)
            }
            let makeActive = activate || !hasActive
            if makeActive {
                try db.run("UPDATE routine_sets SET is_active = 0, updated_at = ? WHERE child_id = ? AND is_active = 1",
                           [stamp(now), .text(childId.lowercased)])
            }
            let set = RoutineSet(id: ids.next(), childId: childId, name: setName, isActive: makeActive, startTime: startTime, createdAt: now)
            try db.run("INSERT INTO routine_sets (\(Store.setColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
                       [.text(set.id.lowercased), .text(childId.lowercased), .text(try JSONColumn.encode(setName)),
                        .bool(makeActive), .optionalText(startTime?.description), stamp(now), stamp(now)])
            for (index, item) in (template?.items ?? []).enumerated() {
                let routine = Routine(id: ids.next(), routineSetId: set.id, titleKey: item.titleKey, title: item.title,
                                      icon: .builtin(name: item.icon), colorToken: CardColor.cycling(index).token,
                                      order: index, createdAt: now)
                try insert(routine)
            }
            return set
        }
    }

    /// A child's sets, oldest first; soft-deleted ones only when asked.
    public func sets(childId: UUID, includeDeleted: Bool = false) throws -> [RoutineSet] {
        try read {
            try db.query("SELECT \(Store.setColumns) FROM routine_sets WHERE child_id = ? \(includeDeleted ? "" : "AND deleted_at IS NULL") ORDER BY created_at, rowid",
                         [.text(childId.lowercased)], decodeSet)
        }
    }

    public func set(id: UUID) throws -> RoutineSet {
        let found = try read { try db.queryFirst("SELECT \(Store.setColumns) FROM routine_sets WHERE id = ?", [.text(id.lowercased)], decodeSet) }
        guard let found else { throw StoreError.setNotFound(id.lowercased) }
        return found
    }

    /// The child's active set, if any.
    public func activeSet(childId: UUID) throws -> RoutineSet? {
        try read {
            try db.queryFirst("SELECT \(Store.setColumns) FROM routine_sets WHERE child_id = ? AND is_active = 1", [.text(childId.lowercased)], decodeSet)
        }
    }

    /// Makes `setId` its child's one active set. Throws `GuardianEditError.emptySetCannotBeActivated`
    /// for a set without a visible routine (the child would see nothing to do).
    public func activateSet(_ setId: UUID, at now: Date) throws {
        try write {
            let target = try set(id: setId)
            guard target.deletedAt == nil else { throw StoreError.setNotFound(setId.lowercased) }
            let usable = try target.isActive || hasVisibleRoutines(setId: setId)
            guard usable else {
                throw GuardianEditError.emptySetCannotBeActivated(setId: setId, name: target.name)
            }
            try db.run("UPDATE routine_sets SET is_active = 0, updated_at = ? WHERE child_id = ? AND is_active = 1 AND id <> ?",
                       [stamp(now), .text(target.childId.lowercased), .text(setId.lowercased)])
            try db.run("UPDATE routine_sets SET is_active = 1, updated_at = ? WHERE id = ?", [stamp(now), .text(setId.lowercased)])
        }
    }

    // MARK: Routines

    /// Adds a routine at the end of its set (or at `order` when that place is free). Without a
    /// color it gets the contract's default card color, `color.card.sky`.
    @discardableResult
    public func addRoutine(setId: UUID, title: LocalizedText, icon: IconRef = .fallback, colorToken: String? = nil,
                           order: Int? = nil, scheduledTime: LocalTime? = nil, titleKey: String? = nil, at now: Date) throws -> Routine {
        try write {
            let set = try set(id: setId)
            guard set.deletedAt == nil else { throw StoreError.setNotFound(setId.lowercased) }
            let next = try db.queryFirst("SELECT COALESCE(MAX(sort_order) + 1, 0) FROM routines WHERE routine_set_id = ? AND is_active = 1 AND deleted_at IS NULL",
                                         [.text(setId.lowercased)]) { $0.int(0) } ?? 0
            let routine = Routine(id: ids.next(), routineSetId: setId, titleKey: titleKey, title: title, icon: icon,
                                  colorToken: colorToken ?? CardColor.sky.token, order: order ?? next,
                                  scheduledTime: scheduledTime, createdAt: now)
            try validate { try Validator.routines(ofSet: try routines(setId: setId) + [routine]) }
            try insert(routine)
            try touch(setId: setId, at: now)
            return routine
        }
    }

    /// Replaces a routine's editable fields, keeping the contract (unique visible order, valid title,
    /// icon and color) across the whole set.
    public func updateRoutine(_ routine: Routine, at now: Date) throws {
        try write {
            var updated = routine
            updated.updatedAt = now
            let siblings = try routines(setId: routine.routineSetId).filter { $0.id != routine.id }
            try validate { try Validator.routines(ofSet: siblings + [updated]) }
            try db.run("""
                UPDATE routines SET title_key = ?, title = ?, icon = ?, color_token = ?, sort_order = ?, scheduled_time = ?,
                    is_active = ?, updated_at = ?, deleted_at = ? WHERE id = ?
                """, [.optionalText(updated.titleKey), .text(try JSONColumn.encode(updated.title)), .text(try JSONColumn.encode(updated.icon)),
                      .text(updated.colorToken), .int(updated.order), .optionalText(updated.scheduledTime?.description),
                      .bool(updated.isActive), stamp(now), optionalStamp(updated.deletedAt), .text(updated.id.lowercased)])
            if db.changes == 0 { throw StoreError.routineNotFound(routine.id.lowercased) }
            try touch(setId: routine.routineSetId, at: now)
        }
    }

    /// Puts the set's visible routines in the given order (every visible id exactly once).
    public func reorder(setId: UUID, ids newOrder: [UUID], at now: Date) throws {
        try write {
            let visible = try routines(setId: setId).filter(\.isVisible)
            guard Set(visible.map(\.id)) == Set(newOrder), newOrder.count == visible.count else {
                throw StoreError.invalid(ContractViolation(field: "order", value: newOrder.map(\.lowercased).joined(separator: ","),
                                                           allowed: "every active routine of the set exactly once",
                                                           allowedKey: "contract.allowed.everyRoutineOnce"))
            }
            // Move out of the way first: the unique index on visible orders holds at every statement.
            try db.run("UPDATE routines SET sort_order = sort_order + 100000 WHERE routine_set_id = ? AND is_active = 1 AND deleted_at IS NULL",
                       [.text(setId.lowercased)])
            for (index, id) in newOrder.enumerated() {
                try db.run("UPDATE routines SET sort_order = ?, updated_at = ? WHERE id = ?", [.int(index), stamp(now), .text(id.lowercased)])
            }
            try touch(setId: setId, at: now)
        }
    }

    /// A set's routines by order, soft-deleted ones only when asked.
    public func routines(setId: UUID, includeDeleted: Bool = false) throws -> [Routine] {
        try read {
            try db.query("SELECT \(Store.routineColumns) FROM routines WHERE routine_set_id = ? \(includeDeleted ? "" : "AND deleted_at IS NULL") ORDER BY sort_order, created_at",
                         [.text(setId.lowercased)], decodeRoutine)
        }
    }

    public func routine(id: UUID) throws -> Routine {
        let found = try read { try db.queryFirst("SELECT \(Store.routineColumns) FROM routines WHERE id = ?", [.text(id.lowercased)], decodeRoutine) }
        guard let found else { throw StoreError.routineNotFound(id.lowercased) }
        return found
    }

    func insert(_ r: Routine) throws {
        try validate { try Validator.routine(r) }
        try db.run("INSERT INTO routines (\(Store.routineColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   [.text(r.id.lowercased), .text(r.routineSetId.lowercased), .optionalText(r.titleKey),
                    .text(try JSONColumn.encode(r.title)), .text(try JSONColumn.encode(r.icon)), .text(r.colorToken),
                    .int(r.order), .optionalText(r.scheduledTime?.description), .bool(r.isActive),
                    stamp(r.createdAt), stamp(r.updatedAt), optionalStamp(r.deletedAt)])
    }

    private func touch(setId: UUID, at now: Date) throws {
        try db.run("UPDATE routine_sets SET updated_at = ? WHERE id = ?", [stamp(now), .text(setId.lowercased)])
    }

    func decodeSet(_ r: Row) throws -> RoutineSet {
        try decodeSet(r, offset: 0)
    }

    func decodeSet(_ r: Row, offset o: Int32) throws -> RoutineSet {
        let id = r.text(o)
        guard let uuid = UUID(uuidString: id), let child = UUID(uuidString: r.text(o + 1)) else {
            throw StoreError.corruptRow(table: "routine_sets", id: id, reason: "bad id")
        }
        return RoutineSet(id: uuid, childId: child, name: try JSONColumn.decode(LocalizedText.self, r.text(o + 2), table: "routine_sets", id: id),
                          isActive: r.bool(o + 3), startTime: r.optionalText(o + 4).flatMap(LocalTime.init),
                          createdAt: Timestamp.parse(r.text(o + 5)) ?? .distantPast, updatedAt: Timestamp.parse(r.text(o + 6)),
                          deletedAt: r.optionalText(o + 7).flatMap(Timestamp.parse))
    }

    func decodeRoutine(_ r: Row) throws -> Routine {
        try decodeRoutine(r, offset: 0)
    }

    func decodeRoutine(_ r: Row, offset o: Int32) throws -> Routine {
        let id = r.text(o)
        guard let uuid = UUID(uuidString: id), let set = UUID(uuidString: r.text(o + 1)) else {
            throw StoreError.corruptRow(table: "routines", id: id, reason: "bad id")
        }
        return Routine(id: uuid, routineSetId: set, titleKey: r.optionalText(o + 2),
                       title: try JSONColumn.decode(LocalizedText.self, r.text(o + 3), table: "routines", id: id),
                       icon: try JSONColumn.decode(IconRef.self, r.text(o + 4), table: "routines", id: id),
                       colorToken: r.text(o + 5), order: r.int(o + 6), scheduledTime: r.optionalText(o + 7).flatMap(LocalTime.init),
                       isActive: r.bool(o + 8), createdAt: Timestamp.parse(r.text(o + 9)) ?? .distantPast,
                       updatedAt: Timestamp.parse(r.text(o + 10)), deletedAt: r.optionalText(o + 11).flatMap(Timestamp.parse))
    }
}

extension Store {
    /// Sets (or clears) the daily start time of a set; before it, child mode waits and says when it starts.
    public func setStartTime(_ setId: UUID, _ time: LocalTime?, at now: Date) throws {
        try write {
            let set = try set(id: setId)
            guard set.deletedAt == nil else { throw StoreError.setNotFound(setId.lowercased) }
            try db.run("UPDATE routine_sets SET start_time = ?, updated_at = ? WHERE id = ?",
                       [.optionalText(time?.description), stamp(now), .text(setId.lowercased)])
        }
    }
}
