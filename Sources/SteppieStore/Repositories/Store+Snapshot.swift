import Foundation
import SteppieCore

extension Store {
    /// Reads every row (children with profiles, sets, routines, logs, device settings, the looks
    /// completions showed and the photos' recorded hashes) in one read transaction, each table in
    /// insertion order.
    public func snapshot() throws -> Snapshot {
        try export { snapshot, logs in
            var whole = snapshot
            try logs { whole.dailyLogs.append($0) }
            return whole
        }
    }

    /// Hands each daily log to its argument, in insertion order (see `export(_:)`).
    public typealias LogWalk = (_ each: (DailyLog) throws -> Void) throws -> Void

    /// What a backup holds, read in one read transaction (one consistent state): `body` gets the
    /// children, sets, routines and device settings (a `Snapshot` whose `dailyLogs` is empty) and
    /// a walk over the daily logs, row by row, so a 10-year history is never in memory at once.
    /// The walk is valid only inside `body`.
    public func export<T>(_ body: (_ snapshot: Snapshot, _ logs: LogWalk) throws -> T) throws -> T {
        try read {
            let children = try db.query("SELECT \(Store.childColumns) FROM children ORDER BY rowid", [], decodeChild)
            let sets = try db.query("SELECT \(Store.setColumns) FROM routine_sets ORDER BY rowid", [], decodeSet)
            let routines = try db.query("SELECT \(Store.routineColumns) FROM routines ORDER BY rowid", [], decodeRoutine)
            let settings = try db.queryFirst("SELECT guardian_pin_hash, recovery_code_hash, locale, created_at, updated_at FROM device_settings") {
                DeviceSettings(guardianPinHash: $0.optionalText(0), recoveryCodeHash: $0.optionalText(1), locale: $0.optionalText(2),
                               createdAt: Timestamp.parse($0.text(3)) ?? .distantPast, updatedAt: Timestamp.parse($0.text(4)))
            }
            let schedules = try db.query("SELECT child_id, weekday, start_time, routine_set_id, created_at, updated_at FROM set_schedules ORDER BY rowid",
                                         []) { row -> ScheduleRecord in
                guard let child = UUID(uuidString: row.text(0)), let day = Weekday(rawValue: row.int(1)), let start = LocalTime(row.text(2)),
                      let set = UUID(uuidString: row.text(3)), let created = Timestamp.parse(row.text(4)),
                      let updated = Timestamp.parse(row.text(5)) else {
                    throw StoreError.corruptRow(table: "set_schedules", id: row.text(0), reason: "bad child, weekday, time, set or stamp")
                }
                return ScheduleRecord(childId: child, slot: ScheduleSlot(weekday: day, start: start, routineSetId: set),
                                      createdAt: created, updatedAt: updated)
            }
            let snapshot = Snapshot(children: children, routineSets: sets, routines: routines, dailyLogs: [], deviceSettings: settings,
                                    schedules: schedules, looks: try allLooks(),
                                    photoHashes: Dictionary(try db.query("SELECT name, sha256 FROM photo_hashes ORDER BY name", []) {
                                        ($0.text(0), $0.text(1))
                                    }, uniquingKeysWith: { a, _ in a }))
            return try body(snapshot) { each in
                let statement = try db.statement("SELECT \(Store.logColumnsWithLook) FROM daily_logs ORDER BY rowid")
                do {
                    while let row = try statement.step() { try each(try decodeLog(row, offset: 0, withLook: true)) }
                } catch {
                    statement.reset()   // stopped half way: the cached statement must not stay mid-step
                    throw error
                }
            }
        }
    }

    /// Deletes every child, set, routine and log and inserts `snapshot`'s in one transaction
    /// (a savepoint when called inside one). Each row is checked against the contract as it goes
    /// in; any failure rolls the whole replacement back. Device settings are left alone: see
    /// `replaceDeviceSettings(_:)`. Recordings (not part of snapshots) stay attached to the
    /// routines that are still there after the replacement; the others' rows are dropped. Weekly
    /// schedules, when the snapshot does not carry them, keep the slots whose child and visible set
    /// are still there. Guardian corrections and routine absences (not in snapshots) stay for the routines
    /// that are there again. This device's buttons and haptic outputs (not in snapshots) stay; a
    /// button keeps its child when that child is there again (and not archived), else it presses for
    /// the only child. A snapshot that carries schedules (`Snapshot.schedules`, a Linux backup)
    /// replaces them all instead.
    public func replaceAll(with snapshot: Snapshot) throws {
        var rest = snapshot
        rest.dailyLogs = []
        var logs = DailyLogRecords(snapshot.dailyLogs)
        try replaceAll(with: rest, logs: &logs)
    }

