import Foundation
import Testing
import SteppieCore
import SteppieStore

/// `steppie child` as a real process on a real database file.
@Suite(.serialized) struct ChildModeProcessTests {
    func setUp(_ zone: String, now: String) throws -> CLIHarness {
        let h = CLIHarness(now: now, zone: zone)
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        return h
    }

    /// Child mode crosses local midnight without a restart; a completion just before midnight
    /// stays on the old date.
    @Test(arguments: [
        ("America/New_York", "2026-03-07T23:59:58-05:00", "2026-03-07", "2026-03-08"),   // the night before spring forward
        ("America/New_York", "2026-03-08T23:59:58-04:00", "2026-03-08", "2026-03-09"),   // the end of the 23-hour day
        ("America/New_York", "2026-10-31T23:59:58-04:00", "2026-10-31", "2026-11-01"),   // the night before fall back
        ("America/New_York", "2026-11-01T23:59:58-05:00", "2026-11-01", "2026-11-02"),   // the end of the 25-hour day
        ("Asia/Seoul", "2026-03-02T23:59:58+09:00", "2026-03-02", "2026-03-03"),
    ])
    func crossesMidnight(zone: String, start: String, oldDay: String, newDay: String) throws {
        let h = try setUp(zone, now: start)
        try #require(FileManager.default.isExecutableFile(atPath: CLIHarness.binary))
        let child = try ChildProcess(db: h.db, directory: h.directory, variables: ["TZ": zone, "STEPPIE_NOW": start])
        child.send("done")
        let completed = child.waitFor(ChildProcess.type("completed"))
        #expect(completed?["date"] as? String == oldDay)
        let changed = child.waitFor { $0["type"] as? String == "dayChanged" }
        #expect(changed?["date"] as? String == newDay)
        // The new day starts from the first activity, announced.
        let announce = child.waitFor { $0["type"] as? String == "cue" && $0["cue"] as? String == "announce" && $0["date"] as? String == newDay }
        #expect(announce?["title"] as? String == "Wake up")
        #expect((announce?["progress"] as? [String: Int])?["completed"] == 0)
        child.send("undo")   // yesterday's completion cannot be undone
        child.waitFor(ChildProcess.type("undoRefused"))
        let (status, _, err) = child.finish()
        #expect(status == 0, "\(err)")
        let store = try Store(path: h.db, timeZone: h.zone)
        let mina = try store.resolveChild("Mina")
        let logs = try store.history(childId: mina.id, from: LocalDay(oldDay) ?? h.clock.now().localDay, through: LocalDay(newDay) ?? h.clock.now().localDay)
        #expect(logs.map { $0.log?.date.description } == [oldDay])
        #expect(logs.first?.log?.status == .completed)
    }

    @Test func aRoutineAddedByAnotherProcessAppearsWithinOneSecond() throws {
        let h = try setUp("Asia/Seoul", now: "2026-03-02T07:00:00+09:00")
        let child = try ChildProcess(db: h.db, directory: h.directory, variables: ["TZ": "Asia/Seoul"])
        try #require(child.waitFor(ChildProcess.type("focus")) != nil)
        let store = try Store(path: h.db, timeZone: h.zone)
        let mina = try store.resolveChild("Mina")
        let set = try #require(try store.activeSet(childId: mina.id))
        // Put the new routine first, so the child's current card changes.
        let added = try store.addRoutine(setId: set.id, title: LocalizedText(ko: "물 마시기", en: "Drink water"),
                                         icon: .builtin(name: "water"), at: Date())
        try store.reorder(setId: set.id, ids: [added.id] + (try store.routines(setId: set.id).map(\.id).filter { $0 != added.id }), at: Date())
        let changedAt = Date()
        let seen = child.waitFor(timeout: 5) { $0["type"] as? String == "focus" && $0["title"] as? String == "Drink water" }
        let (status, _, _) = child.finish()
        #expect(status == 0)
        let seenText = try #require(seen?["time"] as? String)
        let seenAt = try #require(Timestamp.parse(seenText))
        let delay = seenAt.timeIntervalSince(changedAt)
        #expect(delay < 1.0, "child mode saw the change after \(delay) s")
        #expect((seen?["progress"] as? [String: Int])?["total"] == 7)
    }

    /// The database turns read-only (the WAL file made immutable): the completion is rolled back,
    /// nothing claims success, and child mode recovers by itself once it is writable again.
    @Test func readOnlyDatabaseRollsBackAndRecovers() throws {
        let h = try setUp("Asia/Seoul", now: "2026-03-02T07:00:00+09:00")
        let child = try ChildProcess(db: h.db, directory: h.directory, variables: ["TZ": "Asia/Seoul"])
        try #require(child.waitFor(ChildProcess.type("focus")) != nil)
        let wal = h.db + "-wal"
        try #require(FileManager.default.fileExists(atPath: wal))
        func chattr(_ flag: String) throws -> Int32 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
            p.arguments = [flag, wal, h.db]
            try p.run()
            p.waitUntilExit()
            return p.terminationStatus
        }
        try #require(try chattr("+i") == 0, "chattr +i is needed to make the file read-only for root")
        defer { _ = try? chattr("-i") }
        child.send("done")
        let failed = child.waitFor(ChildProcess.type("saveFailed"))
        #expect(failed != nil)
        #expect((failed?["progress"] as? [String: Int])?["completed"] == 0)
        // The gentle error cue follows the failed save (its line is written just after).
        #expect(child.waitFor { $0["cue"] as? String == "error" } != nil)
        #expect(!child.events.contains { $0["type"] as? String == "completed" || $0["cue"] as? String == "completed" })
        #expect(try chattr("-i") == 0)
        child.send("done")
        let completed = child.waitFor(ChildProcess.type("completed"))
        #expect((completed?["progress"] as? [String: Int])?["completed"] == 1)
        let (status, _, err) = child.finish()
        #expect(status == 0)
        #expect(err.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1, "one fault line: \(err)")
        let store = try Store(path: h.db, timeZone: h.zone)
        #expect(try store.integrityProblems().isEmpty)
    }
}

extension Date {
    var localDay: LocalDay { LocalDay(self, in: .current) }
}
