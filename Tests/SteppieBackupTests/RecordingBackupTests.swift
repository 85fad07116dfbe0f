import Foundation
import Testing
import SteppieCore
import SteppieFeedback
@testable import SteppieBackup
@testable import SteppieStore

/// Recorded titles travel in Linux backups (`recordings` in data.json, `recordings/<file>` in the
/// archive, docs/backup.md): back with identical bytes after a restore; a bad one refused with
/// nothing changed; a backup without the field keeps the device's recordings that still fit.
@Suite struct RecordingBackupTests {
    /// A WAV tone of `seconds` (16-bit mono, 22050 Hz), its bytes.
    static func tone(_ f: BackupFixture, seconds: Double, amplitude: Double = 0.5) throws -> Data {
        let path = f.url("tone-\(UUID().uuidString).wav").path
        let samples = (0..<Int(seconds * 22050)).map { Int16(amplitude * 32767 * sin(2 * .pi * 440 * Double($0) / 22050)) }
        try SoundFile.writeWAV(samples, to: path)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    static var options: RestoreOptions {
        var o = RestoreOptions(defaultChildName: "Child")
        o.decodeAudio = SoundFile.decodeRecording
        return o
    }

    /// The fixture populated, with a Korean and an English recording of its first routine.
    static func recorded(_ f: BackupFixture) throws -> [RoutineRecording] {
        try f.populate()
        let child = try #require(try f.store.children().first)
        let set = try #require(try f.store.sets(childId: child.id).first)
        let routine = try #require(try f.store.routines(setId: set.id).first)
        _ = try f.store.keepRecording(try tone(f, seconds: 1.2), routineId: routine.id, locale: "ko", fileExtension: "wav",
                                      decode: SoundFile.decodeRecording, at: f.now)
        _ = try f.store.keepRecording(try tone(f, seconds: 0.7), routineId: routine.id, locale: "en", fileExtension: "wav",
                                      decode: SoundFile.decodeRecording, at: f.now.addingTimeInterval(1))
        return try f.store.recordings()
    }

    static func files(_ store: Store) throws -> [String: Data] {
        guard let dir = store.recordingsDirectory, FileManager.default.fileExists(atPath: dir.path) else { return [:] }
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
            out[name] = try Data(contentsOf: dir.appendingPathComponent(name))
        }
        return out
    }

