/// Everything one device (or the hub) holds of the synced data, as registers and events: the
/// reference model of the merge. The SQLite and PostgreSQL stores keep the same registers in
/// tables and must decide every change as this does (their tests compare with it).
package struct SyncReplica: Hashable, Sendable {
    package private(set) var registers: [RecordKey: [String: Versioned]] = [:]
    /// The child each record belongs to, fixed by its first change.
    package private(set) var owners: [RecordKey: String] = [:]
    package private(set) var events: [String: CompletionEvent] = [:]

    package init() {}

    package enum Outcome: Hashable, Sendable {
        /// The value was taken (it is now the field's value).
        case applied
        /// A later write already holds the field (or the same write was applied before).
        case superseded
        /// The change names another child than the record's own: never applied anywhere.
        case wrongChild
    }

    /// Applies one field change: last writer wins by hybrid timestamp. Applying the same change
    /// twice, or two changes in either order, leaves the same replica.
    @discardableResult
    package mutating func apply(_ change: FieldChange) -> Outcome {
        let key = change.key
        if let owner = owners[key], owner != change.child { return .wrongChild }
        owners[key] = change.child
        if !Versioned.wins(change.stamp, over: registers[key]?[change.field]) { return .superseded }
        registers[key, default: [:]][change.field] = Versioned(change.value, change.stamp)
        return .applied
    }

    /// Adds an event; one already held (by id) is kept as it is.
    @discardableResult
    package mutating func apply(_ event: CompletionEvent) -> Outcome {
        if events[event.id] != nil { return .superseded }
        events[event.id] = event
        return .applied
    }

    package func value(_ key: RecordKey, _ field: String) -> SyncValue? { registers[key]?[field]?.value }

    /// The first stamp a record was written with: its place among records made after each other.
    package func created(_ key: RecordKey) -> HybridTimestamp? { registers[key]?.values.map(\.stamp).min() }

    /// The records and events of some children only (what one device may hold).
    package func restricted(to children: Set<String>) -> SyncReplica {
        var copy = SyncReplica()
        for (key, owner) in owners where children.contains(owner) {
            copy.owners[key] = owner
            copy.registers[key] = registers[key]
        }
        for (id, event) in events where children.contains(event.child) { copy.events[id] = event }
        return copy
    }

    /// Every register and event as changes, oldest first: a fresh copy sent as ordinary changes.
    package func asChanges() -> (changes: [FieldChange], events: [CompletionEvent]) {
        var changes: [FieldChange] = []
        for (key, fields) in registers {
            guard let owner = owners[key] else { continue }
            for (field, versioned) in fields {
                changes.append(FieldChange(entity: key.entity, record: key.id, child: owner, field: field,
                                           value: versioned.value, stamp: versioned.stamp))
            }
        }
        return (changes.sorted { $0.stamp < $1.stamp }, events.values.sorted { $0.stamp < $1.stamp })
    }
}
