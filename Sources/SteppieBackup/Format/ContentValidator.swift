import Foundation
import SteppieCore
import SteppieStore

/// The backup's rows, checked and ready for `Store.replaceAll(with:)`.
struct ValidatedContents {
    /// Everything but the daily logs (its `dailyLogs` is empty).
    var snapshot: Snapshot
    /// The daily logs, compact (a 10-year history is a million of them).
    var logs: DailyLogRecords
    /// Photo icons whose file was not in the archive, now the builtin `star`.
    var photosReplaced: Int
    /// Builtin icons unknown here (backups from other platforms), now `star`.
    var iconsReplaced: Int
    /// True when the restored device has no guardian PIN (other platform, or none was set).
    var needsNewPin: Bool
    /// The recordings of a Linux backup that carries them (nil: it does not; the device's stay
    /// where their routine is there again).
    var recordings: [RoutineRecording]? = nil
}

/// The cross-entity rules of a backup: unique ids, unique (date, routine), references that
/// resolve, unique visible order, one active set, the contract's field rules; and the mapping
/// of another platform's single-child data onto one child.
struct ContentValidator {
    let platform: BackupManifest.Platform
    /// Names of the photo entries present under `assets/`.
    let assetNames: Set<String>
    /// Names of the recording entries present under `recordings/`.
    var recordingNames: Set<String> = []
    let defaultChildId: UUID
    let defaultChildName: String
    let now: Date

