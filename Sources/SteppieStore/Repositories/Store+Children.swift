import Foundation
import SteppieCore

extension Store {
    static let childColumns = """
        id, display_name, feedback_intensity, sound_enabled, tts_enabled, haptic_enabled, tts_rate, tts_volume,
        volume_cap, pitch, voice_variant, undo_duration_seconds, notification_lead_times, quiet_hours_start,
        quiet_hours_end, locale, created_at, updated_at, archived_at, picture
        """

    /// Adds a child with the default feedback profile.
    @discardableResult
    public func addChild(name rawName: String, profile: FeedbackProfile = FeedbackProfile(), at now: Date) throws -> Child {
        let name = rawName.trimmingCharacters(in: .whitespaces)
        try validate {
            try Validator.childName(name)
            try Validator.profile(profile)
        }
        let child = Child(id: ids.next(), displayName: name, profile: profile, createdAt: now)
        return try write {
            if try activeChild(sameNameAs: name) != nil { throw StoreError.childNameTaken(name) }
            try db.run("""
                INSERT INTO children (\(Store.childColumns))
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)
                """, [.text(child.id.lowercased), .text(name)] + profileValues(profile) + [stamp(now), stamp(now)])
            return child
        }
    }

    private func profileValues(_ p: FeedbackProfile) throws -> [SQLValue] {
        [.text(p.intensity.rawValue), .bool(p.soundEnabled), .bool(p.ttsEnabled), .bool(p.hapticEnabled),
         .real(p.ttsRate), .real(p.ttsVolume), .real(p.volumeCap), .int(p.pitch), .optionalText(p.voiceVariant),
         .int(p.undoDurationSeconds), .text(try JSONColumn.encode(p.notificationLeadTimes)),
         .optionalText(p.quietHoursStart?.description), .optionalText(p.quietHoursEnd?.description), .optionalText(p.locale)]
    }

    /// Replaces a child's feedback profile after checking every value against the contract.
    public func updateProfile(childId: UUID, _ profile: FeedbackProfile, at now: Date) throws {
        try validate { try Validator.profile(profile) }
        try write { try saveProfile(childId: childId, profile, at: now) }
    }

    /// Changes the fields a patch names on the child's profile as it is inside this write, so a
    /// change another connection made meanwhile to other fields is kept. The patch's rules
    /// (`ProfilePatch.applied`) refuse it before anything is written. Returns the profile saved.
    @discardableResult
    public func updateProfile(childId: UUID, _ patch: ProfilePatch, at now: Date) throws -> FeedbackProfile {
        try write {
            guard let child = try db.queryFirst("SELECT \(Store.childColumns) FROM children WHERE id = ?",
                                                [.text(childId.lowercased)], decodeChild) else {
                throw StoreError.childNotFound(childId.lowercased)
            }
            var profile = child.profile
            try validate { profile = try patch.applied(to: child.profile) }
            try saveProfile(childId: childId, profile, at: now)
            return profile
        }
    }

    private func saveProfile(childId: UUID, _ profile: FeedbackProfile, at now: Date) throws {
        try db.run("""
            UPDATE children SET feedback_intensity = ?, sound_enabled = ?, tts_enabled = ?, haptic_enabled = ?,
                tts_rate = ?, tts_volume = ?, volume_cap = ?, pitch = ?, voice_variant = ?, undo_duration_seconds = ?,
                notification_lead_times = ?, quiet_hours_start = ?, quiet_hours_end = ?, locale = ?, updated_at = ?
            WHERE id = ?
            """, try profileValues(profile) + [stamp(now), .text(childId.lowercased)])
        if db.changes == 0 { throw StoreError.childNotFound(childId.lowercased) }
    }

    public func renameChild(id: UUID, to rawName: String, at now: Date) throws {
        let name = rawName.trimmingCharacters(in: .whitespaces)
        try validate { try Validator.childName(name) }
        try write {
            if try activeChild(sameNameAs: name, except: id) != nil { throw StoreError.childNameTaken(name) }
            try db.run("UPDATE children SET display_name = ?, updated_at = ? WHERE id = ? AND archived_at IS NULL",
                       [.text(name), stamp(now), .text(id.lowercased)])
            if db.changes == 0 { throw StoreError.childNotFound(id.lowercased) }
        }
    }

    /// Sets or clears (nil: the picker's default) a child's picture, checked by the routines' icon
    /// rule; returns the picture it replaced, so the caller can remove a photo no longer shown.
    @discardableResult
    public func setChildPicture(id: UUID, to picture: IconRef?, at now: Date) throws -> IconRef? {
        if let picture { try validate { try Validator.icon(picture) } }
        return try write {
            guard let child = try db.queryFirst("SELECT \(Store.childColumns) FROM children WHERE id = ? AND archived_at IS NULL",
                                                [.text(id.lowercased)], decodeChild) else {
                throw StoreError.childNotFound(id.lowercased)
            }
            try db.run("UPDATE children SET picture = ?, updated_at = ? WHERE id = ?",
                       [try picture.map { .text(try JSONColumn.encode($0)) } ?? .null, stamp(now), .text(id.lowercased)])
            return child.picture
        }
    }

