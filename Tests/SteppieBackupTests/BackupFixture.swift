import Foundation
import SteppieCore
import SteppieSecurity
@testable import SteppieBackup
@testable import SteppieStore

/// A database with assets beside it, in a temporary directory removed when the fixture goes away.
final class BackupFixture {
    let directory: URL
    let dbPath: String
    let assets: URL
    let store: Store
    let zone = TimeZone(identifier: "Asia/Seoul") ?? .current
    let now = Timestamp.parse("2026-03-02T07:00:00.250+09:00") ?? Date()

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        dbPath = directory.appendingPathComponent("db/steppie.db").path
        store = try Store(path: dbPath, timeZone: zone)
        assets = BackupCreator.assetsDirectory(forDatabase: dbPath)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Two children, sets, routines (two with photos), a week of logs, weekly schedules, a PIN hash,
    /// two photos.
    func populate() throws {
        try store.ensureDeviceSettings(at: now)
        try store.db.run("UPDATE device_settings SET guardian_pin_hash = ?, recovery_code_hash = ?, locale = 'ko'",
                         [.text("$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA"), .text("$argon2id$v=19$m=65536,t=2,p=1$c2FsdDI$aGFzaDI")])
        var profile = FeedbackProfile()
        profile.intensity = .quiet
        profile.ttsRate = 0.75
        profile.quietHoursStart = LocalTime("21:00")
        profile.quietHoursEnd = LocalTime("07:00")
        profile.voiceVariant = "f2"
        let mina = try store.addChild(name: "Mina", profile: profile, at: now)
        let joon = try store.addChild(name: "준호 \"J\" \\ /", at: now.addingTimeInterval(1))
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        for child in [mina, joon] {
            let morning = try store.createSet(childId: child.id, template: .morning, startTime: LocalTime("06:30"), at: now)
            let evening = try store.createSet(childId: child.id, name: LocalizedText(["en": "Evening \"quoted\" \\ /", "ko": "저녁 🌙"]), at: now)
            let photoName = "routine-photo-\(child.id.uuidString.prefix(8)).jpg"
            try Data(jpeg(payload: (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })).write(to: assets.appendingPathComponent(photoName))
            let photo = try store.addRoutine(setId: evening.id, title: LocalizedText(["en": "Pyjamas"]),
                                             icon: .photo(localAssetId: UUID().uuidString, backupAssetName: photoName),
                                             scheduledTime: LocalTime("20:15"), titleKey: nil, at: now.addingTimeInterval(0.123))
            _ = photo
            var old = try store.addRoutine(setId: evening.id, title: LocalizedText(ko: "책", en: "Book"), icon: .builtin(name: "book"), at: now)
            old.deletedAt = now.addingTimeInterval(5)
            try store.updateRoutine(old, at: now.addingTimeInterval(5))
            for d in 0..<7 {
                let day = LocalDay(now, in: zone).adding(days: -d)
                let at = day.instant(at: LocalTime(hour: 7, minute: 10)!, in: zone)
                try store.complete(childId: child.id, day: day, at: at)
                if d % 2 == 0 { _ = try store.undo(childId: child.id, day: day, at: at.addingTimeInterval(2), windowSeconds: 10) }
            }
            // A weekly schedule: the morning set on school days at 06:00, the evening one every day at 18:00.
            try store.setSchedule(childId: child.id, entries: [
                ScheduleEntry(weekdays: [.monday, .tuesday, .wednesday, .thursday, .friday], start: LocalTime("06:00")!, routineSetId: morning.id),
                ScheduleEntry(weekdays: Set(Weekday.allCases), start: LocalTime("18:00")!, routineSetId: evening.id),
            ], at: now)
        }
    }

    /// Every asset file's bytes by name (empty when the folder does not exist).
    func assetFiles() throws -> [String: Data] {
        guard FileManager.default.fileExists(atPath: assets.path) else { return [:] }
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: assets.path) {
            out[name] = try Data(contentsOf: assets.appendingPathComponent(name))
        }
        return out
    }

    /// Names left in the database folder (to catch staging directories that stayed behind).
    func databaseFolder() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: dbPath).deletingLastPathComponent().path).sorted()
    }
}

