import Foundation
import SteppieCore
import SteppieStore

/// data.json as read, before the cross-entity checks: entities in either platform's spelling
/// (`routineSetID`/`routineSetId`, `routineID`/`routineId`, `dailyStartTime`/`startTime`).
struct DecodedData {
    var schemaVersion: Int
    var routineSets: [RoutineSet]
    /// Whether each set (same index) named its child; only this project's backups do.
    var setHasChild: [Bool]
    var routines: [Routine]
    var dailyLogs: DailyLogRecords
    /// This project's extension; nil in backups from the iOS and Android apps.
    var children: [Child]?
    /// This project's extension (weekly schedule slots); nil in phone backups and in Linux
    /// backups made before schedules travelled.
    var weeklySchedules: [ScheduleRecord]?
    /// What completions showed (schema v8); empty when the backup has none.
    var routineLooks: [RoutineLook] = []
    /// The SHA-256 the device recorded for photo files, by name (`photoHashes`); empty when none.
    var photoHashes: [String: String] = [:]
    /// This project's extension (the guardian's recorded titles, each naming its file under
    /// `recordings/`); nil in phone backups and in Linux backups made before recordings travelled.
    var recordings: [RoutineRecording]?
    var appSettings: JSONObject?
}

/// data.json parsed: the tree without its daily logs, and the logs already decoded.
struct ParsedData {
    var root: JSONValue
    fileprivate var logs: StreamedLogs
    /// How many logs were decoded straight from their bytes (the rest went through a tree).
    var flatLogs: Int { logs.flat }
}

/// Decodes the JSON tree of data.json into entities, naming the path of any bad field.
struct DataFileReader {
    /// The child that sets without a `childId` are given (backups from the iOS and Android apps).
    let defaultChildId: UUID
    var limits = BackupLimits()
    /// Whether flat logs are decoded straight from their bytes (tests turn it off to compare
    /// with the usual path).
    var decodesFlatLogs = true

    /// Every key Steppie reads from data.json, in either platform's spelling; any other key is
    /// skipped by the parser without building its value.
    static let knownKeys: Set<String> = [
        "schemaVersion", "exportedAt", "routineSets", "routines", "dailyLogs", "appSettings", "children",
        "weeklySchedules", "weekday", "start", "routineLooks", "lookId", "photoSha256", "photoHashes", "recordings", "durationMs", "file",
        "id", "childId", "childID", "name", "isActive", "startTime", "dailyStartTime", "createdAt", "updatedAt", "deletedAt",
        "routineSetId", "routineSetID", "titleKey", "title", "icon", "type", "localAssetId", "backupAssetName",
        "colorToken", "order", "scheduledTime", "date", "routineId", "routineID", "status", "completedAt",
        "displayName", "profile", "archivedAt", "picture", "guardianPinHash", "recoveryCodeHash", "locale",
        "intensity", "feedbackIntensity", "soundEnabled", "ttsEnabled", "hapticEnabled", "ttsRate", "ttsVolume",
        "volumeCap", "pitch", "voiceVariant", "undoDurationSeconds", "notificationLeadTimes", "quietHoursStart", "quietHoursEnd",
    ]

    /// How data.json is parsed: the limits, the known keys, and LocalizedText objects (`title`,
    /// `name`) keeping every language tag.
    static func parseOptions(_ limits: BackupLimits) -> JSONParseOptions {
        JSONParseOptions(maxDepth: limits.maxJSONDepth, maxStringBytes: limits.maxJSONStringBytes,
                         maxUnknownValueBytes: limits.maxUnknownValueBytes, maxStructureBytes: limits.maxStructureBytes,
                         knownKeys: knownKeys, openKeys: ["title", "name", "photoHashes"])
    }

    /// Decodes a whole parsed tree (the reference path; `decode(bytes:)` gives the same result).
    func decode(_ root: JSONValue) throws -> DecodedData {
        try decode(root, streamedLogs: nil)
    }

    /// Parses data.json and decodes it in one pass: each daily log becomes a `DailyLog` as soon
    /// as it is parsed, so the logs never exist as a JSON tree. The result, and the first error
    /// (JSON syntax first, then fields in the order `decode(_:)` checks them), are the same.
    func decode(bytes: [UInt8]) throws -> DecodedData {
        try decode(try parse(bytes: bytes))
    }

