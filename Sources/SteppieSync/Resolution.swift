/// The rules that keep the data contract's invariants after any merge: every device applies the
/// same registers and events, then derives what the contract needs from them the same way.
package enum Resolution {
    /// A routine as the order rule sees it.
    package struct OrderedRoutine: Hashable, Sendable {
        package let id: String
        package let created: HybridTimestamp
        package let visible: Bool

        package init(id: String, created: HybridTimestamp, visible: Bool) {
            self.id = id
            self.created = created
            self.visible = visible
        }
    }

    /// A set's visible routines in order, each position used once: the ids in the set's last
    /// written `order` (the whole list is one register, so of two reorders the later wins
    /// whole), skipping ids that are not visible or repeated; then the visible routines that
    /// order does not name (added elsewhere since), by creation stamp.
    package static func visibleOrder(order: [String]?, routines: [OrderedRoutine]) -> [String] {
        let visible = Dictionary(routines.filter(\.visible).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var placed: [String] = []
        var seen: Set<String> = []
        for id in order ?? [] where visible[id] != nil && seen.insert(id).inserted {
            placed.append(id)
        }
        let rest = visible.values.filter { !seen.contains($0.id) }.sorted { ($0.created, $0.id) < ($1.created, $1.id) }
        return placed + rest.map(\.id)
    }

    /// A set as the active-set rule sees it.
    package struct CandidateSet: Hashable, Sendable {
        package let id: String
        package let created: HybridTimestamp
        package let deleted: Bool
        package let hasVisibleRoutine: Bool

        package init(id: String, created: HybridTimestamp, deleted: Bool, hasVisibleRoutine: Bool) {
            self.id = id
            self.created = created
            self.deleted = deleted
            self.hasVisibleRoutine = hasVisibleRoutine
        }
    }

    /// The child's one active set: the set the child's `activeSet` register names (two devices
    /// that both activated a set: the later activation wins) while it is not deleted and shows a
    /// routine; otherwise the earliest-made set that shows a routine (so a merge never leaves the
    /// child an empty screen where another set has something), then the named set if it still
    /// exists, then the earliest-made set not deleted. Nil only when the child has no set left.
    package static func activeSet(named: String?, sets: [CandidateSet]) -> String? {
        let alive = sets.filter { !$0.deleted }.sorted { ($0.created, $0.id) < ($1.created, $1.id) }
        let namedAlive = alive.first { $0.id == named }
        if let namedAlive, namedAlive.hasVisibleRoutine { return namedAlive.id }
        return (alive.first { $0.hasVisibleRoutine } ?? namedAlive ?? alive.first)?.id
    }
}