    /// `replaceAll(with:)` with the daily logs held compactly (a restore's million rows), inserted
    /// after `snapshot.dailyLogs`. The logs go in as one bulk load (`loadLogs`): daily_logs' own
    /// indexes and its set-matching trigger are dropped first and made again after the rows, in
    /// the same transaction, so they end exactly as the schema has them. `logs` is emptied once
    /// its rows are in, so that its memory is free again before the indexes are built (when the
    /// caller holds no other copy); on a failure it may be empty too.
    ///
    /// `recordings` (a Linux backup that carries them) replace every recording row instead; nil
    /// keeps the rows whose routine is there again, as described above.
    public func replaceAll(with snapshot: Snapshot, logs: inout DailyLogRecords, recordings incoming: [RoutineRecording]? = nil) throws {
        if !snapshot.dailyLogs.isEmpty { logs = DailyLogRecords(snapshot.dailyLogs + logs.logs) }
        try validateGroups(snapshot)
        try write {
            // On a joined device a backup would overwrite the newer data of the other devices of its
            // hub: refused. On the hub it is a change like any other (docs/sync.md).
            let syncBefore = try syncRowsBeforeRestore()
            let recordings = try db.query("SELECT \(Store.recordingColumns) FROM routine_recordings ORDER BY rowid", [], decodeRecording)
            let schedules = try db.query("SELECT child_id, weekday, start_time, routine_set_id, created_at, updated_at FROM set_schedules ORDER BY rowid") {
                row in (0..<6).map { row.value(Int32($0)) }
            }
            let guardianRecords = try takeGuardianRecords()
            // This device's buttons are not in snapshots; their child links must let go of the children.
            let buttonChildren = try takeButtonChildren()
            try withBulkCache {
                // Every log goes: the indexes are made again after the new ones are in (cheaper than
                // keeping them up to date row by row, and than deleting a million rows from them).
                let deferred = try dropLogIndexes()
                // History rows first: a trigger forbids removing routines that logs point at; recordings
                // point at routines too, schedules at children and sets.
                try db.execute("""
                    DELETE FROM set_schedules; DELETE FROM routine_recordings; DELETE FROM daily_logs; DELETE FROM routine_looks;
                    DELETE FROM routines; DELETE FROM routine_sets; DELETE FROM children;
                    """)
                try insertRows(children: snapshot.children, sets: snapshot.routineSets, routines: snapshot.routines, logs: DailyLogRecords())
                try insertLooks(snapshot.looks)
                if let hashes = snapshot.photoHashes { try replacePhotoHashes(hashes) }
                try loadLogs(logs, bulk: true)
                logs.removeAll()
                try rebuild(deferred)
            }
            try putBackButtonChildren(buttonChildren, children: snapshot.children)
            let restored = Set(snapshot.routines.map(\.id))
            if let incoming {
                for r in incoming {
                    guard restored.contains(r.routineId) else { throw StoreError.routineNotFound(r.routineId.lowercased) }
                    try validate { try Validator.locale(r.locale) }
                    try insertRecording(r)
                }
            } else {
                for r in recordings where restored.contains(r.routineId) { try insertRecording(r) }
            }
            try putBack(guardianRecords, routines: restored)
            if let incoming = snapshot.schedules {
                try insertSchedules(incoming)
            } else {
                // A snapshot without schedules (a phone backup, an older Linux one; docs/backup.md): a
                // slot stays when its child is still there and its set is still that child's and not deleted.
                let usable = Set(snapshot.routineSets.filter { $0.deletedAt == nil }.map { "\($0.childId.lowercased) \($0.id.lowercased)" })
                for row in schedules {
                    guard case .text(let child) = row[0], case .text(let set) = row[3], usable.contains("\(child) \(set)") else { continue }
                    try db.run("""
                        INSERT INTO set_schedules (child_id, weekday, start_time, routine_set_id, created_at, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """, row)
                }
            }
            if let syncBefore { try settleRestoreOnHub(before: syncBefore) }
        }
    }

    /// Inserts a snapshot's schedule slots after its children and sets, each child's checked as a
    /// whole against the contract (its own sets, not deleted; one set per weekday and start).
    private func insertSchedules(_ records: [ScheduleRecord]) throws {
        var byChild: [UUID: [ScheduleRecord]] = [:]
        for r in records { byChild[r.childId, default: []].append(r) }
        let sets = try db.query("SELECT \(Store.setColumns) FROM routine_sets", [], decodeSet)
        for (child, slots) in byChild {
            let entries = slots.map { ScheduleEntry(weekdays: [$0.slot.weekday], start: $0.slot.start, routineSetId: $0.slot.routineSetId) }
            try validate { try Validator.schedule(entries, childId: child, sets: sets.filter { $0.childId == child }) }
        }
        for r in records {
            try db.run("""
                INSERT INTO set_schedules (child_id, weekday, start_time, routine_set_id, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """, [.text(r.childId.lowercased), .int(r.slot.weekday.rawValue), .text(r.slot.start.description),
                      .text(r.slot.routineSetId.lowercased), stamp(r.createdAt), stamp(r.updatedAt)])
        }
    }