    /// Parses data.json held in memory (tests; a restore streams it with `parse(source:)`).
    func parse(bytes: [UInt8]) throws -> ParsedData {
        let logs = StreamedLogs(capacity: bytes.count / 256)
        let root = try mapErrors {
            try JSONParser.parse(bytes, options: Self.parseOptions(limits), streaming: "dailyLogs",
                                 flat: decodesFlatLogs ? flatLogHandler(logs) : nil, into: logHandler(logs))
        }
        return ParsedData(root: root, logs: logs)
    }

    /// Parses data.json pulled chunk by chunk from `source` (the zip entry as it inflates); its
    /// errors are rethrown unchanged.
    func parse(source: @escaping JSONParser.Source, expectedBytes: UInt64) throws -> ParsedData {
        let logs = StreamedLogs(capacity: Int(min(expectedBytes / 256, UInt64(limits.maxDailyLogs))))
        let root = try mapErrors {
            try JSONParser.parse(source: source, options: Self.parseOptions(limits), streaming: "dailyLogs",
                                 flat: decodesFlatLogs ? flatLogHandler(logs) : nil, into: logHandler(logs))
        }
        return ParsedData(root: root, logs: logs)
    }

    /// Decodes what `parse` kept (after the caller compared the checksum).
    func decode(_ parsed: ParsedData) throws -> DecodedData {
        try decode(parsed.root, streamedLogs: parsed.logs)
    }

    private func logHandler(_ logs: StreamedLogs) -> JSONParser.ElementHandler {
        let cap = limits.maxDailyLogs
        return { value, n in
            guard n < cap else { throw BackupError.tooManyRecords(kind: .dailyLogs, limit: cap) }
            // After the first bad log the rest are only syntax-checked; the error is thrown
            // where `decode(_:)` would decode the logs.
            guard logs.error == nil else { return }
            do { logs.records.append(try log(value, path: "dailyLogs[\(n)]")) } catch { logs.error = error }
        }
    }

    /// The usual case of a log, taken from its bytes: every field a plain string (or null where
    /// null is allowed) under one of the log's own keys, each key once, every value valid. Anything
    /// else is declined and goes through `logHandler`, which names the bad field as before.
    private func flatLogHandler(_ logs: StreamedLogs) -> JSONParser.FlatHandler {
        let cap = limits.maxDailyLogs
        return { element, members, n in
            guard n < cap, let base = element.baseAddress else { return false }
            guard let log = LogFields(base, members) else { return false }
            // After a bad log the rest are only syntax-checked (as in `logHandler`).
            guard logs.error == nil else { return true }
            func bytes(_ m: Int) -> UnsafeBufferPointer<UInt8>? {
                guard m >= 0, members[m].valueCount >= 0 else { return nil }
                return UnsafeBufferPointer(start: base + Int(members[m].valueStart), count: Int(members[m].valueCount))
            }
            guard let statusText = bytes(log.status), let status = LogFields.status(statusText),
                  let idText = bytes(log.id), let id = UUIDText.parse(idText),
                  let dayText = bytes(log.date), let day = LocalDay(utf8: dayText),
                  let routineText = bytes(log.routineId) ?? bytes(log.routineID), let routine = UUIDText.parse(routineText),
                  let setText = bytes(log.routineSetId) ?? bytes(log.routineSetID), let set = UUIDText.parse(setText),
                  let createdText = bytes(log.createdAt), let created = Timestamp.parse(utf8: createdText) else { return false }
            var completed: Date?
            if let text = bytes(log.completedAt) {
                guard let d = Timestamp.parse(utf8: text) else { return false }
                completed = d
            }
            var updated = created
            if let text = bytes(log.updatedAt) {
                guard let d = Timestamp.parse(utf8: text) else { return false }
                updated = d
            }
            var look: UUID?
            if let text = bytes(log.lookId) {
                guard let u = UUIDText.parse(text) else { return false }
                look = u
            }
            let routineRef = logs.records.ref(routine), setRef = logs.records.ref(set)
            var lookRef: UInt32?
            if let look { lookRef = logs.records.ref(look) }
            logs.records.append(id: id, day: Int32(truncatingIfNeeded: day.dayNumber), routine: routineRef, set: setRef, status: status,
                                completedAt: completed, createdAt: created, updatedAt: updated, look: lookRef)
            logs.flat += 1
            return true
        }
    }