    func validate(_ data: DecodedData) throws -> ValidatedContents {
        var sets = data.routineSets
        var routines = data.routines
        let logs = data.dailyLogs
        try unique(sets.map(\.id), entity: "routineSet")
        try unique(routines.map(\.id), entity: "routine")
        try uniqueLogIds(logs)
        if sets.isEmpty && (!routines.isEmpty || !logs.isEmpty) { throw BackupError.dataWithoutSets }

        let setIds = Set(sets.map(\.id))
        var routineSet: [UUID: UUID] = [:]
        routineSet.reserveCapacity(routines.count)
        for r in routines {
            guard setIds.contains(r.routineSetId) else {
                throw BackupError.danglingReference(entity: "routine", id: r.id.lowercased, field: "routineSetId", target: r.routineSetId.lowercased)
            }
            routineSet[r.id] = r.routineSetId
        }
        let looks = try checkLooks(data.routineLooks, routineSet: routineSet)
        var lookRoutine: [UUID: UUID] = [:]
        for k in looks { lookRoutine[k.id] = k.routineId }
        // The logs name their routine and set by an index into `refs`: look each id up once.
        let refs = logs.refs
        let setOfRoutine = refs.map { routineSet[$0] }
        let routineOfLook = refs.map { lookRoutine[$0] }
        let namesASet = refs.map { setIds.contains($0) }
        // (day, routine) as one integer: the routine's index stands for its id.
        var seenDay = Set<UInt64>()
        seenDay.reserveCapacity(logs.count)
        for (n, l) in logs.records.enumerated() {
            let routineId = refs[Int(l.routine)], setId = refs[Int(l.set)]
            guard let set = setOfRoutine[Int(l.routine)] else {
                throw BackupError.danglingReference(entity: "dailyLog", id: l.id.lowercased, field: "routineId", target: routineId.lowercased)
            }
            guard namesASet[Int(l.set)] else {
                throw BackupError.danglingReference(entity: "dailyLog", id: l.id.lowercased, field: "routineSetId", target: setId.lowercased)
            }
            guard set == setId else { throw BackupError.logSetMismatch(logId: l.id.lowercased) }
            // A completion's look is one of the archive's, of the same routine.
            if l.hasLook, routineOfLook[Int(l.look)] != routineId {
                throw BackupError.danglingReference(entity: "dailyLog", id: l.id.lowercased, field: "lookId", target: refs[Int(l.look)].lowercased)
            }
            guard seenDay.insert(UInt64(UInt32(bitPattern: l.day)) << 32 | UInt64(l.routine)).inserted else {
                throw BackupError.duplicateLog(date: l.date.description, routineId: routineId.lowercased)
            }
            // `Validator.log`'s one rule, checked on the record; the rule itself words the error.
            if l.completed != l.hasCompletedAt {
                do { try Validator.log(logs[n]) } catch let v as ContractViolation {
                    throw BackupError.contract(entity: "dailyLog", id: l.id.lowercased, violation: v)
                }
            }
        }

        var photosReplaced = 0, iconsReplaced = 0
        for i in routines.indices {
            switch routines[i].icon {
            case .photo(_, let asset) where !assetNames.contains(asset):
                routines[i].icon = .fallback
                photosReplaced += 1
            case .builtin(let name) where platform != .linux && !BuiltinIcons.contains(name):
                // The phone apps' own names (`brush-teeth`) are shown as the Linux icon that stands for them.
                if let mapped = PhoneIcons.linuxName(for: name) {
                    routines[i].icon = .builtin(name: mapped)
                } else {
                    routines[i].icon = .fallback
                    iconsReplaced += 1
                }
            default: break
            }
        }
        var bySet: [UUID: [Routine]] = [:]
        for r in routines { bySet[r.routineSetId, default: []].append(r) }
        for (setId, members) in bySet {
            for r in members {
                do { try Validator.routine(r) } catch let v as ContractViolation {
                    throw BackupError.contract(entity: "routine", id: r.id.lowercased, violation: v)
                }
            }
            do { try Validator.routines(ofSet: members) } catch let v as ContractViolation {
                throw BackupError.contract(entity: "routineSet", id: setId.lowercased, violation: v)
            }
        }

        let children: [Child]
        let settings: DeviceSettings
        var schedules: [ScheduleRecord]?
        var recordings: [RoutineRecording]?
        if let listed = data.children, platform == .linux {
            if let listedRecordings = data.recordings {
                try checkRecordings(listedRecordings, routines: Set(routines.map(\.id)))
                recordings = listedRecordings
            }
            // A picture's photo follows a routine photo's rule: missing from `assets/`, the default is drawn.
            children = listed.map { c in
                guard case .photo(_, let asset)? = c.picture, !assetNames.contains(asset) else { return c }
                var c = c
                c.picture = nil
                photosReplaced += 1
                return c
            }
            try checkChildren(children, sets: sets, setHasChild: data.setHasChild)
            settings = try linuxSettings(data.appSettings)
            if let slots = data.weeklySchedules {
                try checkSchedules(slots, children: children, sets: sets)
                schedules = slots
            }
        } else {
            sets = Self.oneActiveSet(sets.map { var s = $0; s.childId = defaultChildId; return s })
            let (child, device) = try foreignChildAndSettings(data.appSettings, sets: sets)
            children = [child]
            settings = device
        }
        var setsByChild: [UUID: [RoutineSet]] = [:]
        for s in sets { setsByChild[s.childId, default: []].append(s) }
        for (_, members) in setsByChild {
            do { try Validator.sets(ofChild: members) } catch let v as ContractViolation {
                throw BackupError.contract(entity: "routineSet", id: members.first?.id.lowercased ?? "", violation: v)
            }
        }
        return ValidatedContents(snapshot: Snapshot(children: children, routineSets: sets, routines: routines,
                                                    dailyLogs: [], deviceSettings: settings, schedules: schedules, looks: looks,
                                                    photoHashes: data.photoHashes),
                                 logs: logs,
                                 photosReplaced: photosReplaced, iconsReplaced: iconsReplaced,
                                 needsNewPin: settings.guardianPinHash == nil, recordings: recordings)
    }

