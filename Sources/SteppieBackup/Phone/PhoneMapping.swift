import Foundation
import SteppieCore
import SteppieStore

/// Maps one child's rows onto what the phone app accepts, rule by rule as its reader checks them
/// (docs/backup.md, "Back to the phone"): UUID v4 ids, iOS uppercase and Android lowercase;
/// instants as the app writes them (iOS UTC `Z` in whole seconds, Android the device's offset
/// with milliseconds only when not zero), never earlier than the row's `createdAt`; texts
/// without empty locales; the phone's 28 builtin icons and 6 colours; orders unique and ≥ 0 among
/// the routines that are not deleted; reminder lead times the app allows.
struct PhoneMapping {
    struct Rows {
        var sets: [RoutineSet]
        var routines: [Routine]
        var logs: [DailyLog]
    }

    let platform: PhoneExporter.Platform
    let timeZone: TimeZone
    private var ios: Bool { platform == .ios }

    init(platform: PhoneExporter.Platform, timeZone: TimeZone) {
        self.platform = platform; self.timeZone = timeZone
    }

    /// `photos`: each routine photo that travels → its name in the archive; any other photo icon becomes `star`.
    func document(_ rows: Rows, child: Child, deviceLocale: String?, photos: [String: String], at now: Date) -> PhoneDocument {
        let stamps = formatter()
        func stamp(_ d: Date) -> String { format(d, stamps) }
        func later(_ d: Date, than created: Date) -> String { stamp(max(d, created)) }
        let sets = rows.sets.map { s in
            PhoneDocument.RoutineSet(ios: ios, id: id(s.id), name: text(s.name), isActive: s.isActive && s.deletedAt == nil,
                                     startTime: s.startTime?.description, createdAt: stamp(s.createdAt),
                                     updatedAt: later(s.updatedAt, than: s.createdAt), deletedAt: s.deletedAt.map { later($0, than: s.createdAt) })
        }
        let orders = Self.orders(rows.routines)
        let routines = rows.routines.map { r in
            PhoneDocument.Routine(ios: ios, id: id(r.id), routineSetId: id(r.routineSetId),
                                  titleKey: r.titleKey.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 },
                                  title: text(r.title), icon: icon(r.icon, photos: photos),
                                  colorToken: CardColor(token: r.colorToken)?.token ?? CardColor.sky.token,
                                  order: orders[r.id] ?? max(0, r.order), scheduledTime: r.scheduledTime?.description, isActive: r.isActive,
                                  createdAt: stamp(r.createdAt), updatedAt: later(r.updatedAt, than: r.createdAt),
                                  deletedAt: r.deletedAt.map { later($0, than: r.createdAt) })
        }
        let logs = rows.logs.map { l in
            // A day a fresh copy wrote has a time-ordered id (UUIDv7); the apps get a v4 (nothing refers to a log's id).
            PhoneDocument.DailyLog(ios: ios, id: id(Self.isVersion4(l.id) ? l.id : UUID()), date: l.date.description, routineId: id(l.routineId), routineSetId: id(l.routineSetId),
                                   status: l.status.rawValue, completedAt: l.status == .completed ? stamp(l.completedAt ?? l.updatedAt) : nil,
                                   createdAt: stamp(l.createdAt), updatedAt: later(l.updatedAt, than: l.createdAt))
        }
        let p = child.profile
        let settings = PhoneDocument.AppSettings(
            ios: ios, feedbackIntensity: p.intensity.rawValue, soundEnabled: p.soundEnabled, ttsEnabled: p.ttsEnabled,
            ttsRate: p.ttsRate, ttsVolume: p.ttsVolume, hapticEnabled: p.hapticEnabled, undoDurationSeconds: p.undoDurationSeconds,
            notificationLeadTimes: leadTimes(p.notificationLeadTimes),
            quietHoursStart: p.quietHoursStart?.description, quietHoursEnd: p.quietHoursEnd?.description,
            locale: ios ? nil : (p.locale ?? deviceLocale), createdAt: stamp(child.createdAt), updatedAt: later(child.updatedAt, than: child.createdAt))
        return PhoneDocument(ios: ios, schemaVersion: platform.schemaVersion, exportedAt: stamp(now), routineSets: sets, routines: routines,
                             dailyLogs: logs, appSettings: settings)
    }

    /// An instant as the target app writes it.
    func stamp(_ d: Date) -> String { format(d, formatter()) }

    /// iOS writes UTC; Android the device's zone.
    private func formatter() -> StampFormatter {
        StampFormatter(timeZone: ios ? TimeZone(secondsFromGMT: 0) ?? timeZone : timeZone)
    }

    private func format(_ d: Date, _ stamps: StampFormatter) -> String {
        if ios {
            // ISO8601DateFormatter's default: UTC, whole seconds (iOS reads no fractions).
            let whole = Date(timeIntervalSince1970: d.timeIntervalSince1970.rounded(.down))
            return String(stamps.format(whole).prefix(19)) + "Z"
        }
        // 2026-03-08T07:30:00.000+09:00; java.time leaves out a zero fraction.
        let text = stamps.format(d)
        return text.contains(".000") ? text.replacingOccurrences(of: ".000", with: "") : text
    }

    private func id(_ u: UUID) -> String { ios ? u.uuidString.uppercased() : u.uuidString.lowercased() }

    /// A LocalizedText the apps accept: each language tag `ll(-xxxx)*` in ASCII (`_` read as `-`),
    /// no empty or blank value (Android refuses one, iOS drops it); at least one value.
    func text(_ t: LocalizedText) -> [String: String] {
        var out: [String: String] = [:]
        for (tag, value) in t.values.sorted(by: { $0.key < $1.key }) {
            let key = tag.replacingOccurrences(of: "_", with: "-")
            guard Self.isLanguageTag(key), out[key] == nil, !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { continue }
            out[key] = value
        }
        if out.isEmpty, let any = t.values.values.first(where: { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) {
            out["ko"] = any
        }
        return out
    }

    static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    private func icon(_ i: IconRef, photos: [String: String]) -> PhoneDocument.Icon {
        switch i {
        case .builtin(let name): return .builtin(PhoneIcons.phoneName(for: name))
        case .photo(let localId, let asset):
            guard let exported = photos[asset] else { return .builtin("star") }
            // Both apps want a UUID v4 here; a photo added here under another id gets a new one.
            let uuid = UUID(uuidString: localId).flatMap { Self.isVersion4($0) ? $0 : nil } ?? UUID()
            return .photo(localAssetId: id(uuid), backupAssetName: exported)
        }
    }

    static func isVersion4(_ u: UUID) -> Bool {
        let b = u.uuid
        return b.6 >> 4 == 4 && b.8 >> 6 == 2
    }

    /// How many builtin icons are written as another phone icon.
    func mappedIcons(_ routines: [Routine]) -> Int {
        routines.filter { if case .builtin(let n) = $0.icon { return !PhoneIcons.names.contains(n) }; return false }.count
    }

    /// The phone's lead times: iOS allows only 5 and 10 minutes (each value goes to the nearer,
    /// duplicates dropped); Android any distinct positive minutes, as here.
    private func leadTimes(_ minutes: [Int]) -> [Int] {
        guard ios else { return minutes }
        var out: [Int] = []
        for m in minutes { let v = m <= 7 ? 5 : 10; if !out.contains(v) { out.append(v) } }
        return out
    }

    /// Orders the phones accept: Android wants them unique among every routine not deleted
    /// (hidden ones too) and ≥ 0. When the set's are already, they stay; else they are numbered
    /// 0, 1, … in their order (visible routines first), so the child sees the same sequence.
    static func orders(_ routines: [Routine]) -> [UUID: Int] {
        var out: [UUID: Int] = [:]
        let bySet = Dictionary(grouping: routines.filter { $0.deletedAt == nil }, by: \.routineSetId)
        for (_, members) in bySet {
            let orders = members.map(\.order)
            if Set(orders).count == orders.count, orders.allSatisfy({ $0 >= 0 }) { continue }
            let sorted = members.sorted { ($0.isActive ? 0 : 1, $0.order, $0.createdAt) < ($1.isActive ? 0 : 1, $1.order, $1.createdAt) }
            for (n, r) in sorted.enumerated() { out[r.id] = n }
        }
        return out
    }
}
