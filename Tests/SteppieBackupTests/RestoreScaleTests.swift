import Foundation
import Testing
import SteppieCore
@testable import SteppieBackup
@testable import SteppieStore

/// A restore at scale loads the daily logs in bulk (docs/backup.md, "Restore at scale"): logs held
/// as records, decoded from their bytes, daily_logs' indexes and set trigger dropped and made again
/// around the load, CHECKs not evaluated for the bulk rows. None of it may show: the schema, the
/// rules and the refusals are what they were.
@Suite struct RestoreScaleTests {
    /// Every schema object as SQLite keeps it (without its pages), by name.
    static func schema(_ store: Store) throws -> [String] {
        try store.db.query("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name") {
            "\($0.text(0)) \($0.text(1)) on \($0.text(2)): \($0.optionalText(3) ?? "NULL")"
        }
    }

    /// A good backup's data.json with `count` logs: the backup's first routine, one log a day going
    /// back from 2026-03-01, every eleventh undone; `change` may spoil some.
    static func manyLogs(_ good: [UInt8], count: Int, change: (inout [[String: Any]]) throws -> Void = { _ in }) throws -> [UInt8] {
        try CorruptArchiveTests.edit(good) { o in
            let routines = try #require(o["routines"] as? [[String: Any]])
            let routine = try #require(routines.first)
            let routineId = try #require(routine["id"] as? String), setId = try #require(routine["routineSetId"] as? String)
            let last = try #require(LocalDay("2026-03-01"))
            var logs: [[String: Any]] = []
            logs.reserveCapacity(count)
            for n in 0..<count {
                let day = last.adding(days: -n)
                let at = "\(day)T07:10:00.\(String(format: "%03d", n % 1000))+09:00"
                let done = n % 11 != 0
                logs.append(["id": UUID().lowercased, "date": day.description, "routineId": routineId, "routineSetId": setId,
                             "status": done ? "completed" : "undone", "completedAt": done ? at : NSNull(), "createdAt": at,
                             "updatedAt": n % 3 == 0 ? NSNull() : at])
            }
            try change(&logs)
            o["dailyLogs"] = logs
        }
    }

    static func archive(_ data: [UInt8], at url: URL) throws -> URL {
        try makeZip(at: url, [TestEntry(name: "manifest.json", bytes: try manifest(for: data)), TestEntry(name: "data.json", bytes: data)])
        return url
    }

    @Test func theRestoredSchemaIsAFreshDatabasesAndItsRulesHoldAgain() throws {
        let source = try BackupFixture()
        let (_, good) = try CorruptArchiveTests.goodParts(source)
        let archive = try Self.archive(try Self.manyLogs(good, count: 3000), at: source.url("many.zip"))
        let target = try BackupFixture()
        try target.populate()
        let report = try Restorer(options: RestoreOptions(defaultChildName: "Child"))
            .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { _ in true })
        #expect(report.plan.counts.dailyLogs == 3000)
        #expect(try target.store.rowCounts().dailyLogs == 3000)

        // The indexes and triggers are the schema's own text, as in a database just migrated.
        let fresh = try BackupFixture()
        #expect(try Self.schema(target.store) == (try Self.schema(fresh.store)))
        // `integrity_check` evaluates every CHECK constraint over the rows loaded without them.
        #expect(try target.store.integrityProblems().isEmpty)

