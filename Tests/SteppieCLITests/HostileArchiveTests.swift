import Foundation
import Testing
import SteppieStore

/// Hostile archives against the real `steppie` binary under a 1 GiB address-space limit: each is
/// refused with exit status 1 and one line on standard error, without a crash, with the database
/// and the files around it exactly as before, and nothing written before the PIN is asked.
@Suite(.serialized) struct HostileArchiveTests {
    enum Hostile: String, CaseIterable, Sendable {
        case hugeUnknownField, deepNesting, hugeString, tooManyEntries, zipBombPhoto, textPhoto, htmlPhoto, truncatedPhoto
    }

    /// What the one line on standard error must say (English catalog).
    static func expected(_ h: Hostile) -> String {
        switch h {
        case .hugeUnknownField: "unknown field \"junk\" over 67108864 bytes"
        case .deepNesting: "nested more than 32 levels deep"
        case .hugeString: "text over 65536 bytes long"
        case .tooManyEntries: "20001 entries; at most 20000"
        case .zipBombPhoto: "would expand"
        case .textPhoto, .htmlPhoto, .truncatedPhoto: "is not a JPEG or PNG image"
        }
    }

    /// A database with a PIN and one photo, in its own folder.
    final class Place {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-hostile-\(UUID().uuidString)")
        var db: String { directory.appendingPathComponent("home/steppie.db").path }
        var home: URL { directory.appendingPathComponent("home") }

        init() throws {
            try FileManager.default.createDirectory(at: home.appendingPathComponent("assets"), withIntermediateDirectories: true)
            try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: home.appendingPathComponent("assets/routine-photo-keep.jpg"))
            #expect(try HostileArchiveTests.steppie(["init", "--child", "Mina", "--db", db, "--locale", "en"]).status == 0)
            #expect(try HostileArchiveTests.steppie(["guardian", "set-pin", "--pin-stdin", "--db", db, "--locale", "en"], stdin: "1234\n").status == 0)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        /// Every path under the database folder with its kind, mode, size and content hash.
        func tree() throws -> [String] {
            var out: [String] = []
            let base = home.path
            guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
            while let name = walker.nextObject() as? String {
                let path = base + "/" + name
                let a = try FileManager.default.attributesOfItem(atPath: path)
                let mode = (a[.posixPermissions] as? NSNumber)?.intValue ?? -1
                var line = "\(name) \(a[.type] ?? "") \(String(mode, radix: 8))"
                // The database's bytes may change with the PIN failure count; its rows are compared by dump.
                if a[.type] as? FileAttributeType == .typeRegular, !name.hasPrefix("steppie.db") {
                    line += " \(try Data(contentsOf: URL(fileURLWithPath: path)).hashValue)"
                }
                out.append(line)
            }
            return out.sorted()
        }

        /// The rows, without the device settings (a wrong PIN counts a failure there).
        func rows() throws -> String {
            try Store(path: db, timeZone: TimeZone(identifier: "Asia/Seoul") ?? .current).dump()
                .components(separatedBy: "# ").filter { !$0.hasPrefix("device_settings") && !$0.hasPrefix("schema_migrations") }.joined()
        }
    }

    struct Outcome {
        var status: Int32
        var out: String
        var err: String
        /// Peak resident set size in KiB, from /usr/bin/time.
        var peakKiB: Int?
    }

