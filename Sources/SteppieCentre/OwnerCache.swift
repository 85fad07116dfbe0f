import SteppieSync
import Synchronization

/// The owners (the child each record belongs to) that this hub process has read from the
/// `registers` table, so a push asks PostgreSQL only for the records this process has not seen
/// yet (docs/centre.md, "What a hub process keeps").
///
/// A record's owner is written with its first register and never changes: `Statements.registers`
/// updates a register's value and stamp, never its child, and nothing deletes a register. What was
/// read once is therefore true for every hub process on the database, and no other process needs
/// to be told of it. Only owners read from committed rows go in: a record a push claims is learned
/// when a later push's read finds it, so a push that was rolled back never leaves an owner behind.
///
/// Bounded: when `capacity` owners are known, the next ones replace them all (a process then reads
/// again what it needs; a centre's records are some tens a child).
package final class OwnerCache: Sendable {
    package let capacity: Int
    private let state = Mutex(State())

    private struct State {
        var known: [RecordKey: String] = [:]
        var found = 0
        var read = 0
    }

    package init(capacity: Int = 100_000) {
        precondition(capacity > 0, "an owner cache holds at least one owner")
        self.capacity = capacity
    }

    /// The owners known of `keys`, and the keys to read from the database.
    package func split(_ keys: Set<RecordKey>) -> (known: [RecordKey: String], missing: Set<RecordKey>) {
        state.withLock { state in
            var known: [RecordKey: String] = [:]
            var missing: Set<RecordKey> = []
            for key in keys {
                if let owner = state.known[key] { known[key] = owner } else { missing.insert(key) }
            }
            state.found += known.count
            state.read += missing.count
            return (known, missing)
        }
    }

    /// Owners read from committed rows.
    package func remember(_ owners: [RecordKey: String]) {
        guard !owners.isEmpty else { return }
        state.withLock { state in
            if state.known.count + owners.count > capacity { state.known.removeAll(keepingCapacity: true) }
            for (key, owner) in owners.prefix(capacity) { state.known[key] = owner }
        }
    }

    /// How many owners are known now.
    package var count: Int { state.withLock { $0.known.count } }

    /// Keys answered from what was known, and keys left to the database, since the start.
    package var lookups: (known: Int, read: Int) { state.withLock { ($0.found, $0.read) } }
}