    static func backup(_ f: BackupFixture) throws -> (archive: URL, data: [UInt8], entries: [String: [UInt8]]) {
        let archive = f.url("with-recordings.zip")
        _ = try BackupCreator(appVersion: "1", timeZone: f.zone).create(store: f.store, assetsDirectory: f.assets, destination: archive, at: f.now)
        let zip = try ZipReader(path: archive.path)
        var entries: [String: [UInt8]] = [:]
        for e in try zip.entries() where !e.isDirectory { entries[e.name] = try zip.readAll(e, limit: 1 << 30) }
        return (archive, try #require(entries["data.json"]), entries)
    }

    @Test func recordingsComeBackWithIdenticalBytesOnANewDevice() throws {
        let source = try BackupFixture()
        let rows = try Self.recorded(source)
        #expect(rows.count == 2)
        let (archive, data, entries) = try Self.backup(source)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any])
        let listed = try #require(object["recordings"] as? [[String: Any]])
        #expect(listed.count == 2)
        #expect(Set(listed.compactMap { $0["file"] as? String }) == Set(rows.map(\.fileName)))
        #expect(Set(listed.compactMap { $0["locale"] as? String }) == ["ko", "en"])
        let sourceFiles = try Self.files(source.store)
        for row in rows { #expect(entries["recordings/" + row.fileName].map { Data($0) } == sourceFiles[row.fileName]) }

        let target = try BackupFixture()
        _ = try Restorer(options: Self.options)
            .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { _ in true })
        #expect(try target.store.recordings() == rows)
        #expect(try Self.files(target.store) == sourceFiles)
        #expect(try target.store.dataDump() == (try source.store.dataDump()))
        // Owner-only, as a kept take is; no staging folder left.
        let dir = try #require(target.store.recordingsDirectory)
        for name in sourceFiles.keys {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)[.posixPermissions] as? Int)
            #expect(mode & 0o077 == 0)
        }
        #expect(!(try target.databaseFolder()).contains { $0.hasPrefix(".steppie-restore-") })
    }

    @Test func aRestoreReplacesTheDevicesRecordingsWithTheBackups() throws {
        let f = try BackupFixture()
        let rows = try Self.recorded(f)
        let (archive, _, _) = try Self.backup(f)
        let before = try Self.files(f.store)
        // After the backup: one recording replaced, one removed.
        let routine = try #require(rows.first?.routineId)
        _ = try f.store.keepRecording(try Self.tone(f, seconds: 2), routineId: routine, locale: "ko", fileExtension: "wav",
                                      decode: SoundFile.decodeRecording, at: f.now.addingTimeInterval(9))
        _ = try f.store.discardRecording(routineId: routine, locale: "en")
        _ = try Restorer(options: Self.options)
            .restore(archive: archive, into: f.store, assetsDirectory: f.assets, at: f.now, confirm: { _ in true })
        #expect(try f.store.recordings() == rows)
        #expect(try Self.files(f.store) == before)
    }

    /// Each bad recording is refused before anything changes: the rows, the recordings folder and
    /// the photos are what they were.
    @Test(arguments: ["notAudio", "tooLong", "silent", "routineMissing", "fileMissing", "badName", "noDecoder"])
    func aBadRecordingIsRefusedWithNothingChanged(_ kind: String) throws {
        let source = try BackupFixture()
        let rows = try Self.recorded(source)
        let (_, data, entries) = try Self.backup(source)
        let target = try BackupFixture()
        _ = try Self.recorded(target)
        let dumpBefore = try target.store.dataDump(), filesBefore = try Self.files(target.store), photosBefore = try target.assetFiles()

        let victim = try #require(rows.first)
        var edited = entries
        var json = data
        var options = Self.options
        switch kind {
        case "notAudio": edited["recordings/" + victim.fileName] = Array("not audio at all".utf8)
        case "tooLong": edited["recordings/" + victim.fileName] = Array(try Self.tone(source, seconds: 31))
        case "silent": edited["recordings/" + victim.fileName] = Array(try Self.tone(source, seconds: 1, amplitude: 0))
        case "routineMissing":
            json = try CorruptArchiveTests.edit(data) { o in
                var list = o["recordings"] as? [[String: Any]] ?? []
                list[0]["routineId"] = UUID().uuidString.lowercased()
                o["recordings"] = list
            }
        case "fileMissing": edited["recordings/" + victim.fileName] = nil
        case "badName": edited["recordings/../evil.wav"] = edited["recordings/" + victim.fileName]
        default: options.decodeAudio = AudioDecodeFailure.unavailable
        }
        edited["data.json"] = json
        edited["manifest.json"] = try manifest(for: json)
        let archive = target.url("bad-\(kind).zip")
        try makeZip(at: archive, edited.sorted { $0.key < $1.key }.map { TestEntry(name: $0.key, bytes: $0.value) })
        #expect(throws: BackupError.self) {
            _ = try Restorer(options: options)
                .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { _ in true })
        }
        #expect(throws: BackupError.self) {
            _ = try BackupVerifier(decodeAudio: options.decodeAudio).verify(archive: archive, at: target.now)
        }
        #expect(try target.store.dataDump() == dumpBefore)
        #expect(try Self.files(target.store) == filesBefore)
        #expect(try target.assetFiles() == photosBefore)
        #expect(!(try target.databaseFolder()).contains { $0.hasPrefix(".steppie-restore-") })
    }

    /// A Linux backup made before recordings travelled: the device keeps each recording whose
    /// routine is there again, with its file, as before.
    @Test func aBackupWithoutTheFieldKeepsTheRecordingsThatStillFit() throws {
        let f = try BackupFixture()
        let rows = try Self.recorded(f)
        let (_, data, entries) = try Self.backup(f)
        let before = try Self.files(f.store)
        let old = try CorruptArchiveTests.edit(data) { $0["recordings"] = nil }
        var edited = entries.filter { !$0.key.hasPrefix("recordings/") }
        edited["data.json"] = old
        edited["manifest.json"] = try manifest(for: old)
        let archive = f.url("old.zip")
        try makeZip(at: archive, edited.sorted { $0.key < $1.key }.map { TestEntry(name: $0.key, bytes: $0.value) })
        _ = try Restorer(options: Self.options)
            .restore(archive: archive, into: f.store, assetsDirectory: f.assets, at: f.now, confirm: { _ in true })
        #expect(try f.store.recordings() == rows)
        #expect(try Self.files(f.store) == before)
    }

    /// A phone export still leaves recordings out (the phone apps have none) and counts them.
    @Test func aPhoneExportLeavesRecordingsOut() throws {
        let f = try BackupFixture()
        let rows = try Self.recorded(f)
        let child = try #require(try f.store.children().first)
        let out = f.url("phone.zip")
        let report = try PhoneExporter(appVersion: "1", timeZone: f.zone)
            .export(store: f.store, childId: child.id, for: .ios, assetsDirectory: f.assets, destination: out, at: f.now)
        #expect(report.leftOut.recordings == rows.count)
        let zip = try ZipReader(path: out.path)
        let names = try zip.entries().map(\.name)
        #expect(!names.contains { $0.hasPrefix("recordings") })
        let data = try #require(try zip.entries().first { $0.name == "data.json" })
        #expect(!String(decoding: try zip.readAll(data, limit: 1 << 30), as: UTF8.self).contains("recordings"))
    }
}
