import Foundation
import SteppieCore

/// A record the tables could not take when a change arrived (`sync_conflicts`): it stays in the
/// registers, decided like every other, and is noted here for the guardian (docs/sync.md).
package struct SyncConflict: Equatable, Sendable {
    /// Why the tables refused it, in kinds a guardian can be told (SQLite's own words stay here).
    package enum Kind: String, Sendable {
        /// Another record already has this name, place or day (a unique rule of the tables).
        case duplicate
        /// The record names one that is not on this device (a parent not here).
        case missingParent
        /// Another rule of the tables.
        case other
        /// The hub renamed a child whose name another child had (`from` → `to`, docs/sync.md rule 8).
        case renamed
    }

    /// Milliseconds since 1970 when it was noted.
    package let at: Int64
    /// The entity (`SyncEntity`'s raw value: child, routineSet, routine, schedule, recording …).
    package let entity: String
    package let record: String
    package let kind: Kind
    /// For `renamed`: the name it came with and the one the hub gave it.
    package var from: String? = nil
    package var to: String? = nil
}

extension Store {
    /// The last `limit` conflicts, newest first.
    package func syncConflicts(limit: Int = 10) throws -> [SyncConflict] {
        try read {
            try db.query("SELECT at, entity, record, reason FROM sync_conflicts ORDER BY at DESC, id DESC LIMIT ?",
                         [.integer(Int64(max(0, limit)))]) { r in
                let reason = r.text(3)
                var conflict = SyncConflict(at: Int64(r.int(0)), entity: r.text(1), record: r.text(2), kind: Self.conflictKind(reason))
                if reason.hasPrefix("renamed: "), let arrow = reason.range(of: " → ") {
                    conflict = SyncConflict(at: conflict.at, entity: conflict.entity, record: conflict.record, kind: .renamed,
                                            from: String(reason[reason.index(reason.startIndex, offsetBy: 9)..<arrow.lowerBound]),
                                            to: String(reason[arrow.upperBound...]))
                }
                return conflict
            }
        }
    }

    static func conflictKind(_ reason: String) -> SyncConflict.Kind {
        if reason.contains("UNIQUE") { return .duplicate }
        if reason.contains("FOREIGN KEY") { return .missingParent }
        return .other
    }
}