    /// Turns the parser's limit and syntax errors into backup errors about data.json.
    private func mapErrors<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as JSONParseError {
            throw error.backupError(entry: "data.json", limits: limits)
        }
    }

    private func decode(_ root: JSONValue, streamedLogs: StreamedLogs?) throws -> DecodedData {
        let o = try JSONObject(root, path: "data")
        for kind in [RecordKind.routineSets, .routines, .children, .dailyLogs, .weeklySchedules, .routineLooks] {
            if case .array(let items)? = o.fields[kind.rawValue], items.count > limits.maxRecords(kind) {
                throw BackupError.tooManyRecords(kind: kind, limit: limits.maxRecords(kind))
            }
        }
        let version = try o.int("schemaVersion")
        guard BackupManifest.supportedSchemaVersions.contains(version) else { throw BackupError.unsupportedSchemaVersion(version) }
        var sets: [RoutineSet] = []
        var setHasChild: [Bool] = []
        for (n, v) in try o.array("routineSets").enumerated() {
            let s = try JSONObject(v, path: "routineSets[\(n)]")
            let child = try s.optionalUUID("childId", "childID")
            sets.append(RoutineSet(id: try s.uuid("id"), childId: child ?? defaultChildId, name: try s.text("name"),
                                   isActive: try s.bool("isActive", default: false),
                                   startTime: try s.optionalTime("startTime", "dailyStartTime"),
                                   createdAt: try s.stamp("createdAt"), updatedAt: try s.optionalStamp("updatedAt"),
                                   deletedAt: try s.optionalStamp("deletedAt")))
            setHasChild.append(child != nil)
        }
        let routines = try o.array("routines").enumerated().map { n, v in try routine(v, path: "routines[\(n)]") }
        let logs: DailyLogRecords
        if let streamedLogs {
            // A streamed array left an empty one in the tree; anything else is refused here as before.
            _ = try o.array("dailyLogs")
            if let error = streamedLogs.error { throw error }
            logs = streamedLogs.records
            streamedLogs.records.removeAll()
        } else {
            logs = DailyLogRecords(try o.array("dailyLogs").enumerated().map { n, v in try log(v, path: "dailyLogs[\(n)]") })
        }
        var children: [Child]?
        if o.has("children") {
            children = try o.array("children").enumerated().map { n, v in try child(v, path: "children[\(n)]") }
        }
        var schedules: [ScheduleRecord]?
        if o.has("weeklySchedules") {
            schedules = try o.array("weeklySchedules").enumerated().map { n, v in try scheduleSlot(v, path: "weeklySchedules[\(n)]") }
        }
        var looks: [RoutineLook] = []
        if o.has("routineLooks") {
            looks = try o.array("routineLooks").enumerated().map { n, v in try look(v, path: "routineLooks[\(n)]") }
        }
        var hashes: [String: String] = [:]
        if o.has("photoHashes") {
            for (name, sha) in try o.text("photoHashes").values {
                guard RoutineLook.isSha256(sha) else {
                    throw BackupError.dataInvalid(path: "data.photoHashes.\(Validator.printable(name))", reason: "expected 64 lowercase hex digits")
                }
                hashes[name] = sha
            }
        }
        var recordings: [RoutineRecording]?
        if o.has("recordings") {
            let items = try o.array("recordings")
            // At most one per routine and language: two languages for every routine.
            guard items.count <= 2 * limits.maxRoutines else { throw BackupError.tooManyRecords(kind: .routines, limit: limits.maxRoutines) }
            recordings = try items.enumerated().map { n, v in
                let r = try JSONObject(v, path: "recordings[\(n)]")
                return RoutineRecording(routineId: try r.uuid("routineId"), locale: try r.string("locale"), fileName: try r.string("file"),
                                        durationMs: try r.int("durationMs"), createdAt: try r.stamp("createdAt"))
            }
        }
        return DecodedData(schemaVersion: version, routineSets: sets, setHasChild: setHasChild, routines: routines,
                           dailyLogs: logs, children: children, weeklySchedules: schedules, routineLooks: looks,
                           photoHashes: hashes, recordings: recordings, appSettings: try o.object("appSettings"))
    }

    private func scheduleSlot(_ v: JSONValue, path: String) throws -> ScheduleRecord {
        let o = try JSONObject(v, path: path)
        let code = try o.string("weekday")
        guard let day = Weekday(code: code) else {
            throw BackupError.dataInvalid(path: "\(path).weekday", reason: "expected mon, tue, wed, thu, fri, sat or sun, got \(Validator.printable(code))")
        }
        guard let start = try o.optionalTime("start") else { throw BackupError.dataInvalid(path: "\(path).start", reason: "missing") }
        let created = try o.stamp("createdAt")
        return ScheduleRecord(childId: try o.uuid("childId"), slot: ScheduleSlot(weekday: day, start: start, routineSetId: try o.uuid("routineSetId")),
                              createdAt: created, updatedAt: try o.optionalStamp("updatedAt") ?? created)
    }

    private func icon(_ r: JSONObject, path: String) throws -> IconRef {
        guard let iconObject = try r.object("icon") else { throw BackupError.dataInvalid(path: "\(path).icon", reason: "missing") }
        return try Self.icon(iconObject, path: "\(path).icon")
    }

    private func look(_ v: JSONValue, path: String) throws -> RoutineLook {
        let k = try JSONObject(v, path: path)
        let sha = try k.optionalString("photoSha256")
        if let sha, !RoutineLook.isSha256(sha) {
            throw BackupError.dataInvalid(path: "\(path).photoSha256", reason: "expected 64 lowercase hex digits, got \(Validator.printable(sha))")
        }
        return RoutineLook(id: try k.uuid("id"), routineId: try k.uuid("routineId", "routineID"), title: try k.text("title"),
                           icon: try icon(k, path: path), photoSha256: sha, createdAt: try k.stamp("createdAt"))
    }

    private func routine(_ v: JSONValue, path: String) throws -> Routine {
        let r = try JSONObject(v, path: path)
        let shown = try icon(r, path: path)
        return Routine(id: try r.uuid("id"), routineSetId: try r.uuid("routineSetId", "routineSetID"),
                       titleKey: try r.optionalString("titleKey"), title: try r.text("title"), icon: shown,
                       colorToken: try r.optionalString("colorToken") ?? CardColor.sky.token, order: try r.int("order"),
                       scheduledTime: try r.optionalTime("scheduledTime"), isActive: try r.bool("isActive", default: true),
                       createdAt: try r.stamp("createdAt"), updatedAt: try r.optionalStamp("updatedAt"),
                       deletedAt: try r.optionalStamp("deletedAt"))
    }

    private func log(_ v: JSONValue, path: String) throws -> DailyLog {
        let l = try JSONObject(v, path: path)
        let statusText = try l.string("status")
        guard let status = LogStatus(rawValue: statusText) else {
            throw BackupError.dataInvalid(path: "\(path).status", reason: "expected completed or undone, got \(Validator.printable(statusText))")
        }
        return DailyLog(id: try l.uuid("id"), date: try l.day("date"), routineId: try l.uuid("routineId", "routineID"),
                        routineSetId: try l.uuid("routineSetId", "routineSetID"), status: status,
                        completedAt: try l.optionalStamp("completedAt"), createdAt: try l.stamp("createdAt"),
                        updatedAt: try l.optionalStamp("updatedAt"), lookId: try l.optionalUUID("lookId"))
    }

    /// A routine's `icon` or a child's `picture`: a builtin name or a photo in `assets/`.
    private static func icon(_ o: JSONObject, path: String) throws -> IconRef {
        switch try o.string("type") {
        case "builtin": return .builtin(name: try o.string("name"))
        case "photo":
            return .photo(localAssetId: try o.optionalString("localAssetId") ?? UUID().uuidString,
                          backupAssetName: try o.string("backupAssetName"))
        case let other: throw BackupError.dataInvalid(path: "\(path).type", reason: "expected builtin or photo, got \(other)")
        }
    }

    private func child(_ v: JSONValue, path: String) throws -> Child {
        let c = try JSONObject(v, path: path)
        let profile = try c.object("profile").map { try DataFileReader.profile($0, intensityKey: "intensity") } ?? FeedbackProfile()
        // A backup from before children had pictures has none: the picker draws the default.
        let picture = try c.object("picture").map { try Self.icon($0, path: "\(path).picture") }
        return Child(id: try c.uuid("id"), displayName: try c.string("displayName"), profile: profile,
                     createdAt: try c.stamp("createdAt"), updatedAt: try c.optionalStamp("updatedAt"),
                     archivedAt: try c.optionalStamp("archivedAt"), picture: picture)
    }

    /// A feedback profile from a child's `profile` or from the contract's `appSettings`
    /// (whose intensity is `feedbackIntensity`); missing fields take the contract's defaults.
    static func profile(_ o: JSONObject, intensityKey: String) throws -> FeedbackProfile {
        var p = FeedbackProfile()
        if let text = try o.optionalString(intensityKey) {
            guard let intensity = FeedbackIntensity(rawValue: text) else {
                throw BackupError.dataInvalid(path: "\(o.path).\(intensityKey)", reason: "expected strong, normal, quiet or off")
            }
            p.intensity = intensity
        }
        p.soundEnabled = try o.bool("soundEnabled", default: p.soundEnabled)
        p.ttsEnabled = try o.bool("ttsEnabled", default: p.ttsEnabled)
        p.hapticEnabled = try o.bool("hapticEnabled", default: p.hapticEnabled)
        p.ttsRate = try o.double("ttsRate", default: p.ttsRate)
        p.ttsVolume = try o.double("ttsVolume", default: p.ttsVolume)
        p.volumeCap = try o.double("volumeCap", default: p.volumeCap)
        p.pitch = try o.int("pitch", default: p.pitch)
        p.voiceVariant = try o.optionalString("voiceVariant")
        p.undoDurationSeconds = try o.int("undoDurationSeconds", default: p.undoDurationSeconds)
        p.notificationLeadTimes = try o.ints("notificationLeadTimes", default: p.notificationLeadTimes)
        p.quietHoursStart = try o.optionalTime("quietHoursStart")
        p.quietHoursEnd = try o.optionalTime("quietHoursEnd")
        p.locale = try o.optionalString("locale")
        return p
    }
}

