import Foundation

/// One child's data shaped as the phone app's `data.json` holds it: every value already mapped
/// and formatted for the target (ids, instants, texts); encoding only picks the field names and
/// whether an absent value is left out (iOS) or written as `null` (Android).
struct PhoneDocument: Encodable {
    struct RoutineSet: Encodable {
        var ios: Bool
        var id: String
        var name: [String: String]
        var isActive: Bool
        var startTime: String?
        var createdAt: String
        var updatedAt: String
        var deletedAt: String?

        func encode(to encoder: any Encoder) throws {
            var f = PhoneFields(encoder, ios: ios)
            try f.put("id", id)
            try f.put("name", name)
            try f.put("isActive", isActive)
            try f.optional(f.ios ? "dailyStartTime" : "startTime", startTime)
            try f.put("createdAt", createdAt)
            try f.put("updatedAt", updatedAt)
            try f.optional("deletedAt", deletedAt)
        }
    }

    enum Icon: Encodable, Equatable {
        case builtin(String)
        case photo(localAssetId: String, backupAssetName: String)

        func encode(to encoder: any Encoder) throws {
            // No field of an icon is ever absent: the target makes no difference.
            var f = PhoneFields(encoder, ios: false)
            switch self {
            case .builtin(let name):
                try f.put("type", "builtin")
                try f.put("name", name)
            case .photo(let id, let asset):
                try f.put("type", "photo")
                try f.put("localAssetId", id)
                try f.put("backupAssetName", asset)
            }
        }
    }

    struct Routine: Encodable {
        var ios: Bool
        var id: String
        var routineSetId: String
        var titleKey: String?
        var title: [String: String]
        var icon: Icon
        var colorToken: String
        var order: Int
        var scheduledTime: String?
        var isActive: Bool
        var createdAt: String
        var updatedAt: String
        var deletedAt: String?

        func encode(to encoder: any Encoder) throws {
            var f = PhoneFields(encoder, ios: ios)
            try f.put("id", id)
            try f.put(f.ios ? "routineSetID" : "routineSetId", routineSetId)
            try f.optional("titleKey", titleKey)
            try f.put("title", title)
            try f.put("icon", icon)
            try f.put("colorToken", colorToken)
            try f.put("order", order)
            try f.optional("scheduledTime", scheduledTime)
            try f.put("isActive", isActive)
            try f.put("createdAt", createdAt)
            try f.put("updatedAt", updatedAt)
            try f.optional("deletedAt", deletedAt)
        }
    }

    struct DailyLog: Encodable {
        var ios: Bool
        var id: String
        var date: String
        var routineId: String
        var routineSetId: String
        var status: String
        var completedAt: String?
        var createdAt: String
        var updatedAt: String

        func encode(to encoder: any Encoder) throws {
            var f = PhoneFields(encoder, ios: ios)
            try f.put("id", id)
            try f.put("date", date)
            try f.put(f.ios ? "routineID" : "routineId", routineId)
            try f.put(f.ios ? "routineSetID" : "routineSetId", routineSetId)
            try f.put("status", status)
            try f.optional("completedAt", completedAt)
            try f.put("createdAt", createdAt)
            try f.put("updatedAt", updatedAt)
        }
    }

    /// The phone's device-wide settings: the child's feedback profile, mapped. Never a PIN hash:
    /// iOS leaves the fields out, Android writes them `null` (and asks for a PIN of its own).
    struct AppSettings: Encodable {
        var ios: Bool
        var feedbackIntensity: String
        var soundEnabled: Bool
        var ttsEnabled: Bool
        var ttsRate: Double
        var ttsVolume: Double
        var hapticEnabled: Bool
        var undoDurationSeconds: Int
        var notificationLeadTimes: [Int]
        var quietHoursStart: String?
        var quietHoursEnd: String?
        /// Android only (iOS has no language setting).
        var locale: String?
        /// iOS only, with `id`.
        var createdAt: String
        var updatedAt: String

        func encode(to encoder: any Encoder) throws {
            var f = PhoneFields(encoder, ios: ios)
            if f.ios { try f.put("id", "singleton") }
            if !f.ios {
                try f.optional("guardianPinHash", String?.none)
                try f.optional("recoveryCodeHash", String?.none)
            }
            try f.put("feedbackIntensity", feedbackIntensity)
            try f.put("soundEnabled", soundEnabled)
            try f.put("ttsEnabled", ttsEnabled)
            try f.put("ttsRate", ttsRate)
            try f.put("ttsVolume", ttsVolume)
            try f.put("hapticEnabled", hapticEnabled)
            try f.put("undoDurationSeconds", undoDurationSeconds)
            try f.put("notificationLeadTimes", notificationLeadTimes)
            try f.optional("quietHoursStart", quietHoursStart)
            try f.optional("quietHoursEnd", quietHoursEnd)
            if f.ios {
                try f.put("createdAt", createdAt)
                try f.put("updatedAt", updatedAt)
            } else {
                try f.optional("locale", locale)
            }
        }
    }

    /// Written for the iOS app (else Android): field names, absent values, layout.
    var ios: Bool
    var schemaVersion: Int
    var exportedAt: String
    var routineSets: [RoutineSet]
    var routines: [Routine]
    var dailyLogs: [DailyLog]
    var appSettings: AppSettings

    func encode(to encoder: any Encoder) throws {
        var f = PhoneFields(encoder, ios: ios)
        try f.put("schemaVersion", schemaVersion)
        try f.put("exportedAt", exportedAt)
        try f.put("routineSets", routineSets)
        try f.put("routines", routines)
        try f.put("dailyLogs", dailyLogs)
        // iOS decodes its daily assignments (by date, not by weekday: a weekly schedule is not one of them).
        if f.ios { try f.put("dailyRoutineAssignments", [String]()) }
        try f.put("appSettings", appSettings)
    }

    /// The bytes as the target app writes its JSON: iOS pretty-printed with sorted keys,
    /// Android compact (its writer, org.json, keeps no key order either).
    static func encoded<T: Encodable>(_ value: T, ios: Bool) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = ios ? [.prettyPrinted, .sortedKeys] : []
        do { return Array(try encoder.encode(value)) } catch {
            throw BackupError.dataInvalid(path: "data.json", reason: "cannot encode: \(error)")
        }
    }
}

/// `manifest.json` as the phone apps read it (`createdAt` in the target's own format).
struct PhoneManifest: Encodable {
    var app = "Steppie"
    var backupSchemaVersion: Int
    var createdAt: String
    var sourcePlatform: String
    var appVersion: String
    var dataFile = "data.json"
    var assetDirectory = "assets"
    var checksum: BackupManifest.Checksum
}

/// The keyed container of one phone object: the target decides what an absent value becomes.
struct PhoneFields {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private var container: KeyedEncodingContainer<Key>
    /// iOS: absent values are left out; Android: written as `null`.
    let ios: Bool

    init(_ encoder: any Encoder, ios: Bool) {
        container = encoder.container(keyedBy: Key.self)
        self.ios = ios
    }

    mutating func put<T: Encodable>(_ key: String, _ value: T) throws {
        try container.encode(value, forKey: Key(key))
    }

    mutating func optional<T: Encodable>(_ key: String, _ value: T?) throws {
        if let value { try put(key, value) } else if !ios { try container.encodeNil(forKey: Key(key)) }
    }
}
