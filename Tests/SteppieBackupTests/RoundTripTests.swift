import Foundation
import Testing
import SteppieCore
@testable import SteppieBackup
@testable import SteppieStore

@Suite struct RoundTripTests {
    @Test func createThenRestoreIntoAnEmptyDatabaseGivesTheSameRowsAndPhotos() throws {
        let source = try BackupFixture()
        try source.populate()
        let archive = source.url("out.zip")
        let report = try BackupCreator(appVersion: "0.9.0", timeZone: source.zone)
            .create(store: source.store, assetsDirectory: source.assets, destination: archive, at: source.now)
        #expect(report.counts.children == 2)
        #expect(report.counts.assets == 2)
        #expect(report.counts.dailyLogs == 14)

        let target = try BackupFixture()
        var progress: [BackupProgress] = []
        let restored = try Restorer(options: RestoreOptions(defaultChildName: "Child"))
            .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now,
                     confirm: { plan in
                         #expect(plan.counts == report.counts)
                         #expect(plan.replacing == BackupCounts(children: 0, routineSets: 0, routines: 0, dailyLogs: 0, assets: 0, scheduleSlots: 0))
                         #expect(plan.counts.scheduleSlots == 24)
                         return true
                     }, progress: { progress.append($0) })
        #expect(restored.needsNewPin == false)
        let dump = try source.store.dataDump()
        #expect(dump.contains("# daily_logs") && dump.contains("$argon2id$"))
        #expect(try target.store.dataDump() == dump)
        #expect(try target.assetFiles() == source.assetFiles())
        #expect(try target.store.integrityProblems().isEmpty)
        #expect(progress.filter { $0.phase == "reading" }.last.map { $0.done == $0.total } == true)
        #expect(try target.databaseFolder() == ["assets", "steppie.db", "steppie.db-shm", "steppie.db-wal"])
    }

    @Test func otherToolsReadTheArchiveAndAgreeOnTheChecksum() throws {
        let f = try BackupFixture()
        try f.populate()
        let archive = f.url("tools.zip")
        let report = try BackupCreator(appVersion: "0.9.0", timeZone: f.zone)
            .create(store: f.store, assetsDirectory: f.assets, destination: archive, at: f.now)
        let unzip = try run(["unzip", "-t", archive.path])
        #expect(unzip.status == 0, "\(unzip.output)")
        let python = try run(["python3", "-c", "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print('\\n'.join(z.namelist()))", archive.path])
        #expect(python.status == 0, "\(python.output)")
        let names = python.output.split(separator: "\n").map(String.init)
        #expect(Array(names.prefix(3)) == ["manifest.json", "data.json", "assets/"])
        #expect(names.count == 5 && names.dropFirst(3).allSatisfy { $0.hasPrefix("assets/routine-photo-") })

        let extract = f.url("x")
        #expect(try run(["unzip", "-q", archive.path, "-d", extract.path]).status == 0)
        let sum = try run(["sha256sum", extract.appendingPathComponent("data.json").path])
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: extract.appendingPathComponent("manifest.json"))) as? [String: Any]
        let checksum = (manifest?["checksum"] as? [String: Any])?["dataJson"] as? String
        #expect(sum.output.split(separator: " ").first.map(String.init) == checksum)
        #expect(checksum == report.checksum)
        #expect(manifest?["app"] as? String == "Steppie")
        #expect(manifest?["sourcePlatform"] as? String == "linux")
        #expect(manifest?["backupSchemaVersion"] as? Int == 2)
        #expect((manifest?["createdAt"] as? String)?.hasSuffix("+09:00") == true)
        let data = try JSONSerialization.jsonObject(with: Data(contentsOf: extract.appendingPathComponent("data.json"))) as? [String: Any]
        #expect(Set(data?.keys.map { $0 } ?? []) == ["schemaVersion", "exportedAt", "routineSets", "routines", "dailyLogs", "appSettings", "children", "weeklySchedules",
                                                       "routineLooks",   // schema v8: what completions showed (docs/backup.md)
                                                          "recordings"])
        let log = (data?["dailyLogs"] as? [[String: Any]])?.first
        #expect(log?["date"] as? String == "2026-03-02")
        #expect((log?["createdAt"] as? String)?.hasSuffix("+09:00") == true)
    }

    @Test func defaultNameUsesLocalTime() throws {
        let zone = try #require(TimeZone(identifier: "Asia/Seoul"))
        let date = try #require(Timestamp.parse("2026-03-01T23:04:05Z"))
        #expect(BackupCreator.defaultFileName(at: date, in: zone) == "steppie-backup-20260302-080405.zip")
    }

    @Test func aFailedCreateLeavesNoFile() throws {
        let f = try BackupFixture()
        try f.populate()
        try Data(count: 6 << 20).write(to: f.assets.appendingPathComponent("routine-photo-huge.jpg"))
        let out = f.url("outdir")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        #expect(throws: BackupError.entryTooLarge(name: "assets/routine-photo-huge.jpg", size: 6 << 20, limit: 5 << 20)) {
            try BackupCreator(appVersion: "1", timeZone: f.zone).create(store: f.store, assetsDirectory: f.assets, destination: out, at: f.now)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }

    @Test func stampFormatterMatchesTimestampFormat() throws {
        for name in ["Asia/Seoul", "America/New_York", "America/St_Johns", "Australia/Lord_Howe", "UTC"] {
            let zone = try #require(TimeZone(identifier: name))
            let fast = StampFormatter(timeZone: zone)
            var t = 1_700_000_000.0
            for i in 0..<5000 {
                t += Double(i % 7) * 3637.123 + 0.0005 * Double(i % 3)
                let d = Date(timeIntervalSince1970: t)
                #expect(fast.format(d) == Timestamp.format(d, in: zone))
            }
        }
    }
}
