import Foundation
import SteppieTestSupport
import SteppieCore
import SteppieSync
import Testing
@testable import SteppieStore

/// A fresh copy's days are folded once, by its last page (docs/sync.md "On SQLite"): the tables
/// must end exactly as when each day is folded from all its events by an ordinary apply.
@Suite struct SyncCopyFoldTests {
    @Test func aCopyFoldedAtItsEndLeavesTheTablesAPageByPageApplyLeaves() throws {
        var rng = SeededRandom(seed: 27)
        let rig = try SyncRig()
        try rig.becomeHub()
        let home = try StoreFixture(), school = try StoreFixture()
        let mina = try home.childWithMorning("Mina")
        let joon = try home.childWithMorning("Joon")
        try home.store.createSet(childId: joon.id, template: .bedtime, at: home.now)
        let children = [mina.id, joon.id]
        try rig.join(home)
        try rig.sync(0)
        try rig.join(school, children: children.map(\.lowercased))
        try rig.sync(1)
        // A week of presses, undos, corrections (of yesterday) and edits (renames: days with
        // other looks) on both devices, synced now and then.
        for _ in 0..<500 {
            rig.physical += Int64.random(in: 60_000...1_800_000, using: &rng)
            let d = Int.random(in: 0..<2, using: &rng)
            let f = rig.devices[d]
            f.now = Date(timeIntervalSince1970: Double(rig.physical) / 1000)
            if Int.random(in: 0..<6, using: &rng) == 0 {
                try rig.sync(d)
                continue
            }
            do {
                _ = try SyncStoreRandomTests.randomOperation(f, child: children.randomElement(using: &rng) ?? mina.id, rng: &rng)
            } catch is StoreError {
            } catch is GuardianEditError {}
        }
        // An undo, inside its window, the next day.
        rig.tick(seconds: 86_400)
        home.now = Date(timeIntervalSince1970: Double(rig.physical) / 1000)
        _ = try home.store.complete(childId: mina.id, day: home.today, at: home.now)
        _ = try home.store.undo(childId: mina.id, day: home.today, at: home.now.addingTimeInterval(5), windowSeconds: 900)
        try rig.syncAll()
        let kinds = Set(try SyncRig.state(rig.hub.store).filter { $0[0] == "e" }.map { $0[6] })
        #expect(kinds == ["press", "undo", "correctDone", "correctUndone"])

        // One new device takes the copy in pages of 9 (its days folded by the last); another
        // takes it as one feed page, so each day is folded from all its events as an apply folds
        // a touched day. (Folding page by page would not do as the reference: a day whose events
        // straddle two pages keeps a correction's `previous` and a look from the first page.)
        rig.pullLimit = 9
        let folded = try StoreFixture(), paged = try StoreFixture()
        try rig.join(folded, children: children.map(\.lowercased))
        try rig.sync(2)
        rig.pullLimit = SyncProtocol.maxBatchEntries
        try rig.join(paged, children: children.map(\.lowercased))
        try rig.sync(3, copyAsFeed: true)
        #expect(try SyncRig.state(rig.hub.store).count < SyncProtocol.maxBatchEntries, "the reference is one page")

        let expected = try Self.tables(paged)
        #expect(expected["daily_logs"]?.contains { $0.contains("undone") } == true)
        #expect((expected["log_corrections"]?.count ?? 0) > 0)
        #expect((expected["routine_looks"]?.count ?? 0) > 1)
        let got = try Self.tables(folded)
        for table in expected.keys.sorted() {
            let a = got[table] ?? [], b = expected[table] ?? []
            #expect(a == b, "\(table): \(Set(a).symmetricDifference(b).sorted().prefix(4))")
        }
        #expect(try SyncRig.state(folded.store) == SyncRig.state(rig.hub.store))
        try SyncStoreRandomTests.expectTablesFollowRegisters(folded, state: try SyncRig.state(folded.store), children: children)

        // A third new device takes the same copy as one file (as the household hub gives it).
        let filed = try StoreFixture()
        try rig.join(filed, children: children.map(\.lowercased))
        try rig.sync(4, copyAsFile: true)
        #expect(rig.lastCopyFile != nil)
        let fromFile = try Self.tables(filed)
        for table in expected.keys.sorted() {
            let a = fromFile[table] ?? [], b = expected[table] ?? []
            #expect(a == b, "\(table) from a file: \(Set(a).symmetricDifference(b).sorted().prefix(4))")
        }
        #expect(try SyncRig.state(filed.store) == SyncRig.state(rig.hub.store))
        #expect(try filed.store.syncState()?.copyAfter == nil)
        #expect(try filed.store.integrityProblems().isEmpty)
    }

