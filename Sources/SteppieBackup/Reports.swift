import SteppieCore

/// How many of each thing a backup holds.
public struct BackupCounts: Sendable, Equatable, Codable {
    public var children: Int
    public var routineSets: Int
    public var routines: Int
    public var dailyLogs: Int
    public var assets: Int
    /// Weekly schedule slots; nil for a backup that does not carry schedules (a phone backup, an
    /// older Linux one), whose restore keeps the device's slots that still fit.
    public var scheduleSlots: Int? = nil
}

/// The result of `BackupCreator.create`, ready for `--json`.
public struct BackupCreateReport: Sendable, Equatable, Codable {
    public var path: String
    public var bytes: UInt64
    /// SHA-256 of data.json, as in the manifest.
    public var checksum: String
    public var createdAt: String
    public var counts: BackupCounts
}

/// What a valid backup holds and what restoring it would do; the result of `verify`, and what
/// a restore shows for confirmation.
public struct RestorePlan: Sendable, Equatable, Codable {
    public var path: String
    public var sourcePlatform: BackupManifest.Platform
    public var backupSchemaVersion: Int
    public var createdAt: String
    public var appVersion: String
    public var dataBytes: UInt64
    public var checksum: String
    public var counts: BackupCounts
    /// Photo icons whose file was missing from the archive; restored as the builtin `star`.
    public var photosReplaced: Int
    /// Builtin icons this project does not know (other platforms); restored as `star`.
    public var iconsReplaced: Int
    /// After the restore the device has no guardian PIN: ask for a new one.
    public var needsNewPin: Bool
    /// What the restore would replace, counted in the current database (nil for `verify`).
    public var replacing: BackupCounts?
    /// The backup's children and sets by name, when asked for (`verify(…, naming: true)`), so a
    /// confirmation can name them.
    public var childNames: [String]?
    public var setNames: [LocalizedText]?
    /// Where a restore puts the backup and what it replaces and keeps, child by child (restore only).
    public var scope: RestoreScope?
}

extension RestorePlan {
    /// What a restore does to the device's guardian PIN: one rule, said by the command line's
    /// confirmation and the backup page's.
    public enum PinChange: String, Sendable {
        /// A phone backup into one child: the device's PIN stays.
        case kept
        /// A Linux backup with a PIN: the backup's PIN and recovery code replace the device's.
        case replaced
        /// A Linux backup without a PIN, or a phone backup of the whole device: none afterwards.
        case none
    }

    public var pinChange: PinChange {
        if scope?.kind == .child || sourcePlatform != .linux { return needsNewPin ? .none : .kept }
        return needsNewPin ? .none : .replaced
    }

    /// What a restore does to the weekly schedules, for a confirmation to say.
    public enum ScheduleChange: Equatable, Sendable {
        /// The backup's slots replace the `current` ones on the device.
        case replace(slots: Int, current: Int)
        /// The backup carries `slots` (a plan that counts nothing on the device: `verify`).
        case carried(slots: Int)
        /// The backup carries none: of the `current` slots, those whose set comes back stay.
        case kept(current: Int)
    }

    /// The schedule change against `current` slots on the device (default: `replacing`'s count);
    /// nil when there are none on either side.
    public func scheduleChange(current: Int? = nil) -> ScheduleChange? {
        let now = current ?? replacing?.scheduleSlots
        if let slots = counts.scheduleSlots {
            guard let now else { return slots > 0 ? .carried(slots: slots) : nil }
            return slots > 0 || now > 0 ? .replace(slots: slots, current: now) : nil
        }
        return (now ?? 0) > 0 ? .kept(current: now ?? 0) : nil
    }
}

/// What one child holds, as a restore's confirmation names it.
public struct ChildContents: Sendable, Equatable, Codable {
    public var name: String
    public var archived: Bool
    /// The child's sets that are not deleted, by name.
    public var sets: [LocalizedText]
    public var routines: Int
    public var dailyLogs: Int
    public var photos: Int
    /// The child's weekly schedule slots: on the device (`replaced`), or in the backup (`incoming`;
    /// 0 when the backup carries no schedules).
    public var scheduleSlots: Int = 0
}

/// Where a restore puts a backup: a Linux backup replaces the device (every child); a phone
/// backup (one child's data) replaces one child and keeps the others.
public struct RestoreScope: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable { case device, child }
    public var kind: Kind
    /// The child a phone backup goes into; nil for a device restore.
    public var child: String?
    /// True when that child is not on the device yet and will be added.
    public var newChild: Bool
    /// What is replaced, child by child (every child, archived ones too, for a device restore).
    public var replaced: [ChildContents]
    /// The children that stay exactly as they are.
    public var kept: [String]
    /// What the backup brings, child by child.
    public var incoming: [ChildContents]
}

/// The result of a successful restore.
public struct RestoreReport: Sendable, Equatable, Codable {
    public var plan: RestorePlan
    public var needsNewPin: Bool
}

extension RestoreScope {
    /// What the restore does, child by child, as sentences: where the backup goes, what each
    /// child on the device has now (sets and counts) and what comes in its place, whose sets the
    /// backup holds. One list for the command line's confirmation and the backup page's.
    public var summary: [CatalogMessage] {
        var out: [CatalogMessage] = []
        switch kind {
        case .device: out.append(CatalogMessage("cli.restore.scope.device"))
        case .child: out.append(CatalogMessage(newChild ? "cli.restore.scope.newChild" : "cli.restore.scope.child",
                                               ["child": .text(child ?? "")]))
        }
        if replaced.isEmpty { out.append(CatalogMessage("cli.restore.replacedNothing")) }
        for c in replaced { out.append(CatalogMessage("cli.restore.replaced", Self.arguments(c))) }
        if !kept.isEmpty { out.append(CatalogMessage("cli.restore.kept", ["children": .text(kept.joined(separator: ", "))])) }
        for c in incoming { out.append(CatalogMessage("cli.restore.incoming", Self.arguments(c))) }
        return out
    }

    private static func arguments(_ c: ChildContents) -> [String: CatalogMessage.Argument] {
        let child: CatalogMessage.Argument = c.archived ? .message(CatalogMessage("cli.restore.archived", ["child": .text(c.name)])) : .text(c.name)
        let sets: CatalogMessage.Argument = c.sets.isEmpty ? .message(CatalogMessage("cli.restore.noSets")) : .name(joined(c.sets))
        return ["child": child, "sets": sets, "routines": .text(String(c.routines)), "logs": .text(String(c.dailyLogs)),
                "photos": .text(String(c.photos))]
    }

    /// Several names as one, in each language any of them has (`Morning routine, School routine`).
    static func joined(_ names: [LocalizedText]) -> LocalizedText {
        let locales = Set(names.flatMap { $0.values.keys })
        var values: [String: String] = [:]
        for locale in locales { values[locale] = names.map { $0.resolve(chosen: locale, system: nil) }.joined(separator: ", ") }
        return LocalizedText(values)
    }
}
