import Foundation
import SteppieCore

extension Store {
    /// How many rows each table of the contract holds (what a restore would replace).
    public struct RowCounts: Equatable, Sendable {
        public var children: Int
        public var routineSets: Int
        public var routines: Int
        public var dailyLogs: Int
        /// Weekly schedule slots (`set_schedules` rows) of every child.
        public var scheduleSlots: Int = 0
    }

    public func rowCounts() throws -> RowCounts {
        try read {
            try db.queryFirst("""
                SELECT (SELECT count(*) FROM children), (SELECT count(*) FROM routine_sets),
                       (SELECT count(*) FROM routines), (SELECT count(*) FROM daily_logs), (SELECT count(*) FROM set_schedules)
                """) { RowCounts(children: $0.int(0), routineSets: $0.int(1), routines: $0.int(2), dailyLogs: $0.int(3), scheduleSlots: $0.int(4)) }
                ?? RowCounts(children: 0, routineSets: 0, routines: 0, dailyLogs: 0)
        }
    }

    /// One daily-log row as a benchmark fixture writes it.
    public struct FixtureLog: Sendable {
        public var id: UUID, day: LocalDay, routineId: UUID, setId: UUID, completed: Bool, at: String
        public init(id: UUID, day: LocalDay, routineId: UUID, setId: UUID, completed: Bool, at: String) {
            self.id = id; self.day = day; self.routineId = routineId; self.setId = setId; self.completed = completed; self.at = at
        }
    }

    /// Bulk-loads benchmark fixture logs (never user data): no journal while loading, one
    /// transaction with one prepared statement, then back to WAL, `synchronous=FULL` and `ANALYZE`.
    /// `body` hands each row to `insert`.
    public func loadFixtureLogs(_ body: (_ insert: (FixtureLog) throws -> Void) throws -> Void) throws {
        do {
            try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -524288")
            try db.transaction {
                let sql = "INSERT INTO daily_logs (id, date, routine_id, routine_set_id, status, completed_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                try body { row in
                    try db.run(sql, [.text(row.id.lowercased), .text(row.day.description), .text(row.routineId.lowercased),
                                     .text(row.setId.lowercased), .text(row.completed ? "completed" : "undone"),
                                     row.completed ? .text(row.at) : .null, .text(row.at), .text(row.at)])
                }
            }
            try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; ANALYZE")
        } catch let e as SQLiteError { throw StoreError.sqlite(e) }
    }
}