    /// The fold's fallback: when one day breaks a constraint (here a trigger on the device refuses
    /// one routine's day), the whole one-statement pass is rolled back and the days are written
    /// again routine by routine, the failing routine's day by day; that day alone is missing and
    /// noted once in `sync_conflicts`, and everything else ends as a page-by-page apply leaves it.
    @Test func aDayTheDeviceRefusesIsNotedAndTheRestOfTheFoldStands() throws {
        var rng = SeededRandom(seed: 48)
        let rig = try SyncRig()
        try rig.becomeHub()
        let home = try StoreFixture()
        let mina = try home.childWithMorning("Mina")
        let joon = try home.childWithMorning("Joon")
        let children = [mina.id, joon.id]
        try rig.join(home)
        try rig.sync(0)
        for _ in 0..<150 {
            rig.physical += Int64.random(in: 600_000...3_600_000, using: &rng)
            home.now = Date(timeIntervalSince1970: Double(rig.physical) / 1000)
            do {
                _ = try SyncStoreRandomTests.randomOperation(home, child: children.randomElement(using: &rng) ?? mina.id, rng: &rng)
            } catch is StoreError {
            } catch is GuardianEditError {}
        }
        try rig.sync(0)

        // The reference: the copy taken as one feed page (each day folded from all its events).
        let paged = try StoreFixture()
        try rig.join(paged, children: children.map(\.lowercased))
        try rig.sync(1, copyAsFeed: true)
        var expected = try Self.tables(paged)
        let logs = expected["daily_logs"] ?? []
        #expect(logs.count > 10)
        // The day refused: one with a log row, of the first child's routines.
        let refused = try #require(logs.first { $0.split(separator: "|").count > 2 }).split(separator: "|").map(String.init)
        let (date, routine) = (refused[0], refused[1])
        // A new device whose connection refuses that day's log row (a TEMP trigger is its own).
        func refusingTheDay() throws -> StoreFixture {
            let f = try StoreFixture()
            try f.store.db.execute("""
                CREATE TEMP TRIGGER refuse_one_day BEFORE INSERT ON main.daily_logs
                WHEN NEW.routine_id = '\(routine)' AND NEW.date = '\(date)'
                BEGIN SELECT RAISE(ABORT, 'the test refuses this day'); END
                """)
            return f
        }

        let folded = try refusingTheDay()
        try rig.join(folded, children: children.map(\.lowercased))
        rig.pullLimit = 9
        try rig.sync(2)

        let got = try Self.tables(folded)
        // That day's log row and its corrections are missing; nothing else is.
        expected["daily_logs"] = logs.filter { !$0.hasPrefix(date + "|" + routine + "|") }
        expected["log_corrections"] = (expected["log_corrections"] ?? []).filter { row in
            let c = row.split(separator: "|").map(String.init)
            return !(c.count > 2 && c[1] == date && c[2] == routine)
        }
        #expect(got["daily_logs"]?.count == logs.count - 1)
        for table in expected.keys.sorted() where table != "routine_looks" {
            let a = got[table] ?? [], b = expected[table] ?? []
            #expect(a == b, "\(table): \(Set(a).symmetricDifference(b).sorted().prefix(4))")
        }
        // A look made only for the refused day went with its savepoint.
        #expect(Set(got["routine_looks"] ?? []).isSubset(of: Set(expected["routine_looks"] ?? [])))
        let raw = try folded.rawConnection()
        let conflicts = try raw.query("SELECT entity, record, reason FROM sync_conflicts", []) { [$0.text(0), $0.text(1), $0.text(2)] }
        #expect(conflicts.count == 1)
        #expect(conflicts.first?[0] == "routine" && conflicts.first?[1] == routine)
        #expect(conflicts.first?[2].contains("the test refuses this day") == true, "\(conflicts)")
        // The registers and events are whole: only the day's folding was refused.
        #expect(try SyncRig.state(folded.store) == SyncRig.state(rig.hub.store))
        #expect(try folded.store.syncState()?.copyAfter == nil)
        try folded.store.db.execute("DROP TRIGGER temp.refuse_one_day")
        #expect(try folded.store.integrityProblems().isEmpty)

        // The same copy taken as one file (as the household hub gives it) ends the same way.
        let filed = try refusingTheDay()
        try rig.join(filed, children: children.map(\.lowercased))
        rig.pullLimit = SyncProtocol.maxBatchEntries
        try rig.sync(3, copyAsFile: true)
        #expect(rig.lastCopyFile != nil)
        let fromFile = try Self.tables(filed)
        for table in got.keys.sorted() {
            #expect(fromFile[table] == got[table], "\(table) from a file")
        }
        #expect(try filed.rawConnection().query("SELECT record FROM sync_conflicts", []) { $0.text(0) } == [routine])
        #expect(try SyncRig.state(filed.store) == SyncRig.state(rig.hub.store))
        #expect(try filed.store.syncState()?.copyAfter == nil)
    }

    /// The contract's tables as rows of text, leaving out what is made per device (ids of logs
    /// and looks, when rows were written): a log's look is its title and icon.
    static func tables(_ f: StoreFixture) throws -> [String: [String]] {
        let db = try f.rawConnection()
        let queries = [
            "children": ("SELECT id, display_name, archived_at IS NULL FROM children", 3),
            "routine_sets": ("SELECT id, child_id, name, is_active, deleted_at IS NULL FROM routine_sets", 5),
            "routines": ("SELECT id, routine_set_id, title, icon, sort_order, is_active, deleted_at IS NULL FROM routines", 7),
            "daily_logs": ("""
                SELECT l.date, l.routine_id, l.routine_set_id, l.status, l.completed_at, k.title, k.icon
                FROM daily_logs l LEFT JOIN routine_looks k ON k.id = l.look_id
                """, 7),
            "log_corrections": ("SELECT id, date, routine_id, done, previous_status, made_at FROM log_corrections", 6),
            "routine_looks": ("SELECT routine_id, title, icon FROM routine_looks", 3),
            "set_schedules": ("SELECT child_id, weekday, start_time, routine_set_id FROM set_schedules", 4),
        ]
        var out: [String: [String]] = [:]
        for (table, (sql, columns)) in queries {
            out[table] = try db.query(sql, []) { row in
                (0..<columns).map { row.isNull(Int32($0)) ? "∅" : row.text(Int32($0)) }.joined(separator: "|")
            }.sorted()
        }
        return out
    }
}