    /// Whether the child's page offers "switch child" (device-wide, off until a guardian turns it on).
    public func siblingsMaySwitch() throws -> Bool {
        try read { try db.queryFirst("SELECT siblings_may_switch FROM device_settings") { $0.bool(0) } ?? false }
    }

    public func setSiblingsMaySwitch(_ on: Bool, at now: Date) throws {
        try write {
            try db.run("INSERT OR IGNORE INTO device_settings (id, created_at, updated_at) VALUES ('singleton', ?, ?)", [stamp(now), stamp(now)])
            try db.run("UPDATE device_settings SET siblings_may_switch = ?, updated_at = ?", [.bool(on), stamp(now)])
        }
    }

    /// Hides a child from lists and child mode; their sets and history stay.
    public func archiveChild(id: UUID, at now: Date) throws {
        try write {
            try db.run("UPDATE children SET archived_at = ?, updated_at = ? WHERE id = ? AND archived_at IS NULL",
                       [stamp(now), stamp(now), .text(id.lowercased)])
            if db.changes == 0 { throw StoreError.childNotFound(id.lowercased) }
        }
    }

    /// Children by creation time; archived ones only when asked.
    public func children(includeArchived: Bool = false) throws -> [Child] {
        try read {
            try db.query("SELECT \(Store.childColumns) FROM children \(includeArchived ? "" : "WHERE archived_at IS NULL") ORDER BY created_at, rowid",
                         [], decodeChild)
        }
    }

    public func child(id: UUID) throws -> Child {
        let found = try read { try db.queryFirst("SELECT \(Store.childColumns) FROM children WHERE id = ?", [.text(id.lowercased)], decodeChild) }
        guard let found else { throw StoreError.childNotFound(id.lowercased) }
        return found
    }

    /// Finds the child a command means: by name or id; with no selector, the only child of the
    /// device. Names match as `Validator.foldedName` reads them (case, accents, normalization and
    /// invisible characters ignored); when two children's names fold alike (a database from before
    /// names were unique that way) the name is refused as ambiguous, naming both with their ids.
    public func resolveChild(_ selector: String?) throws -> Child {
        let all = try children()
        guard let selector, !selector.isEmpty else {
            if all.isEmpty { throw StoreError.noChildren }
            if all.count > 1 { throw StoreError.childAmbiguous(all.map(\.displayName)) }
            return all[0]
        }
        let wanted = Validator.foldedName(selector)
        let hits = wanted.isEmpty ? [] : all.filter { Validator.foldedName($0.displayName) == wanted }
        if hits.count > 1 {
            throw StoreError.childNameAmbiguous(name: selector, children: hits.map { "\($0.displayName) (\($0.id.lowercased))" })
        }
        if let hit = hits.first { return hit }
        if let hit = all.first(where: { $0.id.lowercased == selector.lowercased() }) { return hit }
        throw StoreError.childNotFound(selector)
    }

    /// A child that is not archived whose name folds like `name` (SQLite's NOCASE knows only
    /// ASCII, so the comparison is made here; a device has a handful of children).
    private func activeChild(sameNameAs name: String, except id: UUID? = nil) throws -> Child? {
        let wanted = Validator.foldedName(name)
        return try db.query("SELECT \(Store.childColumns) FROM children WHERE archived_at IS NULL ORDER BY created_at, rowid", [], decodeChild)
            .first { $0.id != id && Validator.foldedName($0.displayName) == wanted }
    }

    func decodeChild(_ r: Row) throws -> Child {
        let id = r.text(0)
        guard let uuid = UUID(uuidString: id), let intensity = FeedbackIntensity(rawValue: r.text(2)) else {
            throw StoreError.corruptRow(table: "children", id: id, reason: "bad id or intensity")
        }
        var p = FeedbackProfile()
        p.intensity = intensity
        p.soundEnabled = r.bool(3)
        p.ttsEnabled = r.bool(4)
        p.hapticEnabled = r.bool(5)
        p.ttsRate = r.double(6)
        p.ttsVolume = r.double(7)
        p.volumeCap = r.double(8)
        p.pitch = r.int(9)
        p.voiceVariant = r.optionalText(10)
        p.undoDurationSeconds = r.int(11)
        p.notificationLeadTimes = try JSONColumn.decode([Int].self, r.text(12), table: "children", id: id)
        p.quietHoursStart = r.optionalText(13).flatMap(LocalTime.init)
        p.quietHoursEnd = r.optionalText(14).flatMap(LocalTime.init)
        p.locale = r.optionalText(15)
        return Child(id: uuid, displayName: r.text(1), profile: p,
                     createdAt: Timestamp.parse(r.text(16)) ?? .distantPast, updatedAt: Timestamp.parse(r.text(17)),
                     archivedAt: r.optionalText(18).flatMap(Timestamp.parse),
                     picture: try r.optionalText(19).map { try JSONColumn.decode(IconRef.self, $0, table: "children", id: id) })
    }
}