/// The daily logs decoded while data.json streams by, and the first one that failed.
final class StreamedLogs {
    var records: DailyLogRecords
    var error: (any Error)?
    var flat = 0

    /// `capacity` is a guess from the document size; the records grow past it if needed.
    init(capacity: Int) { records = DailyLogRecords(capacity: capacity) }
}

/// Which member of a flat log object holds which field (-1: absent). Built only when every key is
/// one of the log's own, each at most once; otherwise the log goes the usual way.
private struct LogFields {
    var id = -1, date = -1, routineId = -1, routineID = -1, routineSetId = -1, routineSetID = -1
    var status = -1, completedAt = -1, createdAt = -1, updatedAt = -1, lookId = -1

    init?(_ base: UnsafePointer<UInt8>, _ members: UnsafeBufferPointer<JSONParser.FlatMember>) {
        // A key twice is a syntax error the usual path reports.
        @inline(__always) func put(_ slot: inout Int, _ n: Int) -> Bool {
            guard slot < 0 else { return false }
            slot = n
            return true
        }
        for (n, m) in members.enumerated() {
            let key = UnsafeBufferPointer(start: base + Int(m.keyStart), count: Int(m.keyCount))
            let known: Bool
            switch key.count {
            case 2 where Self.equal(key, "id"): known = put(&id, n)
            case 4 where Self.equal(key, "date"): known = put(&date, n)
            case 6 where Self.equal(key, "status"): known = put(&status, n)
            case 6 where Self.equal(key, "lookId"): known = put(&lookId, n)
            case 9 where Self.equal(key, "routineId"): known = put(&routineId, n)
            case 9 where Self.equal(key, "routineID"): known = put(&routineID, n)
            case 9 where Self.equal(key, "createdAt"): known = put(&createdAt, n)
            case 9 where Self.equal(key, "updatedAt"): known = put(&updatedAt, n)
            case 11 where Self.equal(key, "completedAt"): known = put(&completedAt, n)
            case 12 where Self.equal(key, "routineSetId"): known = put(&routineSetId, n)
            case 12 where Self.equal(key, "routineSetID"): known = put(&routineSetID, n)
            default: known = false
            }
            guard known else { return nil }
        }
    }

