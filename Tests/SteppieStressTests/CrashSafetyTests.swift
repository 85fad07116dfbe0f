import Foundation
import SteppieTestSupport
import Testing
import SteppieCore
import SteppieStore

/// `steppie child` killed with SIGKILL at random moments while presses are being processed.
///
/// Each run gets its own clock start (`STEPPIE_NOW`), two runs a day, so the second run of a day
/// restarts on the state the killed one left. Afterwards every `completed` cue written before a
/// kill must be in the database — unless a later undo (written after the cue) replaced it — and
/// every `undone` cue likewise.
@Suite(.serialized) struct CrashSafetyTests {
    static var kills: Int {
        ProcessInfo.processInfo.environment["STEPPIE_CRASH_KILLS"].flatMap(Int.init) ?? 200
    }

    struct Row {
        let status: String
        let updatedAt: Date
    }

    @Test func sigkillDuringPressesLosesNoAnnouncedCompletion() throws {
        let h = StressHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        try #require(FileManager.default.isExecutableFile(atPath: Repo.binary), "build the steppie binary first")
        var rng = SplitMix(seed: stressSeed)
        let began = Date()
        var kills = 0, tornTails = 0, cuesChecked = 0, completionsSeen = 0, stillCompleted = 0, supersededByUndo = 0
        var runs: [(events: EventsFile, err: String)] = []
        let base = try #require(Timestamp.parse("2026-01-01T10:00:00+09:00"))

        for i in 0..<Self.kills {
            let start = base.addingTimeInterval(Double(i / 2) * 86_400 + Double(i % 2) * 300)
            let events = h.path("events-\(i).jsonl"), errors = h.path("stderr-\(i).txt")
            let child = try SpawnedProcess(Repo.binary, ["child", "--db", h.db, "--locale", "en", "--output", "null",
                                                          "--events", events, "--keys-from", "-"],
                                           environment: StressHarness.environment(["TZ": "Asia/Seoul", "STEPPIE_NOW": Timestamp.format(start, in: h.zone)]),
                                           stdinPipe: true, stderrPath: errors)
            // Child mode is up when its first event (the opening focus) is written.
            let up = waitUntil(timeout: 15) { !EventsFile(path: events).isEmpty || !child.running }
            #expect(up && child.running, "run \(i) did not start: \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
            let presses = (0..<40).map { _ -> String in
                switch rng.next() % 20 {
                case 0..<11: "done"
                case 11..<16: "undo"
                default: "next"
                }
            }
            child.send(presses)
            usleep(UInt32(rng.next() % 40_001))   // the random moment of the kill (0–40 ms)
            child.stop(SIGKILL)
            #expect(child.exitStatus == 128 + SIGKILL, "run \(i) ended by itself (\(child.exitStatus))")
            kills += 1
            let file = EventsFile(path: events)
            if file.partialTail { tornTails += 1 }
            #expect(file.brokenLines.isEmpty, "run \(i): unreadable lines \(file.brokenLines)")
            runs.append((file, (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""))
        }

        let store = try Store(path: h.db, timeZone: h.zone)
        #expect(try store.integrityProblems().isEmpty)
        let db = try Connection(path: h.db, readOnly: true)
        let quickCheck = try db.query("PRAGMA integrity_check") { $0.text(0) }
        #expect(quickCheck == ["ok"])
        let duplicates = try db.query("SELECT date, routine_id, COUNT(*) FROM daily_logs GROUP BY date, routine_id HAVING COUNT(*) > 1") { $0.text(0) }
        #expect(duplicates.isEmpty, "two logs for one (date, routine): \(duplicates)")
        var rows: [String: Row] = [:]
        for (key, row) in try db.query("SELECT date, routine_id, status, updated_at FROM daily_logs", [], {
            ("\($0.text(0))|\($0.text(1))", Row(status: $0.text(2), updatedAt: Timestamp.parse($0.text(3)) ?? .distantPast))
        }) { rows[key] = row }

        for (i, run) in runs.enumerated() {
            #expect(!run.err.contains("locked") && !run.err.contains("busy"), "run \(i): \(run.err)")
            for cue in run.events.cues("completed") + run.events.cues("undone") {
                guard let date = cue["date"] as? String, let id = cue["activityId"] as? String,
                      let time = (cue["time"] as? String).flatMap(Timestamp.parse), let name = cue["cue"] as? String else {
                    Issue.record("run \(i): cue without date, activity or time: \(cue)"); continue
                }
                cuesChecked += 1
                let expected = name == "completed" ? "completed" : "undone"
                if name == "completed" { completionsSeen += 1 }
                guard let row = rows["\(date)|\(id)"] else {
                    Issue.record("run \(i): \(name) of \(id) on \(date) announced at \(time) but not in the database"); continue
                }
                if row.status == expected {
                    if name == "completed" { stillCompleted += 1 }
                } else if row.updatedAt >= time {
                    // A later press (written after this cue) changed it again: legitimate.
                    if name == "completed" { supersededByUndo += 1 }
                } else {
                    Issue.record("run \(i): \(name) of \(id) on \(date) at \(time) lost: the row is \(row.status), last written \(row.updatedAt)")
                }
            }
        }
        let seconds = Date().timeIntervalSince(began)
        print("crash safety: \(kills) kills in \(String(format: "%.1f", seconds)) s; \(completionsSeen) completions announced, "
              + "\(stillCompleted) completed in the database, \(supersededByUndo) undone later; \(cuesChecked) cues verified; "
              + "\(tornTails) event files ended in a torn line; \(rows.count) logs")
        #expect(kills >= Self.kills)
        #expect(completionsSeen > 0)
        #expect(stillCompleted + supersededByUndo == completionsSeen)
    }
}
