import Foundation
import Testing
import SteppieCore
@testable import SteppieBackup
@testable import SteppieStore

/// The caps of `BackupLimits`, photo recognition, the owner-only staging folder and its lock,
/// file modes, and paths that are not regular files.
@Suite struct LimitsAndStagingTests {
    static func data(_ extra: String) -> [UInt8] {
        Array(#"{"schemaVersion":2,"routineSets":[],"routines":[],"dailyLogs":[],"appSettings":null\#(extra)}"#.utf8)
    }

    static func decodeError(_ bytes: [UInt8], _ limits: BackupLimits = BackupLimits()) -> BackupError? {
        do { _ = try DataFileReader(defaultChildId: UUID(), limits: limits).decode(bytes: bytes); return nil } catch {
            return error as? BackupError
        }
    }

    @Test func jsonCapsHaveTheirOwnErrors() {
        var small = BackupLimits()
        small.maxUnknownValueBytes = 1000
        small.maxStructureBytes = 10_000
        small.maxRoutines = 2
        small.maxDailyLogs = 3
        #expect(Self.decodeError(Self.data(#","x":"# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40)))
                == .jsonTooDeep(name: "data.json", limit: 32), "a skipped field is still depth-checked")
        #expect(Self.decodeError(Array((#"{"routines":"# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}").utf8))
                == .jsonTooDeep(name: "data.json", limit: 32))
        let long = String(repeating: "a", count: 70_000)
        guard case .jsonStringTooLong(name: "data.json", _, limit: 65536)? = Self.decodeError(Self.data(#","x":""# + long + #"""#)) else {
            Issue.record("a long string, even in an unknown field, is refused"); return
        }
        #expect(Self.decodeError(Self.data(#","junk":["# + Array(repeating: "1", count: 600).joined(separator: ",") + "]"), small)
                == .unknownFieldTooLarge(name: "data.json", field: "junk", limit: 1000))
        #expect(Self.decodeError(Self.data(#","junk":{"a":[1,2,{"b":"c"}],"d":null}"#), small) == nil, "unknown fields are skipped")
        let routines = Array(repeating: #"{"id":"x"}"#, count: 3).joined(separator: ",")
        #expect(Self.decodeError(Array(#"{"schemaVersion":2,"routines":[\#(routines)]}"#.utf8), small) == .tooManyRecords(kind: .routines, limit: 2))
        let logs = Array(repeating: #"{"id":"x"}"#, count: 4).joined(separator: ",")
        #expect(Self.decodeError(Array(#"{"schemaVersion":2,"dailyLogs":[\#(logs)]}"#.utf8), small) == .tooManyRecords(kind: .dailyLogs, limit: 3))
        let titles = Array(repeating: #"{"title":{"en":"\#(String(repeating: "t", count: 200))"}}"#, count: 60).joined(separator: ",")
        #expect(Self.decodeError(Array(#"{"routines":[\#(titles)]}"#.utf8), small) == .dataStructureTooLarge(limit: 10_000))
    }

    @Test func chunkedParsingGivesTheSameTreeAsWholeBytes() throws {
        let source = try BackupFixture()
        let (_, data) = try CorruptArchiveTests.goodParts(source)
        let options = DataFileReader.parseOptions(BackupLimits())
        let whole = try JSONParser.parse(data, options: options)
        for size in [1, 7, 4096] {
            var at = 0
            let tree = try JSONParser.parse(source: { raw in
                let n = min(size, raw.count, data.count - at)
                for k in 0..<n { raw[k] = data[at + k] }
                at += n
                return n
            }, options: options, streaming: "none", into: { _, _ in })
            #expect(tree == whole, "chunks of \(size)")
        }
    }

    @Test func totalAndEntryCapsFromTheHeaders() throws {
        let source = try BackupFixture()
        let (archive, _) = try CorruptArchiveTests.goodParts(source)
        var limits = BackupLimits()
        limits.maxTotalBytes = 1000
        #expect(throws: BackupError.self) { try BackupVerifier(limits: limits).verify(archive: archive, at: source.now) }
        do { _ = try BackupVerifier(limits: limits).verify(archive: archive, at: source.now) } catch let e as BackupError {
            guard case .totalTooLarge(_, limit: 1000) = e else { Issue.record("\(e)"); return }
        }
        limits = BackupLimits()
        limits.maxEntries = 3
        #expect(throws: BackupError.tooManyEntries(count: 5, limit: 3)) { try BackupVerifier(limits: limits).verify(archive: archive, at: source.now) }
    }

    @Test func photosAreRecognisedByContent() {
        #expect(PhotoContent.recognise(jpeg(width: 640, height: 480)) == .jpeg(width: 640, height: 480))
        #expect(PhotoContent.recognise(png(width: 3, height: 5)) == .png(width: 3, height: 5))
        #expect(PhotoContent.recognise(jpeg(width: 0, height: 480)) == nil)
        #expect(PhotoContent.recognise(Array(jpeg().prefix(24))) == nil, "truncated before the frame header")
        #expect(PhotoContent.recognise(png(crc: 0x1234_5678)) == nil, "IHDR with a wrong CRC")
        #expect(PhotoContent.recognise(png(width: 0)) == nil)
        #expect(PhotoContent.recognise(Array("<html><body>hi</body></html>".utf8)) == nil)
        #expect(PhotoContent.recognise([0xFF, 0xD8, 0xFF, 0xD9]) == nil, "SOI then EOI, no frame")
    }

    @Test func stagingIsOwnerOnlyAndPhotosAreWrittenOnlyAfterTheConfirmation() throws {
        let source = try BackupFixture()
        try source.populate()
        let archive = source.url("b.zip")
        let old = umask(0o022)
        defer { umask(old) }
        _ = try BackupCreator(appVersion: "1", timeZone: source.zone).create(store: source.store, assetsDirectory: source.assets,
                                                                             destination: archive, at: source.now)
        #expect(try FileManager.default.attributesOfItem(atPath: archive.path)[.posixPermissions] as? NSNumber == 0o600)
        let target = try BackupFixture()
        let parent = target.assets.deletingLastPathComponent()
        var inspected = false
        _ = try Restorer(options: RestoreOptions(defaultChildName: "Child"))
            .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { _ in
                let staging = try #require(try FileManager.default.contentsOfDirectory(atPath: parent.path).first { $0.hasPrefix(".steppie-restore-") })
                let folder = parent.appendingPathComponent(staging)
                #expect(try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? NSNumber == 0o700)
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["lock"])
                inspected = true
                return true
            })
        #expect(inspected)
        let photos = try FileManager.default.contentsOfDirectory(atPath: target.assets.path)
        #expect(photos.count == 2)
        for name in photos {
            #expect(try FileManager.default.attributesOfItem(atPath: target.assets.appendingPathComponent(name).path)[.posixPermissions] as? NSNumber == 0o600)
        }
        #expect(try FileManager.default.attributesOfItem(atPath: target.assets.path)[.posixPermissions] as? NSNumber == 0o700)
        #expect(try target.databaseFolder().allSatisfy { !$0.hasPrefix(".steppie-restore-") })
    }