/// Runs a program and returns its exit status and output.
@discardableResult
func run(_ arguments: [String], stdin: String? = nil) throws -> (status: Int32, output: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = arguments
    let out = Pipe()
    p.standardOutput = out
    p.standardError = out
    let input = Pipe()
    p.standardInput = input
    try p.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// One entry of a hand-built archive.
struct TestEntry {
    var name: String
    var bytes: [UInt8]
    var deflate = true
    var level = 6
}

/// Builds a ZIP with Python's zipfile, which writes whatever names it is given (`../evil` too).
func makeZip(at path: URL, _ entries: [TestEntry]) throws {
    let spec = entries.map { ["name": $0.name, "data": Data($0.bytes).base64EncodedString(), "deflate": $0.deflate, "level": $0.level] as [String: Any] }
    let specURL = path.appendingPathExtension("spec.json")
    try JSONSerialization.data(withJSONObject: spec).write(to: specURL)
    let script = """
    import base64, json, sys, zipfile
    spec = json.load(open(sys.argv[1]))
    with zipfile.ZipFile(sys.argv[2], 'w') as z:
        for e in spec:
            info = zipfile.ZipInfo(e['name'], date_time=(2026, 3, 2, 7, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED if e['deflate'] else zipfile.ZIP_STORED
            info.external_attr = (0o40755 << 16) | 0x10 if e['name'].endswith('/') else 0o644 << 16
            z.writestr(info, base64.b64decode(e['data']), compresslevel=e['level'] if e['deflate'] else None)
    """
    let result = try run(["python3", "-c", script, specURL.path, path.path])
    try? FileManager.default.removeItem(at: specURL)
    guard result.status == 0 else { throw FixtureError.tool(result.output) }
}

/// A manifest for hand-built archives, with the checksum of `data`.
func manifest(for data: [UInt8], platform: String = "linux", version: Int = 2, app: String = "Steppie",
              checksum: String? = nil, pretty: Bool = false) throws -> [UInt8] {
    let object: [String: Any] = [
        "app": app, "backupSchemaVersion": version, "createdAt": "2026-03-02T07:00:00+09:00", "sourcePlatform": platform,
        "appVersion": "1.0.0", "dataFile": "data.json", "assetDirectory": "assets",
        "checksum": ["algorithm": "sha256", "dataJson": checksum ?? SHA256.hex(of: Data(data))],
    ]
    return Array(try JSONSerialization.data(withJSONObject: object, options: pretty ? [.prettyPrinted, .sortedKeys] : []))
}

enum FixtureError: Error { case tool(String) }

/// A small real JPEG: SOI, a JFIF segment, a baseline frame header of `width`×`height`, then `payload`.
func jpeg(width: Int = 64, height: Int = 48, payload: [UInt8] = [0x01, 0x02, 0x03]) -> [UInt8] {
    [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
     0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
     0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01] + payload + [0xFF, 0xD9]
}

/// A small real PNG signature and IHDR chunk (with its CRC, computed by Python's zlib), then `payload`.
func png(width: UInt32 = 2, height: UInt32 = 2, payload: [UInt8] = [], crc: UInt32? = nil) -> [UInt8] {
    func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    let body: [UInt8] = Array("IHDR".utf8) + be(width) + be(height) + [8, 6, 0, 0, 0]
    let sum = crc ?? (try? run(["python3", "-c", "import sys,zlib; print(zlib.crc32(bytes.fromhex(sys.argv[1])))",
                               body.map { String(format: "%02x", $0) }.joined()]))
        .flatMap { UInt32($0.output.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + body + be(sum) + payload
}

extension Store {
    /// `dump()` without `schema_migrations`, whose timestamps say when each file was created.
    func dataDump() throws -> String {
        var out: [Substring] = []
        var skipping = false
        for line in try dump().split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# ") { skipping = line == "# schema_migrations" }
            if !skipping { out.append(line) }
        }
        return out.joined(separator: "\n")
    }
}