    /// Runs the real binary; with `limited`, under `ulimit -v 1048576` (1 GiB) and /usr/bin/time.
    static func steppie(_ args: [String], stdin: String? = nil, limited: Bool = false) throws -> Outcome {
        let timeFile = FileManager.default.temporaryDirectory.appendingPathComponent("time-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: timeFile) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        let script = limited ? "ulimit -v 1048576; exec /usr/bin/time -o \"$0\" -f %M \"$@\"" : "exec \"$@\""
        p.arguments = ["-c", script, timeFile, CLIHarness.binary] + args
        let out = Pipe(), err = Pipe(), input = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = input
        try p.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let peak = (try? String(contentsOfFile: timeFile, encoding: .utf8))?.split(separator: "\n").last.flatMap { Int($0) }
        return Outcome(status: p.terminationStatus, out: String(decoding: outData, as: UTF8.self),
                       err: String(decoding: errData, as: UTF8.self), peakKiB: peak)
    }

    /// Builds a hostile archive with Python's zipfile, streaming big entries from a file so the
    /// test itself stays small; the manifest carries the right checksum, so only the cap refuses it.
    static func build(_ h: Hostile, at path: String) throws {
        let script = #"""
import hashlib, os, random, sys, zipfile
kind, out = sys.argv[1], sys.argv[2]
work = out + ".data"
rnd = random.Random(7)
def chunk(alphabet, size):
    return bytes(rnd.choice(alphabet) for _ in range(size))
head = b'{"schemaVersion":2,"exportedAt":"2026-03-02T07:00:00+09:00","routineSets":[],"routines":[],"dailyLogs":[],"children":[],"appSettings":null'
with open(work, "wb") as f:
    if kind == "hugeUnknownField":
        f.write(head + b',"junk":[')
        piece = chunk(b"0123456789", 1 << 20).replace(b"9", b",")
        piece = b"1" + piece.replace(b",,", b",1") + b"1,"
        for _ in range(100): f.write(piece)
        f.write(b'0]}')
    elif kind == "deepNesting":
        f.write(b'{"schemaVersion":2,"routines":' + b"[" * 5000 + b"]" * 5000 + b"}")
    elif kind == "hugeString":
        f.write(b'{"schemaVersion":2,"routineSets":[{"name":{"en":"')
        piece = chunk(b"abcdefghijklmnopqrstuvwxyz", 1 << 20)
        for _ in range(50): f.write(piece)
        f.write(b'"}}]}')
    else:
        f.write(head + b"}")
h = hashlib.sha256()
with open(work, "rb") as f:
    for block in iter(lambda: f.read(1 << 20), b""): h.update(block)
manifest = ('{"app":"Steppie","backupSchemaVersion":2,"createdAt":"2026-03-02T07:00:00+09:00","sourcePlatform":"linux",'
            '"appVersion":"1","dataFile":"data.json","assetDirectory":"assets","checksum":{"algorithm":"sha256","dataJson":"%s"}}' % h.hexdigest())
jpeg_head = bytes.fromhex("ffd8ffe000104a46494600010100000100010000ffc0001108003000400301220002110103110100")
with zipfile.ZipFile(out, "w", compresslevel=1) as z:
    z.writestr(zipfile.ZipInfo("manifest.json"), manifest, compress_type=zipfile.ZIP_DEFLATED)
    z.write(work, "data.json", compress_type=zipfile.ZIP_DEFLATED)
    if kind == "tooManyEntries":
        for n in range(20001 - 2):
            z.writestr(zipfile.ZipInfo("assets/routine-photo-%05d.jpg" % n), jpeg_head)
    elif kind == "zipBombPhoto":
        z.writestr(zipfile.ZipInfo("assets/routine-photo-bomb.jpg"), jpeg_head + bytes((5 << 20) - 100), compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    elif kind == "textPhoto":
        z.writestr(zipfile.ZipInfo("assets/routine-photo-text.jpg"), b"just some text renamed to .jpg\n" * 100)
    elif kind == "htmlPhoto":
        z.writestr(zipfile.ZipInfo("assets/routine-photo-page.png"), b"<!DOCTYPE html><html><body>not a photo</body></html>")
    elif kind == "truncatedPhoto":
        z.writestr(zipfile.ZipInfo("assets/routine-photo-cut.jpg"), jpeg_head[:30])
os.remove(work)
"""#
        let r = try steppiePython(script, [h.rawValue, path])
        #expect(r.status == 0, "\(r.err)")
    }

    static func steppiePython(_ script: String, _ args: [String]) throws -> Outcome {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script] + args
        let err = Pipe()
        p.standardError = err
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Outcome(status: p.terminationStatus, out: "", err: String(decoding: e, as: UTF8.self), peakKiB: nil)
    }

    @Test(arguments: Hostile.allCases)
    func refusedUnderAMemoryLimitWithNothingChanged(_ h: Hostile) throws {
        let place = try Place()
        let archive = place.directory.appendingPathComponent("\(h.rawValue).zip").path
        try Self.build(h, at: archive)
        let before = (try place.tree(), try place.rows())
        for command in [["backup", "verify", archive], ["backup", "restore", archive, "--pin-stdin", "--db", place.db]] {
            let r = try Self.steppie(command + ["--locale", "en"], stdin: "1234\n", limited: true)
            let lines = r.err.split(separator: "\n")
            #expect(r.status == 1, "\(h) \(command[1]): \(r.err)")
            #expect(lines.count == 1 && r.err.contains(Self.expected(h)), "\(h) \(command[1]): \(r.err)")
            #expect(!r.err.contains("Fatal error") && !r.err.contains("Backtrace"), "\(r.err)")
            print("hostile \(h.rawValue) \(command[1]): exit \(r.status), peak RSS \(r.peakKiB.map { "\($0 / 1024) MiB" } ?? "?") under ulimit -v 1 GiB")
        }
        #expect(try place.tree() == before.0)
        #expect(try place.rows() == before.1)
    }

    /// A valid archive of 24 photos of 4 MiB: nothing is extracted while the PIN is asked, and a
    /// wrong PIN leaves no photo byte and no staging folder behind.
    @Test func bigPhotosAndAWrongPinWriteNothing() throws {
        let place = try Place()
        let archive = place.directory.appendingPathComponent("photos.zip").path
        let made = try Self.steppiePython(Self.bigPhotosScript, [archive])
        #expect(made.status == 0, "\(made.err)")
        let before = (try place.tree(), try place.rows())
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "umask 022; ulimit -v 1048576; exec \"$@\"", "sh", CLIHarness.binary,
                       "backup", "restore", archive, "--pin-stdin", "--db", place.db, "--locale", "en"]
        let input = Pipe(), err = Pipe()
        p.standardInput = input
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        // The staging folder appears once everything was read and checked; the PIN is asked then.
        var staging: URL?
        let deadline = Date().addingTimeInterval(120)
        while staging == nil, Date() < deadline, p.isRunning {
            staging = try FileManager.default.contentsOfDirectory(atPath: place.home.path)
                .first { $0.hasPrefix(".steppie-restore-") }.map { place.home.appendingPathComponent($0) }
            if staging == nil { usleep(20_000) }
        }
        let folder = try #require(staging, "the restore never reached the PIN prompt")
        // The folder is made, then its lock file: wait for the lock (the restore then waits for the PIN).
        let lockDeadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("lock").path), Date() < lockDeadline { usleep(5_000) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["lock"], "no photo is written before the PIN")
        let mode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o700)
        input.fileHandleForWriting.write(Data("9999\n".utf8))
        try input.fileHandleForWriting.close()
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 1 && e.contains("PIN"), "\(e)")
        #expect(!e.contains("Fatal error") && !e.contains("Backtrace"))
        #expect(try place.tree() == before.0)
        #expect(try place.rows() == before.1)
    }

    static let bigPhotosScript = #"""
import hashlib, os, sys, zipfile
out = sys.argv[1]
data = b'{"schemaVersion":2,"exportedAt":"2026-03-02T07:00:00+09:00","routineSets":[],"routines":[],"dailyLogs":[],"children":[],"appSettings":null}'
manifest = ('{"app":"Steppie","backupSchemaVersion":2,"createdAt":"2026-03-02T07:00:00+09:00","sourcePlatform":"linux",'
            '"appVersion":"1","dataFile":"data.json","assetDirectory":"assets","checksum":{"algorithm":"sha256","dataJson":"%s"}}' % hashlib.sha256(data).hexdigest())
jpeg_head = bytes.fromhex("ffd8ffe000104a46494600010100000100010000ffc0001108003000400301220002110103110100")
with zipfile.ZipFile(out, "w") as z:
    z.writestr(zipfile.ZipInfo("manifest.json"), manifest)
    z.writestr(zipfile.ZipInfo("data.json"), data)
    for n in range(24):
        z.writestr(zipfile.ZipInfo("assets/routine-photo-big%02d.jpg" % n), jpeg_head + os.urandom((4 << 20) - len(jpeg_head)))
"""#
}
