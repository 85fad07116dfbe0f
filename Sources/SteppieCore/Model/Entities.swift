import Foundation

/// An ordered group of routine cards belonging to one child.
public struct RoutineSet: Hashable, Sendable, Identifiable, Codable {
    public var id: UUID
    public var childId: UUID
    public var name: LocalizedText
    public var isActive: Bool
    /// When the set starts each day; before it, child mode shows a waiting view.
    public var startTime: LocalTime?
    public var createdAt: Date
    public var updatedAt: Date
    public var deletedAt: Date?

    public init(id: UUID, childId: UUID, name: LocalizedText, isActive: Bool = false, startTime: LocalTime? = nil,
                createdAt: Date, updatedAt: Date? = nil, deletedAt: Date? = nil) {
        self.id = id; self.childId = childId; self.name = name; self.isActive = isActive
        self.startTime = startTime; self.createdAt = createdAt; self.updatedAt = updatedAt ?? createdAt
        self.deletedAt = deletedAt
    }

    public var isVisible: Bool { deletedAt == nil }
}

/// One activity card in child mode.
public struct Routine: Hashable, Sendable, Identifiable, Codable {
    public var id: UUID
    public var routineSetId: UUID
    /// The catalog key of the template the routine came from, if any.
    public var titleKey: String?
    public var title: LocalizedText
    public var icon: IconRef
    public var colorToken: String
    /// Zero-based position, unique among the set's active, visible routines.
    public var order: Int
    public var scheduledTime: LocalTime?
    public var isActive: Bool
    public var createdAt: Date
    public var updatedAt: Date
    public var deletedAt: Date?

    public init(id: UUID, routineSetId: UUID, titleKey: String? = nil, title: LocalizedText,
                icon: IconRef = .fallback, colorToken: String = CardColor.sky.token, order: Int,
                scheduledTime: LocalTime? = nil, isActive: Bool = true,
                createdAt: Date, updatedAt: Date? = nil, deletedAt: Date? = nil) {
        self.id = id; self.routineSetId = routineSetId; self.titleKey = titleKey; self.title = title
        self.icon = icon; self.colorToken = colorToken; self.order = order; self.scheduledTime = scheduledTime
        self.isActive = isActive; self.createdAt = createdAt; self.updatedAt = updatedAt ?? createdAt
        self.deletedAt = deletedAt
    }

    /// Shown to the child: active and not soft-deleted.
    public var isVisible: Bool { isActive && deletedAt == nil }
}

/// The state of one routine on one local day. At most one per (date, routine).
public struct DailyLog: Hashable, Sendable, Identifiable, Codable {
    public var id: UUID
    public var date: LocalDay
    public var routineId: UUID
    public var routineSetId: UUID
    public var status: LogStatus
    public var completedAt: Date?
    public var createdAt: Date
    public var updatedAt: Date
    /// What the child saw when the routine was completed (a `RoutineLook` of the same routine);
    /// nil for logs written before schema v8 and for logs never completed here.
    public var lookId: UUID?

    public init(id: UUID, date: LocalDay, routineId: UUID, routineSetId: UUID, status: LogStatus,
                completedAt: Date?, createdAt: Date, updatedAt: Date? = nil, lookId: UUID? = nil) {
        self.id = id; self.date = date; self.routineId = routineId; self.routineSetId = routineSetId
        self.status = status; self.completedAt = completedAt; self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt; self.lookId = lookId
    }
}

/// A child using the device, with their own routine sets, logs and feedback profile.
public struct Child: Hashable, Sendable, Identifiable, Codable {
    public var id: UUID
    public var displayName: String
    public var profile: FeedbackProfile
    public var createdAt: Date
    public var updatedAt: Date
    public var archivedAt: Date?
    /// The child's picture on the picker: a builtin icon or a photo (the routines' rules); nil
    /// until a guardian chooses one, drawn then as `ChildPictures.resolve` picks.
    public var picture: IconRef?

    public init(id: UUID, displayName: String, profile: FeedbackProfile = FeedbackProfile(),
                createdAt: Date, updatedAt: Date? = nil, archivedAt: Date? = nil, picture: IconRef? = nil) {
        self.id = id; self.displayName = displayName; self.profile = profile
        self.createdAt = createdAt; self.updatedAt = updatedAt ?? createdAt; self.archivedAt = archivedAt
        self.picture = picture
    }
}

/// How feedback reaches one child: the contract's per-device settings, made per child.
public struct FeedbackProfile: Hashable, Sendable, Codable {
    public var intensity: FeedbackIntensity = .normal
    public var soundEnabled = true
    public var ttsEnabled = true
    public var hapticEnabled = true
    /// 0.5 … 1.5, a factor on the voice's normal speed.
    public var ttsRate = 1.0
    /// 0.0 … 1.0.
    public var ttsVolume = 1.0
    /// Upper bound on every output level, 0.0 … 1.0.
    public var volumeCap = 1.0
    /// espeak-ng pitch, 0 … 99 (50 is the voice's own).
    public var pitch = 50
    /// A voice variant name (espeak-ng `+variant`), or nil for the language's default.
    public var voiceVariant: String?
    /// 3, 5 or 10.
    public var undoDurationSeconds = 5
    /// Minutes before a scheduled time at which a reminder is spoken.
    public var notificationLeadTimes = [10, 5]
    public var quietHoursStart: LocalTime?
    public var quietHoursEnd: LocalTime?
    /// nil: follow the device, then the system locale.
    public var locale: String?

    public init() {}
}

/// Settings of the device as a whole (not of any one child).
public struct DeviceSettings: Hashable, Sendable {
    public var guardianPinHash: String?
    public var recoveryCodeHash: String?
    /// The device-wide language; nil follows the system locale.
    public var locale: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(guardianPinHash: String? = nil, recoveryCodeHash: String? = nil, locale: String? = nil,
                createdAt: Date, updatedAt: Date? = nil) {
        self.guardianPinHash = guardianPinHash; self.recoveryCodeHash = recoveryCodeHash
        self.locale = locale; self.createdAt = createdAt; self.updatedAt = updatedAt ?? createdAt
    }
}
