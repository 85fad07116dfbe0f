import Foundation
import SteppieTestSupport
import Testing
import SteppieBackup
import SteppieCore
import SteppieStore

/// Commands run as real processes by a worker thread, with what each one printed and returned.
final class CommandLog: @unchecked Sendable {
    struct Entry {
        let args: [String]
        let status: Int32
        let out: String
        let err: String
    }
    private let lock = NSLock()
    private var items: [Entry] = []
    var entries: [Entry] { lock.withLock { items } }

    /// Runs `steppie args` to completion (at most 60 s) and records it.
    @discardableResult
    func run(_ args: [String], db: String, directory: URL) -> Entry {
        let out = directory.appendingPathComponent("out-\(UUID().uuidString)").path
        let err = directory.appendingPathComponent("err-\(UUID().uuidString)").path
        var status: Int32 = -1
        if let p = try? SpawnedProcess(Repo.binary, args + ["--db", db, "--locale", "en"],
                                       environment: StressHarness.environment(["TZ": "Asia/Seoul"]),
                                       stdoutPath: out, stderrPath: err) {
            status = p.wait(timeout: 60)
        }
        let entry = Entry(args: args, status: status, out: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                          err: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
        try? FileManager.default.removeItem(atPath: out)
        try? FileManager.default.removeItem(atPath: err)
        lock.withLock { items.append(entry) }
        return entry
    }
}

/// Child mode, a guardian editing routines and backups, all at once on one database for
/// `STEPPIE_STRESS_SECONDS` (default 20; `scripts/stress.sh` runs 180).
@Suite(.serialized) struct ConcurrencyStressTests {
    static var seconds: Double {
        ProcessInfo.processInfo.environment["STEPPIE_STRESS_SECONDS"].flatMap(Double.init) ?? 20
    }

    /// What the guardian expects of one routine it added.
    struct Expected { var title: String; var deleted: Bool }