    static func status(_ text: UnsafeBufferPointer<UInt8>) -> LogStatus? {
        if equal(text, "completed") { return .completed }
        if equal(text, "undone") { return .undone }
        return nil
    }

    static func equal(_ text: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard text.count == word.utf8CodeUnitCount, let p = text.baseAddress else { return false }
        return memcmp(p, word.utf8Start, text.count) == 0
    }
}

extension JSONParseError {
    /// The backup error for this parse error in `entry`: a limit by its own case, syntax as
    /// `dataInvalid` (data.json) or `manifestInvalid` (manifest.json).
    func backupError(entry: String, limits: BackupLimits) -> BackupError {
        switch kind {
        case .tooDeep: return .jsonTooDeep(name: entry, limit: limits.maxJSONDepth)
        case .stringTooLong: return .jsonStringTooLong(name: entry, offset: offset, limit: limits.maxJSONStringBytes)
        case .unknownTooLarge(let field): return .unknownFieldTooLarge(name: entry, field: Validator.printable(field), limit: limits.maxUnknownValueBytes)
        case .structureTooLarge: return .dataStructureTooLarge(limit: limits.maxStructureBytes)
        case .syntax, .forwarded:
            if entry == "manifest.json" { return .manifestInvalid(field: "manifest", reason: "not JSON (\(reason) at byte \(offset))") }
            return .dataInvalid(path: entry, reason: "\(reason) at byte \(offset)")
        }
    }
}