    /// Each recording names a routine of the backup, a language, a length within the contract
    /// and a file under `recordings/` that is in the archive; one per (routine, language), one
    /// recording per file.
    private func checkRecordings(_ recordings: [RoutineRecording], routines: Set<UUID>) throws {
        var pairs = Set<String>(), files = Set<String>()
        for (n, r) in recordings.enumerated() {
            let path = "recordings[\(n)]"
            guard routines.contains(r.routineId) else {
                throw BackupError.danglingReference(entity: "recording", id: r.fileName, field: "routineId", target: r.routineId.lowercased)
            }
            do { try Validator.locale(r.locale) } catch { throw BackupError.dataInvalid(path: path + ".locale", reason: "is not a language tag") }
            guard (1...RecordingCheck.maximumMilliseconds).contains(r.durationMs) else {
                throw BackupError.dataInvalid(path: path + ".durationMs", reason: "is not within 1…\(RecordingCheck.maximumMilliseconds)")
            }
            guard RecordingCheck.isFileName(r.fileName) else { throw BackupError.dataInvalid(path: path + ".file", reason: "is not a recording's file name") }
            guard recordingNames.contains(r.fileName) else { throw BackupError.missingEntry("recordings/" + r.fileName) }
            guard pairs.insert(r.routineId.lowercased + " " + r.locale).inserted else {
                throw BackupError.duplicateId(entity: "recording", id: r.routineId.lowercased + " " + r.locale)
            }
            guard files.insert(r.fileName).inserted else { throw BackupError.duplicateId(entity: "recording", id: r.fileName) }
        }
    }

    private struct DayKey: Hashable { let day: Int; let routine: UUID }

    /// What completions showed: unique ids, each of a routine of the archive, its title and icon
    /// by the contract's rules. A photo whose file is not in the archive shows the builtin `star`,
    /// as for routines; the photo's hash is checked against its bytes when the photos are read.
    private func checkLooks(_ looks: [RoutineLook], routineSet: [UUID: UUID]) throws -> [RoutineLook] {
        try unique(looks.map(\.id), entity: "routineLook")
        var checked = looks
        for i in checked.indices {
            let k = checked[i]
            guard routineSet[k.routineId] != nil else {
                throw BackupError.danglingReference(entity: "routineLook", id: k.id.lowercased, field: "routineId", target: k.routineId.lowercased)
            }
            switch k.icon {
            case .photo(_, let asset) where !assetNames.contains(asset):
                checked[i].icon = .fallback
                checked[i].photoSha256 = nil
            case .builtin(let name) where !BuiltinIcons.contains(name):
                checked[i].icon = PhoneIcons.linuxName(for: name).map { .builtin(name: $0) } ?? .fallback
            default: break
            }
            do {
                try Validator.title(checked[i].title)
                try Validator.icon(checked[i].icon)
            } catch let v as ContractViolation {
                throw BackupError.contract(entity: "routineLook", id: k.id.lowercased, violation: v)
            }
        }
        return checked
    }

    /// The first log whose id an earlier log has is refused, as `unique` would.
    private func uniqueLogIds(_ logs: DailyLogRecords) throws {
        var seen = Set<UUID>()
        seen.reserveCapacity(logs.count)
        for l in logs.records where !seen.insert(l.id).inserted { throw BackupError.duplicateId(entity: "dailyLog", id: l.id.lowercased) }
    }

    private func unique(_ ids: [UUID], entity: String) throws {
        var seen = Set<UUID>()
        seen.reserveCapacity(ids.count)
        for id in ids where !seen.insert(id).inserted { throw BackupError.duplicateId(entity: entity, id: id.lowercased) }
    }

    private func checkChildren(_ children: [Child], sets: [RoutineSet], setHasChild: [Bool]) throws {
        try unique(children.map(\.id), entity: "child")
        var names = Set<String>()
        for c in children {
            do {
                try Validator.childName(c.displayName)
                try Validator.profile(c.profile)
                if let picture = c.picture { try Validator.icon(picture) }
            } catch let v as ContractViolation {
                throw BackupError.contract(entity: "child", id: c.id.lowercased, violation: v)
            }
            // The store's folding (case, accents, width, invisible characters): `Émile` and `EMILE` are one name.
            if c.archivedAt == nil, !names.insert(Validator.foldedName(c.displayName)).inserted { throw BackupError.duplicateChildName(c.displayName) }
        }
        let ids = Set(children.map(\.id))
        for (n, s) in sets.enumerated() where !setHasChild[n] || !ids.contains(s.childId) {
            throw BackupError.danglingReference(entity: "routineSet", id: s.id.lowercased, field: "childId",
                                               target: setHasChild[n] ? s.childId.lowercased : "(none)")
        }
    }