    @Test func childGuardianAndBackupTogetherLoseNothing() throws {
        let h = StressHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        try #require(FileManager.default.isExecutableFile(atPath: Repo.binary), "build the steppie binary first")
        let (db, dir, seconds) = (h.db, h.directory, Self.seconds)
        let events = h.path("events.jsonl"), childErr = h.path("child-err.txt")
        let child = try SpawnedProcess(Repo.binary, ["child", "--db", db, "--locale", "en", "--output", "null",
                                                     "--events", events, "--keys-from", "-"],
                                       environment: StressHarness.environment(["TZ": "Asia/Seoul"]), stdinPipe: true,
                                       stderrPath: childErr)
        try #require(waitUntil(timeout: 15) { !EventsFile(path: events).isEmpty }, "child mode did not start")
        let deadline = Date().addingTimeInterval(seconds)
        let guardian = CommandLog(), backups = CommandLog()
        let finished = DispatchGroup()
        let expected = ExpectedRoutines()

        finished.enter()
        Thread.detachNewThread {
            defer { finished.leave() }
            var k = 0
            while Date() < deadline {
                k += 1
                let added = guardian.run(["routine", "add", "--title-en", "Stress \(k)", "--position", "1"], db: db, directory: dir)
                guard added.status == 0, let id = Self.id(in: added.out) else { continue }
                expected.set(id, Expected(title: "Stress \(k)", deleted: false))
                if guardian.run(["routine", "edit", id, "--title-en", "Stress \(k) edited"], db: db, directory: dir).status == 0 {
                    expected.set(id, Expected(title: "Stress \(k) edited", deleted: false))
                }
                guardian.run(["routine", "move", id, "--to", "\(1 + k % 3)"], db: db, directory: dir)
                if k % 3 == 0, guardian.run(["routine", "delete", id], db: db, directory: dir).status == 0 {
                    expected.set(id, Expected(title: "Stress \(k) edited", deleted: true))
                    if k % 6 == 0, guardian.run(["routine", "restore", id], db: db, directory: dir).status == 0 {
                        expected.set(id, Expected(title: "Stress \(k) edited", deleted: false))
                    }
                }
            }
        }
        finished.enter()
        Thread.detachNewThread {
            defer { finished.leave() }
            var n = 0
            while Date() < deadline {
                n += 1
                backups.run(["backup", "create", "--out", dir.appendingPathComponent("backup-\(n).zip").path], db: db, directory: dir)
            }
        }
        // The child presses all along (a press every 30–130 ms).
        var rng = SplitMix(seed: stressSeed &+ 7)
        var presses = 0
        while Date() < deadline, child.running {
            child.send([["done", "done", "done", "undo", "next"][Int(rng.next() % 5)]])
            presses += 1
            usleep(30_000 + UInt32(rng.next() % 100_000))
        }
        finished.wait()
        // The last edit must reach child mode: a card put first becomes the child's focus.
        let final = guardian.run(["routine", "add", "--title-en", "Final card", "--position", "1"], db: db, directory: dir)
        #expect(final.status == 0, "\(final.err)")
        let sawFinal = waitUntil(timeout: 10) {
            EventsFile(path: events).events.contains { $0["type"] as? String == "focus" && $0["title"] as? String == "Final card" }
        }
        #expect(sawFinal, "child mode did not show the last edit")
        child.send(["quit"])
        #expect(child.wait(timeout: 15) == 0, "child mode did not end cleanly")

        // No lock or busy error reached anyone.
        let childErrText = (try? String(contentsOfFile: childErr, encoding: .utf8)) ?? ""
        for entry in guardian.entries + backups.entries {
            #expect(entry.status == 0, "\(entry.args) failed (\(entry.status)): \(entry.err)")
            #expect(!Self.mentionsLocking(entry.err + entry.out), "\(entry.args): \(entry.err)")
        }
        #expect(!Self.mentionsLocking(childErrText), "child mode: \(childErrText)")

        // Every edit the guardian saw succeed is in the database.
        let conn = try Connection(path: db, readOnly: true)
        let rows = try conn.query("SELECT id, json_extract(title, '$.en'), deleted_at IS NOT NULL FROM routines") {
            ($0.text(0), ($0.optionalText(1) ?? "", $0.bool(2)))
        }
        let stored = Dictionary(rows, uniquingKeysWith: { a, _ in a })
        for (id, want) in expected.all {
            let got = stored[id]
            #expect(got?.0 == want.title && got?.1 == want.deleted, "routine \(id): expected \(want), stored \(String(describing: got))")
        }
        // Every completion child mode announced is in the database (or a later press changed it).
        let file = EventsFile(path: events)
        #expect(file.brokenLines.isEmpty)
        let logs = try conn.query("SELECT date, routine_id, status, updated_at FROM daily_logs") {
            ("\($0.text(0))|\($0.text(1))", ($0.text(2), Timestamp.parse($0.text(3)) ?? .distantPast))
        }
        let logByKey = Dictionary(logs, uniquingKeysWith: { a, _ in a })
        var verified = 0
        for cue in file.cues("completed") {
            let key = "\(cue["date"] as? String ?? "")|\(cue["activityId"] as? String ?? "")"
            let time = (cue["time"] as? String).flatMap(Timestamp.parse) ?? .distantFuture
            let log = logByKey[key]
            #expect(log?.0 == "completed" || (log?.1 ?? .distantPast) >= time, "completion \(key) at \(time) lost: \(String(describing: log))")
            verified += 1
        }
        // Every backup that reported success reads back.
        var archivesVerified = 0
        for entry in backups.entries where entry.status == 0 {
            guard let out = entry.args.last else { continue }
            #expect(throws: Never.self) { _ = try BackupVerifier().verify(archive: URL(fileURLWithPath: out), at: Date()) }
            archivesVerified += 1
        }
        #expect(try Store(path: db, timeZone: h.zone).integrityProblems().isEmpty)
        let guardianTitles = Set(expected.all.map(\.value.title))
        let shown = Set(file.events.compactMap { $0["title"] as? String }).intersection(guardianTitles)
        let planChanges = file.events.filter { $0["type"] as? String == "planChanged" }.count
        print("concurrency: \(Int(seconds)) s; child \(presses) presses, \(file.cues("completed").count) completions verified \(verified); "
              + "guardian \(guardian.entries.count) commands (\(guardian.entries.filter { $0.status != 0 }.count) failed), "
              + "\(expected.all.count) routines checked; \(backups.entries.count) backups (\(archivesVerified) verified); "
              + "child mode saw \(planChanges) plan changes and \(shown.count) guardian titles")
        #expect(planChanges > 0 && shown.count > 0)
        #expect(verified > 0)
    }

    static func id(in text: String) -> String? {
        guard let open = text.lastIndex(of: "("), let close = text.lastIndex(of: ")"), open < close else { return nil }
        let id = String(text[text.index(after: open)..<close])
        return UUID(uuidString: id) == nil ? nil : id.lowercased()
    }

    static func mentionsLocking(_ text: String) -> Bool {
        let t = text.lowercased()
        return t.contains("locked") || t.contains("busy")
    }
}

/// The guardian's expectations, written by its worker thread.
final class ExpectedRoutines: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String: ConcurrencyStressTests.Expected] = [:]
    func set(_ id: String, _ e: ConcurrencyStressTests.Expected) { lock.withLock { items[id] = e } }
    var all: [String: ConcurrencyStressTests.Expected] { lock.withLock { items } }
}
