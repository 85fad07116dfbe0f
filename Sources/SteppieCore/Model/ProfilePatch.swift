/// A change of some fields of a child's feedback profile: what `steppie profile set`, the
/// guardian's feedback page and `feedback tune --keep` ask for, as one typed value. Front ends
/// parse their own text (options, form fields) into it; the rules are here, checked once, in the
/// same order for every front end, so the first refused field is the same one wherever the change
/// came from. Fields left nil are not touched: two patches of different fields of one profile
/// both survive (`Store.updateProfile(childId:_:at:)` applies a patch inside its write).
public struct ProfilePatch: Hashable, Sendable {
    /// A value that can also be removed (the language default voice, no quiet hours, the device's language).
    public enum Change<Value: Hashable & Sendable>: Hashable, Sendable {
        case set(Value)
        case clear
    }

    public var intensity: FeedbackIntensity?
    public var soundEnabled: Bool?
    public var ttsEnabled: Bool?
    public var hapticEnabled: Bool?
    public var ttsRate: Double?
    public var ttsVolume: Double?
    public var volumeCap: Double?
    public var pitch: Int?
    public var voiceVariant: Change<String>?
    public var undoDurationSeconds: Int?
    /// An empty list: no reminders.
    public var notificationLeadTimes: [Int]?
    public var quietHours: Change<QuietHours>?
    public var locale: Change<String>?

    public struct QuietHours: Hashable, Sendable {
        public var start: LocalTime
        public var end: LocalTime
        public init(start: LocalTime, end: LocalTime) { self.start = start; self.end = end }
    }

    public init() {}

    /// The contract's names of the fields this patch changes, in the order they are checked.
    public var changedFields: [String] {
        var names: [String] = []
        if intensity != nil { names.append("intensity") }
        if soundEnabled != nil { names.append("soundEnabled") }
        if ttsEnabled != nil { names.append("ttsEnabled") }
        if hapticEnabled != nil { names.append("hapticEnabled") }
        if ttsRate != nil { names.append("ttsRate") }
        if ttsVolume != nil { names.append("ttsVolume") }
        if volumeCap != nil { names.append("volumeCap") }
        if pitch != nil { names.append("pitch") }
        if voiceVariant != nil { names.append("voiceVariant") }
        if undoDurationSeconds != nil { names.append("undoDurationSeconds") }
        if notificationLeadTimes != nil { names.append("notificationLeadTimes") }
        if quietHours != nil { names.append("quietHours") }
        if locale != nil { names.append("locale") }
        return names
    }

    public var isEmpty: Bool { changedFields.isEmpty }

    /// `profile` with this patch's fields in place, unchecked: what a form shows again after a refusal.
    public func merged(into profile: FeedbackProfile) -> FeedbackProfile {
        var p = profile
        if let v = intensity { p.intensity = v }
        if let v = soundEnabled { p.soundEnabled = v }
        if let v = ttsEnabled { p.ttsEnabled = v }
        if let v = hapticEnabled { p.hapticEnabled = v }
        if let v = ttsRate { p.ttsRate = v }
        if let v = ttsVolume { p.ttsVolume = v }
        if let v = volumeCap { p.volumeCap = v }
        if let v = pitch { p.pitch = v }
        switch voiceVariant {
        case .set(let v): p.voiceVariant = v
        case .clear: p.voiceVariant = nil
        case nil: break
        }
        if let v = undoDurationSeconds { p.undoDurationSeconds = v }
        if let v = notificationLeadTimes { p.notificationLeadTimes = v }
        switch quietHours {
        case .set(let q): p.quietHoursStart = q.start; p.quietHoursEnd = q.end
        case .clear: p.quietHoursStart = nil; p.quietHoursEnd = nil
        case nil: break
        }
        switch locale {
        case .set(let v): p.locale = v
        case .clear: p.locale = nil
        case nil: break
        }
        return p
    }

    /// `profile` with this patch applied, each changed field checked by the contract in the
    /// order of `changedFields` (the first refused one throws `ContractViolation`, naming it),
    /// then the whole profile.
    public func applied(to profile: FeedbackProfile) throws -> FeedbackProfile {
        if let v = ttsRate { try Validator.ttsRate(v) }
        if let v = ttsVolume { try Validator.ttsVolume(v) }
        if let v = volumeCap { try Validator.volumeCap(v) }
        if let v = pitch { try Validator.pitch(v) }
        if case .set(let v) = voiceVariant { try Validator.voiceVariant(v) }
        if let v = undoDurationSeconds { try Validator.undoDuration(v) }
        if let v = notificationLeadTimes { try Validator.leadTimes(v) }
        if case .set(let q) = quietHours { try Validator.quietHours(start: q.start, end: q.end) }
        if case .set(let v) = locale { try Validator.locale(v) }
        let p = merged(into: profile)
        try Validator.profile(p)
        return p
    }
}