    /// Each slot names a child and a set of the archive; each child's slots, taken together, follow
    /// the schedule rules (the set is that child's and not deleted, one set per weekday and start,
    /// at most 8 starts a day).
    private func checkSchedules(_ slots: [ScheduleRecord], children: [Child], sets: [RoutineSet]) throws {
        let childIds = Set(children.map(\.id)), setIds = Set(sets.map(\.id))
        var byChild: [UUID: [ScheduleRecord]] = [:]
        for r in slots {
            guard childIds.contains(r.childId) else {
                throw BackupError.danglingReference(entity: "weeklySchedule", id: r.childId.lowercased, field: "childId", target: r.childId.lowercased)
            }
            guard setIds.contains(r.slot.routineSetId) else {
                throw BackupError.danglingReference(entity: "weeklySchedule", id: r.childId.lowercased, field: "routineSetId",
                                                   target: r.slot.routineSetId.lowercased)
            }
            byChild[r.childId, default: []].append(r)
        }
        for (child, own) in byChild.sorted(by: { $0.key.lowercased < $1.key.lowercased }) {
            let entries = own.map { ScheduleEntry(weekdays: [$0.slot.weekday], start: $0.slot.start, routineSetId: $0.slot.routineSetId) }
            do { try Validator.schedule(entries, childId: child, sets: sets.filter { $0.childId == child }) } catch let v as ContractViolation {
                throw BackupError.contract(entity: "weeklySchedule", id: child.lowercased, violation: v)
            }
        }
    }

    private func linuxSettings(_ app: JSONObject?) throws -> DeviceSettings {
        guard let app else { return DeviceSettings(createdAt: now) }
        let pin = try app.optionalString("guardianPinHash")
        let recovery = try app.optionalString("recoveryCodeHash")
        for (field, hash) in [("guardianPinHash", pin), ("recoveryCodeHash", recovery)] {
            if let hash, !hash.hasPrefix("$argon2id$") {
                throw BackupError.contract(entity: "appSettings", id: "singleton",
                                           violation: ContractViolation(field: field, value: "(not argon2id)", allowed: "an argon2id hash or null",
                                                                                  allowedKey: "contract.allowed.argon2OrNull", valueKey: "contract.value.notArgon2"))
            }
        }
        let locale = try app.optionalString("locale")
        if let locale { try settingsRule { try Validator.locale(locale) } }
        return DeviceSettings(guardianPinHash: pin, recoveryCodeHash: recovery, locale: locale,
                              createdAt: try app.optionalStamp("createdAt") ?? now, updatedAt: try app.optionalStamp("updatedAt"))
    }

    /// The iOS and Android apps have one child and device-wide feedback settings: they become the
    /// child's profile. Their PIN hashes cannot be checked here, so they are dropped.
    private func foreignChildAndSettings(_ app: JSONObject?, sets: [RoutineSet]) throws -> (Child, DeviceSettings) {
        var profile = try app.map { try DataFileReader.profile($0, intensityKey: "feedbackIntensity") } ?? FeedbackProfile()
        let locale = profile.locale
        profile.locale = nil
        try settingsRule {
            try Validator.childName(defaultChildName)
            try Validator.profile(profile)
            if let locale { try Validator.locale(locale) }
        }
        let created = sets.map(\.createdAt).min() ?? now
        let child = Child(id: defaultChildId, displayName: defaultChildName, profile: profile, createdAt: created)
        let device = DeviceSettings(locale: locale, createdAt: try app?.optionalStamp("createdAt") ?? now,
                                    updatedAt: try app?.optionalStamp("updatedAt"))
        return (child, device)
    }

    private func settingsRule(_ check: () throws -> Void) throws {
        do { try check() } catch let v as ContractViolation {
            throw BackupError.contract(entity: "appSettings", id: "singleton", violation: v)
        }
    }

    /// The apps' rule for the one active set: the most recently updated active visible set,
    /// else the most recently updated visible set.
    static func oneActiveSet(_ sets: [RoutineSet]) -> [RoutineSet] {
        let visible = sets.filter(\.isVisible)
        let newestFirst: (RoutineSet, RoutineSet) -> Bool = { $0.updatedAt > $1.updatedAt }
        let chosen = visible.filter(\.isActive).sorted(by: newestFirst).first ?? visible.sorted(by: newestFirst).first
        return sets.map { var s = $0; s.isActive = (s.id == chosen?.id); return s }
    }
}