    /// Inserts rows as they are (ids lowercased), checking children and logs against the contract;
    /// the caller has removed what they replace and runs inside a write.
    func insertRows(children: [Child], sets: [RoutineSet], routines: [Routine], logs: DailyLogRecords) throws {
        let stamps = StampFormatter(timeZone: timeZone)
        func stamp(_ d: Date) -> SQLValue { .text(stamps.format(d)) }
        func optionalStamp(_ d: Date?) -> SQLValue { d.map(stamp) ?? .null }
        let child = try db.statement("INSERT INTO children (\(Store.childColumns)) VALUES (\(placeholders(20)))")
        for c in children {
            try validate {
                try Validator.childName(c.displayName); try Validator.profile(c.profile)
                if let picture = c.picture { try Validator.icon(picture) }
            }
            let p = c.profile
            try child.bind([.text(c.id.lowercased), .text(c.displayName), .text(p.intensity.rawValue), .bool(p.soundEnabled),
                            .bool(p.ttsEnabled), .bool(p.hapticEnabled), .real(p.ttsRate), .real(p.ttsVolume), .real(p.volumeCap),
                            .int(p.pitch), .optionalText(p.voiceVariant), .int(p.undoDurationSeconds),
                            .text(try JSONColumn.encode(p.notificationLeadTimes)), .optionalText(p.quietHoursStart?.description),
                            .optionalText(p.quietHoursEnd?.description), .optionalText(p.locale),
                            stamp(c.createdAt), stamp(c.updatedAt), optionalStamp(c.archivedAt),
                            try c.picture.map { .text(try JSONColumn.encode($0)) } ?? .null])
            try child.runToEnd()
        }
        let set = try db.statement("INSERT INTO routine_sets (\(Store.setColumns)) VALUES (\(placeholders(8)))")
        for s in sets {
            try set.bind([.text(s.id.lowercased), .text(s.childId.lowercased), .text(try JSONColumn.encode(s.name)), .bool(s.isActive),
                          .optionalText(s.startTime?.description), stamp(s.createdAt), stamp(s.updatedAt), optionalStamp(s.deletedAt)])
            try set.runToEnd()
        }
        let routine = try db.statement("INSERT INTO routines (\(Store.routineColumns)) VALUES (\(placeholders(12)))")
        for r in routines {
            try routine.bind([.text(r.id.lowercased), .text(r.routineSetId.lowercased), .optionalText(r.titleKey),
                              .text(try JSONColumn.encode(r.title)), .text(try JSONColumn.encode(r.icon)), .text(r.colorToken),
                              .int(r.order), .optionalText(r.scheduledTime?.description), .bool(r.isActive),
                              stamp(r.createdAt), stamp(r.updatedAt), optionalStamp(r.deletedAt)])
            try routine.runToEnd()
        }
        try loadLogs(logs, bulk: false)
    }

    /// Replaces the device row (PIN and recovery hashes, language), or removes it when nil.
    /// Lockout and unlock state start fresh.
    public func replaceDeviceSettings(_ settings: DeviceSettings?) throws {
        if let locale = settings?.locale { try validate { try Validator.locale(locale) } }
        try write {
            // Whether siblings may switch is this device's own choice, not the backup's: it stays.
            let siblings = try db.queryFirst("SELECT siblings_may_switch FROM device_settings") { $0.bool(0) } ?? false
            try db.run("DELETE FROM device_settings")
            guard let s = settings else { return }
            try db.run("""
                INSERT INTO device_settings (id, guardian_pin_hash, recovery_code_hash, locale, created_at, updated_at, siblings_may_switch)
                VALUES ('singleton', ?, ?, ?, ?, ?, ?)
                """, [.optionalText(s.guardianPinHash), .optionalText(s.recoveryCodeHash), .optionalText(s.locale),
                      stamp(s.createdAt), stamp(s.updatedAt), .bool(siblings)])
        }
    }

    /// The contract rules that span rows: children's names, titles, one active set per child,
    /// unique visible order.
    func validateGroups(_ snapshot: Snapshot) throws {
        try validate {
            try Validator.uniqueChildNames(snapshot.children)
            var setsByChild: [UUID: [RoutineSet]] = [:]
            for s in snapshot.routineSets { setsByChild[s.childId, default: []].append(s) }
            for sets in setsByChild.values { try Validator.sets(ofChild: sets) }
            var routinesBySet: [UUID: [Routine]] = [:]
            for r in snapshot.routines { routinesBySet[r.routineSetId, default: []].append(r) }
            for routines in routinesBySet.values { try Validator.routines(ofSet: routines) }
        }
    }

    func placeholders(_ n: Int) -> String { Array(repeating: "?", count: n).joined(separator: ", ") }
}
