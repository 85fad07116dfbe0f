import Foundation
import Testing
import SteppieCore
@testable import SteppieStore

/// `replaceAll(with:logs:)` loads the logs in bulk: daily_logs' indexes and set trigger are dropped
/// and made again, the CHECKs are not evaluated for the bulk rows. The rules must still hold: a row
/// the trigger or the contract refuses is refused, and a refusal changes nothing.
@Suite struct BulkLogLoadTests {
    static func schema(_ store: Store) throws -> [String] {
        try store.db.query("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name") {
            "\($0.text(0)) \($0.text(1)) \($0.text(2)) \($0.optionalText(3) ?? "NULL")"
        }
    }

    /// A store with two children's history, and its snapshot with one more week of logs.
    static func setUp() throws -> (StoreFixture, Snapshot, DailyLogRecords) {
        let f = try StoreFixture()
        for name in ["Mina", "Joon"] {
            let child = try f.childWithMorning(name)
            for d in 0..<5 { _ = try f.store.complete(childId: child.id, day: f.today.adding(days: -d), at: f.now) }
        }
        var snapshot = try f.store.snapshot()
        var logs = DailyLogRecords(snapshot.dailyLogs)
        snapshot.dailyLogs = []
        let routine = try #require(snapshot.routines.first)
        for d in 10..<20 {
            logs.append(DailyLog(id: UUID(), date: f.today.adding(days: -d), routineId: routine.id, routineSetId: routine.routineSetId,
                                 status: d % 2 == 0 ? .completed : .undone, completedAt: d % 2 == 0 ? f.now : nil, createdAt: f.now))
        }
        return (f, snapshot, logs)
    }

    @Test func aBulkLoadGivesTheRowsTheSchemaAndTheRulesBack() throws {
        let (f, snapshot, logs) = try Self.setUp()
        let schema = try Self.schema(f.store)
        var loaded = logs
        try f.store.replaceAll(with: snapshot, logs: &loaded)
        #expect(loaded.isEmpty, "the store lets go of the logs once their rows are in")
        var expected = snapshot
        expected.dailyLogs = logs.logs
        #expect(try f.store.snapshot() == expected)
        #expect(try Self.schema(f.store) == schema)
        #expect(try f.store.integrityProblems().isEmpty)
        // The same through the snapshot's own logs.
        try f.store.replaceAll(with: expected)
        #expect(try f.store.snapshot() == expected)
        #expect(try Self.schema(f.store) == schema)
    }

    @Test func aLogOfAnotherSetIsRefusedLikeTheTriggerRefusesItAndNothingChanges() throws {
        let (f, snapshot, logs) = try Self.setUp()
        let before = (try f.store.dump(), try Self.schema(f.store))
        let routine = try #require(snapshot.routines.first)
        let otherSet = try #require(snapshot.routineSets.first { $0.id != routine.routineSetId })
        var bad = logs
        bad.append(DailyLog(id: UUID(), date: f.today.adding(days: -100), routineId: routine.id, routineSetId: otherSet.id,
                            status: .undone, completedAt: nil, createdAt: f.now))
        let refused = bad[bad.count - 1]
        do {
            try f.store.replaceAll(with: snapshot, logs: &bad)
            Issue.record("a log of another set went in")
        } catch StoreError.sqlite(let e) {
            #expect(e.message == "daily_logs.routine_set_id must be the routine's set")
        }
        #expect(try f.store.dump() == before.0)
        #expect(try Self.schema(f.store) == before.1)
        // The trigger itself refuses the same row outside a bulk load.
        #expect(throws: StoreError.self) {
            try f.store.replaceChildData(childId: otherSet.childId, with: ChildData(profile: FeedbackProfile(), sets: [], routines: [],
                                                                                   logs: [refused]), at: f.now)
        }
    }

    @Test func aLogAgainstTheContractIsRefusedAndNothingChanges() throws {
        let (f, snapshot, logs) = try Self.setUp()
        let before = (try f.store.dump(), try Self.schema(f.store))
        let routine = try #require(snapshot.routines.first)
        var bad = logs
        bad.append(DailyLog(id: UUID(), date: f.today.adding(days: -100), routineId: routine.id, routineSetId: routine.routineSetId,
                            status: .completed, completedAt: nil, createdAt: f.now))
        #expect(throws: StoreError.invalid(ContractViolation(field: "completedAt", value: "null", allowed: "a timestamp when status is completed"))) {
            try f.store.replaceAll(with: snapshot, logs: &bad)
        }
        // A duplicate (date, routine) is still refused by the table's UNIQUE constraint.
        var twice = logs
        twice.append(logs[logs.count - 1])
        #expect(throws: StoreError.self) { try f.store.replaceAll(with: snapshot, logs: &twice) }
        #expect(try f.store.dump() == before.0)
        #expect(try Self.schema(f.store) == before.1)
        #expect(try f.store.integrityProblems().isEmpty)
    }
}
