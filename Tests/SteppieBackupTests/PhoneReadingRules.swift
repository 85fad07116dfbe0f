import Foundation
import SteppieSecurity
@testable import SteppieBackup

/// The reading rules of the iOS and Android apps, as their readers apply them to a backup archive
/// (the reference notes' "Backup contract" and the apps' `BackupService`/`BackupJson`, listed in
/// docs/backup.md, "Back to the phone"). Each rule is judged on its own and named, so a test
/// `#expect`s every one with its name; an archive the phone would refuse fails at least one.
/// Shared by the backup tests and the guardian pages' tests (a link in Tests/SteppieServiceTests).
struct PhoneReadingRules {
    struct Verdict: CustomStringConvertible {
        var rule: String
        var ok: Bool
        var detail: String
        var description: String { "\(rule): \(ok ? "holds" : "BROKEN") \(detail)" }
    }

    enum Target: String { case ios, android }

    let target: Target
    private(set) var verdicts: [Verdict] = []
    /// The archive's entries by name, inflated (through libzip, our `ZipReader`).
    private(set) var entries: [String: [UInt8]] = [:]
    private(set) var names: [String] = []
    var ios: Bool { target == .ios }

    /// The PIN hashes of the device the archive was made on: none may appear anywhere in it.
    init(archive path: String, target: Target, deviceSecrets: [String] = []) throws {
        self.target = target
        let fileName = (path as NSString).lastPathComponent
        rule("file.name", fileName.range(of: #"^steppie-backup-\d{8}-\d{6}\.zip$"#, options: .regularExpression) != nil
             || !fileName.hasPrefix("steppie-backup"), fileName)
        let reader = try ZipReader(path: path)
        let infos = try reader.entries()
        for info in infos {
            var bytes: [UInt8] = []
            try reader.read(info, limit: 64 << 20) { bytes.append(contentsOf: $0) }
            names.append(info.name)
            entries[info.name] = bytes
        }
        rule("entries.unique", Set(names).count == names.count, "\(names)")
        rule("entries.required", names.prefix(3) == ["manifest.json", "data.json", "assets/"], "\(names)")
        let others = names.dropFirst(3)
        rule("entries.assets", others.allSatisfy { $0.hasPrefix("assets/") && $0.split(separator: "/").count == 2 }, "\(others)")
        let raw = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        if ios {
            // iOS's own reader walks the local headers: method 0 (stored) only, no data descriptor.
            let walked = Self.iosLocalHeaders(raw)
            rule("zip.ios.storedOnly", walked.map { $0.method } == Array(repeating: 0, count: names.count) && infos.allSatisfy { $0.method == 0 },
                 "\(walked.map(\.method))")
            rule("zip.ios.noDataDescriptor", walked.allSatisfy { $0.flags & 0x0008 == 0 }, "\(walked.map(\.flags))")
            rule("zip.ios.walkFindsEvery", walked.map(\.name) == names, "\(walked.map(\.name))")
            rule("zip.ios.walkSameBytes", walked.allSatisfy { entries[$0.name] == $0.bytes }, "")
        }
        try checkManifest()
        try checkData(deviceSecrets: deviceSecrets, raw: raw)
        for name in names where name.hasPrefix("assets/") && name != "assets/" {
            let file = String(name.dropFirst(7))
            rule("asset.size ≤ 5 MiB", (entries[name]?.count ?? 0) <= 5 << 20, name)
            rule("asset.name", Self.photoName(file), name)
        }
    }

    var failures: [Verdict] { verdicts.filter { !$0.ok } }

    func verdict(_ rule: String) -> Verdict? { verdicts.last { $0.rule == rule } }

    private mutating func rule(_ name: String, _ ok: Bool, _ detail: String = "") {
        verdicts.append(Verdict(rule: name, ok: ok, detail: ok ? "" : detail))
    }

    // MARK: manifest.json

    private mutating func checkManifest() throws {
        let bytes = entries["manifest.json"] ?? []
        let m = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
        rule("manifest.json", !m.isEmpty)
        rule("manifest.app", m["app"] as? String == "Steppie", "\(m["app"] ?? "nil")")
        let version = m["backupSchemaVersion"] as? Int
        rule("manifest.backupSchemaVersion", ios ? version == 1 : (1...2).contains(version ?? 0), "\(version ?? -1)")
        rule("manifest.createdAt", stamp(m["createdAt"]), "\(m["createdAt"] ?? "nil")")
        rule("manifest.sourcePlatform", m["sourcePlatform"] as? String == target.rawValue, "\(m["sourcePlatform"] ?? "nil")")
        rule("manifest.appVersion", !((m["appVersion"] as? String) ?? "").isEmpty)
        rule("manifest.dataFile", m["dataFile"] as? String == "data.json")
        rule("manifest.assetDirectory", m["assetDirectory"] as? String == "assets")
        let sum = m["checksum"] as? [String: Any] ?? [:]
        rule("manifest.checksum.algorithm", sum["algorithm"] as? String == "sha256")
        let hex = sum["dataJson"] as? String ?? ""
        rule("manifest.checksum.lowercaseHex", hex.count == 64 && hex.allSatisfy { "0123456789abcdef".contains($0) }, hex)
        rule("manifest.checksum.matches", hex == SHA256.hex(of: Data(entries["data.json"] ?? [])), hex)
        if ios { rule("manifest.ios.prettySortedKeys", Self.prettySorted(bytes), String(decoding: bytes, as: UTF8.self)) }
    }

    // MARK: data.json

    private mutating func checkData(deviceSecrets: [String], raw: [UInt8]) throws {
        let bytes = entries["data.json"] ?? []
        let text = String(decoding: bytes, as: UTF8.self)
        let d = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
        rule("data.json", !d.isEmpty)
        let version = d["schemaVersion"] as? Int
        rule("data.schemaVersion", ios ? version == 1 : (1...2).contains(version ?? 0), "\(version ?? -1)")
        rule("data.exportedAt", stamp(d["exportedAt"]), "\(d["exportedAt"] ?? "nil")")
        let sets = d["routineSets"] as? [[String: Any]], routines = d["routines"] as? [[String: Any]]
        let logs = d["dailyLogs"] as? [[String: Any]], settings = d["appSettings"] as? [String: Any]
        rule("data.required", sets != nil && routines != nil && logs != nil && settings != nil, "\(d.keys.sorted())")
        if ios {
            rule("data.ios.dailyRoutineAssignments", (d["dailyRoutineAssignments"] as? [Any])?.isEmpty == true)
            rule("data.ios.prettySortedKeys", Self.prettySorted(bytes), String(text.prefix(300)))
        }
        let sets_ = sets ?? [], routines_ = routines ?? [], logs_ = logs ?? []
        let setKey = ios ? "routineSetID" : "routineSetId", routineKey = ios ? "routineID" : "routineId"
        let otherSetKey = ios ? "routineSetId" : "routineSetID", otherRoutineKey = ios ? "routineId" : "routineID"
        let startKey = ios ? "dailyStartTime" : "startTime", otherStartKey = ios ? "startTime" : "dailyStartTime"

        // Fields the reader requires, and the spelling of this platform.
        rule("set.required", sets_.allSatisfy { s in s["id"] is String && s["name"] is [String: Any] && s["isActive"] is Bool
                && s["createdAt"] is String && s["updatedAt"] is String }, "")
        rule("routine.required", routines_.allSatisfy { r in r["id"] is String && r[setKey] is String && r["title"] is [String: Any]
                && r["icon"] is [String: Any] && r["colorToken"] is String && r["order"] is Int && r["isActive"] is Bool
                && r["createdAt"] is String && r["updatedAt"] is String }, "")
        rule("log.required", logs_.allSatisfy { l in l["id"] is String && l["date"] is String && l[routineKey] is String && l[setKey] is String
                && l["status"] is String && l["createdAt"] is String && l["updatedAt"] is String }, "")
        rule("fields.spelling", sets_.allSatisfy { $0[otherStartKey] == nil } && routines_.allSatisfy { $0[otherSetKey] == nil }
             && logs_.allSatisfy { $0[otherSetKey] == nil && $0[otherRoutineKey] == nil }, "")
        if !ios {
            // Android writes every optional field, `null` when absent.
            rule("android.explicitNulls", sets_.allSatisfy { $0.keys.contains("deletedAt") && $0.keys.contains("startTime") }
                 && routines_.allSatisfy { $0.keys.contains("deletedAt") && $0.keys.contains("titleKey") && $0.keys.contains("scheduledTime") }
                 && logs_.allSatisfy { $0.keys.contains("completedAt") }, "")
        } else {
            rule("ios.nilsOmitted", !text.contains("null"), "")
        }

        // Ids: UUID v4, iOS uppercase, Android lowercase; unique per kind.
        var ids: [String] = sets_.compactMap { $0["id"] as? String } + routines_.compactMap { $0["id"] as? String } + logs_.compactMap { $0["id"] as? String }
        ids += routines_.compactMap { $0[setKey] as? String } + logs_.flatMap { [$0[setKey] as? String, $0[routineKey] as? String].compactMap { $0 } }
        ids += routines_.compactMap { ($0["icon"] as? [String: Any])?["localAssetId"] as? String }
        rule("ids.uuidV4", ids.allSatisfy(Self.isV4), "\(ids.filter { !Self.isV4($0) })")
        rule(ios ? "ids.ios.uppercase" : "ids.android.lowercase", ids.allSatisfy { ios ? $0 == $0.uppercased() : $0 == $0.lowercased() }, "")
        for (kind, list) in [("routineSet", sets_), ("routine", routines_), ("dailyLog", logs_)] {
            let own = list.compactMap { $0["id"] as? String }
            rule("ids.unique.\(kind)", Set(own).count == own.count, "")
        }
        let dayKeys = logs_.map { "\($0["date"] ?? "")#\($0[routineKey] ?? "")" }
        rule("logs.uniqueDateRoutine", Set(dayKeys).count == dayKeys.count, "")

        // References.
        let setIds = Set(sets_.compactMap { $0["id"] as? String })
        var setOfRoutine: [String: String] = [:]
        for r in routines_ { if let id = r["id"] as? String, let s = r[setKey] as? String { setOfRoutine[id] = s } }
        rule("refs.routineSet", routines_.allSatisfy { setIds.contains($0[setKey] as? String ?? "") }, "")
        rule("refs.logRoutineAndSet", logs_.allSatisfy { l in
            let routine = l[routineKey] as? String ?? "", set = l[setKey] as? String ?? ""
            return setIds.contains(set) && setOfRoutine[routine] == set }, "")
        rule("refs.noSetsNoRows", !setIds.isEmpty || (routines_.isEmpty && logs_.isEmpty), "")

        // Orders unique and ≥ 0 among routines not deleted (Android; iOS checks the visible ones).
        var ordersBySet: [String: [Int]] = [:]
        for r in routines_ where r["deletedAt"] == nil || r["deletedAt"] is NSNull {
            ordersBySet[r[setKey] as? String ?? "", default: []].append(r["order"] as? Int ?? -1)
        }
        rule("routines.uniqueOrder", ordersBySet.values.allSatisfy { Set($0).count == $0.count && $0.allSatisfy { $0 >= 0 } }, "\(ordersBySet)")

        // Sets: never active and deleted; one active visible set.
        let deleted: ([String: Any]) -> Bool = { !($0["deletedAt"] == nil || $0["deletedAt"] is NSNull) }
        rule("sets.activeNotDeleted", sets_.allSatisfy { !(($0["isActive"] as? Bool ?? false) && deleted($0)) }, "")
        rule("sets.oneActive", sets_.isEmpty || sets_.filter { ($0["isActive"] as? Bool ?? false) && !deleted($0) }.count == 1, "")

        // Texts, icons, colours, times, instants.
        let texts = sets_.map { $0["name"] } + routines_.map { $0["title"] }
        rule("text.localized", texts.allSatisfy(Self.localizedText), "")
        let photoEntries = Set(names.filter { $0.hasPrefix("assets/") && $0 != "assets/" }.map { String($0.dropFirst(7)) })
        rule("icon.known", routines_.allSatisfy { r in
            guard let icon = r["icon"] as? [String: Any] else { return false }
            switch icon["type"] as? String {
            case "builtin": return PhoneIcons.names.contains(icon["name"] as? String ?? "")
            case "photo": return Self.photoName(icon["backupAssetName"] as? String ?? "") && Self.isV4(icon["localAssetId"] as? String ?? "")
            default: return false
            } }, "")
        rule("icon.photoInArchive", routines_.allSatisfy { r in
            guard let icon = r["icon"] as? [String: Any], icon["type"] as? String == "photo" else { return true }
            return photoEntries.contains(icon["backupAssetName"] as? String ?? "") }, "")
        let palette: Set<String> = ["color.card.sky", "color.card.mint", "color.card.lemon", "color.card.peach", "color.card.lavender", "color.card.rose"]
        rule("routine.colorToken", routines_.allSatisfy { palette.contains($0["colorToken"] as? String ?? "") }, "")
        let times = sets_.map { $0[startKey] } + routines_.map { $0["scheduledTime"] } + [settings?["quietHoursStart"], settings?["quietHoursEnd"]]
        rule("times.HHmm", times.allSatisfy { $0 == nil || $0 is NSNull || Self.localTime($0 as? String ?? "") }, "")
        let instants = sets_.flatMap { [$0["createdAt"], $0["updatedAt"]] } + routines_.flatMap { [$0["createdAt"], $0["updatedAt"]] }
            + logs_.flatMap { [$0["createdAt"], $0["updatedAt"]] }
        rule("instants.format", instants.allSatisfy { stamp($0) }, "")
        let optionalInstants = sets_.map { $0["deletedAt"] } + routines_.map { $0["deletedAt"] } + logs_.map { $0["completedAt"] }
        rule("instants.optionalFormat", optionalInstants.allSatisfy { $0 == nil || $0 is NSNull || stamp($0) }, "")
        rule("instants.updatedNotBeforeCreated", (sets_ + routines_ + logs_).allSatisfy { o in
            guard let c = date(o["createdAt"]), let u = date(o["updatedAt"]) else { return false }
            if let del = date(o["deletedAt"]), del < c { return false }
            return u >= c }, "")

        // Logs.
        rule("log.status", logs_.allSatisfy { ["completed", "undone"].contains($0["status"] as? String ?? "") }, "")
        rule("log.completedAt", logs_.allSatisfy { l in
            let has = l["completedAt"] is String
            return (l["status"] as? String == "completed") == has }, "")
        rule("log.date", logs_.allSatisfy { Self.localDay($0["date"] as? String ?? "") }, "")

        // Settings: the ranges both apps check, iOS's own id and lead times.
        let s = settings ?? [:]
        rule("settings.intensity", ["strong", "normal", "quiet", "off"].contains(s["feedbackIntensity"] as? String ?? ""), "")
        rule("settings.booleans", s["soundEnabled"] is Bool && s["ttsEnabled"] is Bool && s["hapticEnabled"] is Bool, "")
        let rate = (s["ttsRate"] as? NSNumber)?.doubleValue ?? -1, volume = (s["ttsVolume"] as? NSNumber)?.doubleValue ?? -1
        rule("settings.ttsRate", (0.5...1.5).contains(rate), "\(rate)")
        rule("settings.ttsVolume", (0.0...1.0).contains(volume), "\(volume)")
        rule("settings.undoDurationSeconds", [3, 5, 10].contains(s["undoDurationSeconds"] as? Int ?? 0), "")
        let lead = s["notificationLeadTimes"] as? [Int] ?? [-1]
        rule("settings.notificationLeadTimes", Set(lead).count == lead.count && lead.allSatisfy { ios ? [5, 10].contains($0) : $0 > 0 }, "\(lead)")
        if ios {
            rule("settings.ios.id", s["id"] as? String == "singleton", "")
            rule("settings.ios.stamps", stamp(s["createdAt"]) && stamp(s["updatedAt"]) && (date(s["updatedAt"]) ?? .distantPast) >= (date(s["createdAt"]) ?? .distantFuture), "")
        } else if let locale = s["locale"] as? String {
            rule("settings.android.locale", !locale.trimmingCharacters(in: .whitespaces).isEmpty, locale)
        }

        // No guardian PIN from this device: no hash fields with a value, no hash text anywhere.
        let pinFields = ["guardianPinHash", "recoveryCodeHash"]
        rule("pin.noHashes", pinFields.allSatisfy { ios ? s[$0] == nil : s[$0] is NSNull }, "\(pinFields.map { s[$0] ?? "absent" })")
        let whole = String(decoding: raw, as: UTF8.self) + text + String(decoding: entries["manifest.json"] ?? [], as: UTF8.self)
        rule("pin.noDeviceSecrets", !whole.contains("$argon2") && deviceSecrets.allSatisfy { !whole.contains($0) }, "")
    }

    // MARK: Helpers

    /// An instant the target's reader parses: iOS `ISO8601DateFormatter` (UTC `Z`, whole seconds);
    /// Android `OffsetDateTime.parse` (an offset always, fraction optional).
    private func stamp(_ value: Any?) -> Bool {
        guard let text = value as? String else { return false }
        if ios { return text.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"#, options: .regularExpression) != nil && date(text) != nil }
        return text.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$"#, options: .regularExpression) != nil
            && date(text) != nil
    }

    private func date(_ value: Any?) -> Date? {
        guard let text = value as? String else { return nil }
        let f = ISO8601DateFormatter()
        if let d = f.date(from: text) { return d }
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: text)
    }

    static func isV4(_ text: String) -> Bool {
        text.range(of: #"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$"#, options: .regularExpression) != nil
    }

    static func photoName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return name.hasPrefix("routine-photo-") && (lower.hasSuffix(".jpg") || lower.hasSuffix(".png")) && !name.contains("/") && !name.contains("\\")
    }

    static func localTime(_ text: String) -> Bool {
        guard text.range(of: #"^\d{2}:\d{2}$"#, options: .regularExpression) != nil, let h = Int(text.prefix(2)), let m = Int(text.suffix(2)) else { return false }
        return h < 24 && m < 60
    }

    static func localDay(_ text: String) -> Bool {
        let f = DateFormatter()
        f.calendar = Calendar(identifier: .gregorian)
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(secondsFromGMT: 0)
        f.dateFormat = "yyyy-MM-dd"
        return text.range(of: #"^\d{4}-\d{2}-\d{2}$"#, options: .regularExpression) != nil && f.date(from: text).map(f.string) == text
    }

    /// Both apps' LocalizedText: at least one value, tags `ll(-xxxx)*`, no blank value.
    static func localizedText(_ value: Any?) -> Bool {
        guard let map = value as? [String: Any], !map.isEmpty else { return false }
        return map.allSatisfy { tag, v in
            tag.range(of: #"^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$"#, options: .regularExpression) != nil
                && !((v as? String) ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
    }

    /// Pretty-printed (a newline and two spaces before the first key) with every object's keys in
    /// sorted order, as `JSONEncoder` `[.prettyPrinted, .sortedKeys]` writes on iOS.
    static func prettySorted(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix("{\n  \"") else { return false }
        // Walk the text: the keys of each open object, in order.
        var stack: [[String]] = []
        var i = text.unicodeScalars.startIndex
        let s = text.unicodeScalars
        while i < s.endIndex {
            let c = s[i]
            switch c {
            case "{", "[": stack.append([])
            case "}", "]":
                if let keys = stack.popLast(), c == "}" {
                    if keys != keys.sorted() { return false }   // code-point order, as iOS writes (`routineSets` before `routines`)
                }
            case "\"":
                var j = s.index(after: i)
                var word = ""
                while j < s.endIndex, s[j] != "\"" {
                    if s[j] == "\\" { j = s.index(after: j) }
                    if j < s.endIndex { word.unicodeScalars.append(s[j]) }
                    j = s.index(after: j)
                }
                // A key is a string followed by a colon.
                var k = s.index(after: j)
                while k < s.endIndex, s[k] == " " { k = s.index(after: k) }
                if k < s.endIndex, s[k] == ":", !stack.isEmpty { stack[stack.count - 1].append(word) }
                i = j
            default: break
            }
            i = s.index(after: i)
        }
        return stack.isEmpty
    }

    /// iOS's reader of the archive: local file headers one after the other until the central
    /// directory; each with its method, flags, name and (stored) bytes.
    static func iosLocalHeaders(_ data: [UInt8]) -> [(name: String, method: Int, flags: Int, bytes: [UInt8])] {
        func u16(_ o: Int) -> Int { o + 2 <= data.count ? Int(data[o]) | Int(data[o + 1]) << 8 : -1 }
        func u32(_ o: Int) -> Int { o + 4 <= data.count ? u16(o) | u16(o + 2) << 16 : -1 }
        var out: [(name: String, method: Int, flags: Int, bytes: [UInt8])] = []
        var offset = 0
        while offset + 4 <= data.count {
            let signature = u32(offset)
            if signature == 0x02014b50 || signature == 0x06054b50 { break }
            guard signature == 0x04034b50 else { return out }
            let flags = u16(offset + 6), method = u16(offset + 8), size = u32(offset + 18)
            let nameLength = u16(offset + 26), extra = u16(offset + 28)
            let nameStart = offset + 30, payload = nameStart + nameLength + extra
            guard size >= 0, payload + size <= data.count else { return out }
            out.append((name: String(decoding: data[nameStart..<nameStart + nameLength], as: UTF8.self), method: method, flags: flags,
                        bytes: Array(data[payload..<payload + size])))
            offset = payload + size
        }
        return out
    }
}