    @Test func aKilledRestoresStagingIsRemovedAndARunningOnesIsKept() throws {
        let source = try BackupFixture()
        try source.populate()
        let archive = source.url("b.zip")
        _ = try BackupCreator(appVersion: "1", timeZone: source.zone).create(store: source.store, assetsDirectory: source.assets,
                                                                             destination: archive, at: source.now)
        let target = try BackupFixture()
        let parent = target.assets.deletingLastPathComponent()
        let stale = parent.appendingPathComponent(".steppie-restore-killed")
        let running = parent.appendingPathComponent(".steppie-restore-running")
        for folder in [stale, running] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("assets"), withIntermediateDirectories: true)
            try Data(jpeg()).write(to: folder.appendingPathComponent("assets/routine-photo-x.jpg"))
            FileManager.default.createFile(atPath: folder.appendingPathComponent("lock").path, contents: nil)
        }
        // A separate open file description holds the lock, as another process's restore would.
        let fd = open(running.appendingPathComponent("lock").path, O_RDWR)
        #expect(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
        defer { close(fd) }
        _ = try Restorer(options: RestoreOptions(defaultChildName: "Child"))
            .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { _ in true })
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: running.appendingPathComponent("assets/routine-photo-x.jpg").path))
    }

    @Test func pathsThatAreNotRegularFilesAreRefusedAndUntouched() throws {
        let f = try BackupFixture()
        try f.populate()
        let fifo = f.url("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Reading: refused at once, the FIFO is never opened for reading (that would block).
        #expect(throws: BackupError.notRegularFile(path: fifo, kind: .fifo)) { try BackupVerifier().verify(archive: URL(fileURLWithPath: fifo), at: f.now) }
        #expect(throws: BackupError.notRegularFile(path: "/dev/null", kind: .characterDevice)) {
            try BackupVerifier().verify(archive: URL(fileURLWithPath: "/dev/null"), at: f.now)
        }
        #expect(throws: BackupError.notRegularFile(path: f.directory.path, kind: .directory)) { try BackupVerifier().verify(archive: f.directory, at: f.now) }
        let before = try f.store.dump()
        #expect(throws: BackupError.notRegularFile(path: fifo, kind: .fifo)) {
            try Restorer(options: RestoreOptions(defaultChildName: "C")).restore(archive: URL(fileURLWithPath: fifo), into: f.store,
                                                                               assetsDirectory: f.assets, at: f.now, confirm: { _ in true })
        }
        #expect(try f.store.dump() == before)
        // Writing: refused before any work; nothing is created beside the target.
        let creator = BackupCreator(appVersion: "1", timeZone: f.zone)
        let names = try FileManager.default.contentsOfDirectory(atPath: f.directory.path).sorted()
        #expect(throws: BackupError.notRegularFile(path: fifo, kind: .fifo)) {
            try creator.create(store: f.store, assetsDirectory: f.assets, destination: URL(fileURLWithPath: fifo), at: f.now)
        }
        #expect(throws: BackupError.notRegularFile(path: "/dev/null", kind: .characterDevice)) {
            try creator.create(store: f.store, assetsDirectory: f.assets, destination: URL(fileURLWithPath: "/dev/null"), at: f.now)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.directory.path).sorted() == names)
        var st = stat()
        #expect(stat(fifo, &st) == 0 && st.st_mode & S_IFMT == S_IFIFO)
    }
}