        // The set trigger is back and the CHECKs are enforced again for the next statement.
        let (routineId, setId) = try #require(try target.store.db.queryFirst("SELECT id, routine_set_id FROM routines") { ($0.text(0), $0.text(1)) })
        let otherSet = try #require(try target.store.db.queryFirst("SELECT id FROM routine_sets WHERE id <> ?", [.text(setId)]) { $0.text(0) })
        let insert = "INSERT INTO daily_logs (\(Store.logColumns)) VALUES (?, ?, ?, ?, 'undone', NULL, ?, ?)"
        let stamp = SQLValue.text("2030-01-01T07:00:00.000+09:00")
        #expect(throws: SQLiteError.self) {
            try target.store.db.run(insert, [.text(UUID().lowercased), .text("2030-01-01"), .text(routineId), .text(otherSet), stamp, stamp])
        }
        do {
            try target.store.db.run(insert, [.text(UUID().lowercased), .text("yesterday"), .text(routineId), .text(setId), stamp, stamp])
            Issue.record("a date the CHECK refuses went in")
        } catch let e as SQLiteError {
            #expect(e.message.contains("CHECK constraint failed"), "\(e.message)")
        }
        // The statement the bulk load used is compiled with the CHECKs again.
        try target.store.replaceChildData(childId: try #require(try target.store.children().first).id,
                                          with: ChildData(profile: FeedbackProfile(), sets: [], routines: [], logs: []), at: target.now)
        #expect(try target.store.integrityProblems().isEmpty)
    }

    /// A bad log near the end of a long history is found before anything is asked or changed, and
    /// named by its path (through the records' decoder, as through the whole tree).
    @Test(arguments: ["date", "duplicate", "otherSet", "noSet", "completedAt"])
    func aLateBadLogIsRefusedWithItsPathAndNothingChanged(_ fault: String) throws {
        let count = 20_000, n = count - 2
        let source = try BackupFixture()
        let (_, good) = try CorruptArchiveTests.goodParts(source)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(good)) as? [String: Any])
        let routines = try #require(o["routines"] as? [[String: Any]]), sets = try #require(o["routineSets"] as? [[String: Any]])
        let routineId = try #require(routines.first?["id"] as? String), setId = try #require(routines.first?["routineSetId"] as? String)
        let otherSet = try #require(sets.compactMap { $0["id"] as? String }.first { $0 != setId })
        let missing = UUID().lowercased
        var badId = ""
        let data = try Self.manyLogs(good, count: count) { logs in
            badId = logs[n]["id"] as? String ?? ""
            switch fault {
            case "date": logs[n]["date"] = "2026-02-30"
            case "duplicate": logs[n]["date"] = logs[5]["date"]
            case "otherSet": logs[n]["routineSetId"] = otherSet
            case "noSet": logs[n]["routineSetId"] = missing
            default: logs[n]["status"] = "completed"; logs[n]["completedAt"] = NSNull()
            }
        }
        let expected: BackupError
        switch fault {
        case "date": expected = .dataInvalid(path: "dailyLogs[\(n)].date", reason: "expected a date YYYY-MM-DD")
        case "duplicate":
            expected = .duplicateLog(date: try #require(LocalDay("2026-03-01")).adding(days: -5).description, routineId: routineId)
        case "otherSet": expected = .logSetMismatch(logId: badId)
        case "noSet": expected = .danglingReference(entity: "dailyLog", id: badId, field: "routineSetId", target: missing)
        default: expected = .contract(entity: "dailyLog", id: badId,
                                      violation: ContractViolation(field: "completedAt", value: "null", allowed: "a timestamp when status is completed"))
        }
        // The decoder alone agrees with the whole-tree path, error for error.
        StreamingDecodeTests.expectSame(data)

        let archive = try Self.archive(data, at: source.url("late.zip"))
        let target = try BackupFixture()
        try target.populate()
        let before = (try target.store.dump(), try Self.schema(target.store), try target.assetFiles())
        var asked = false
        do {
            _ = try Restorer(options: RestoreOptions(defaultChildName: "Child"))
                .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now,
                         confirm: { _ in asked = true; return true })
            Issue.record("a backup with a bad log was restored")
        } catch let error as BackupError {
            #expect(error == expected)
        }
        #expect(!asked)
        #expect(try target.store.dump() == before.0)
        #expect(try Self.schema(target.store) == before.1)
        #expect(try target.assetFiles() == before.2)
    }

    /// An injected failure after the bulk load (and after the photo swap) rolls back the rows, the
    /// dropped indexes and trigger, and the photos.
    @Test(arguments: [RestoreStep.database, .assets])
    func aFailureAfterTheBulkLoadPutsRowsAndSchemaBack(_ step: RestoreStep) throws {
        let source = try BackupFixture()
        let (_, good) = try CorruptArchiveTests.goodParts(source)
        let archive = try Self.archive(try Self.manyLogs(good, count: 2000), at: source.url("many.zip"))
        let target = try BackupFixture()
        try target.populate()
        let before = (try target.store.dump(), try Self.schema(target.store), try target.assetFiles())
        #expect(throws: BackupError.restoreFailed(step: step, reason: "injected failure after \(step.rawValue)")) {
            try Restorer(options: RestoreOptions(defaultChildName: "Child", failAt: step))
                .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { _ in true })
        }
        #expect(try target.store.dump() == before.0)
        #expect(try Self.schema(target.store) == before.1)
        #expect(try target.assetFiles() == before.2)
        #expect(try target.store.integrityProblems().isEmpty)
    }
}
