/// What kinds of records travel, and the fields each carries. Every field is its own
/// last-writer-wins register (ordered by hybrid timestamp), so edits of different fields of one
/// record made on two devices both survive. A record's `deleted` field is a register like the
/// others: an edit elsewhere never clears it, only an explicit restore (a later `deleted: false`)
/// does — the CouchDB resurrection (pouchdb #6666) cannot happen.
package enum SyncEntity: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    /// A child: name, archived, the active set, and each feedback profile field (`profile.<name>`).
    case child
    /// A routine set of one child: name, start time, deleted, and `order` (the routines' ids in
    /// the guardian's last order, one register for the whole list).
    case routineSet
    /// A routine of one set: title, icon, colour, time, active, deleted.
    case routine
    /// One child's weekly schedule, whole (`slots`): a schedule is edited as one table.
    case schedule
    /// A recorded prompt of one routine in one language (record `<routine id>/<locale>`): the
    /// audio's SHA-256 and length; removed is `deleted: true`.
    case recording

    package static func < (a: SyncEntity, b: SyncEntity) -> Bool { a.rawValue < b.rawValue }

    /// The fields a change of this kind may name; anything else is refused as malformed.
    package func allows(field: String) -> Bool {
        switch self {
        case .child:
            return ["name", "archived", "activeSet", "createdAt", "picture"].contains(field)
                || (field.hasPrefix("profile.") && SyncEntity.profileFields.contains(String(field.dropFirst(8))))
        case .routineSet: return ["child", "name", "startTime", "deleted", "order", "createdAt"].contains(field)
        case .routine: return ["set", "titleKey", "title", "icon", "color", "time", "active", "deleted", "createdAt"].contains(field)
        case .schedule: return field == "slots"
        case .recording: return ["routine", "locale", "sha256", "durationMs", "deleted"].contains(field)
        }
    }

    /// The feedback profile's fields, as the data contract names them.
    package static let profileFields: Set<String> = [
        "intensity", "soundEnabled", "ttsEnabled", "hapticEnabled", "ttsRate", "ttsVolume", "volumeCap", "pitch",
        "voiceVariant", "undoDurationSeconds", "notificationLeadTimes", "quietHoursStart", "quietHoursEnd", "locale",
    ]
}

/// One record of one kind.
package struct RecordKey: Hashable, Sendable, Comparable, Codable {
    package let entity: SyncEntity
    package let id: String

    package init(_ entity: SyncEntity, _ id: String) {
        self.entity = entity
        self.id = id
    }

    package static func < (a: RecordKey, b: RecordKey) -> Bool { (a.entity, a.id) < (b.entity, b.id) }
}
