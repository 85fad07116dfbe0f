import Foundation
import SteppieCore

/// One child's data as a phone backup (iOS, Android) carries it: the app's sets, routines and
/// history, and its feedback settings.
public struct ChildData: Sendable, Equatable {
    public var profile: FeedbackProfile
    public var sets: [RoutineSet]
    public var routines: [Routine]
    public var logs: [DailyLog]

    public init(profile: FeedbackProfile, sets: [RoutineSet], routines: [Routine], logs: [DailyLog]) {
        self.profile = profile; self.sets = sets; self.routines = routines; self.logs = logs
    }
}

/// What one child holds now, so that a restore can name what it replaces.
public struct ChildHoldings: Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var archived: Bool
    /// The names of the child's sets that are not deleted, oldest first.
    public var sets: [LocalizedText]
    /// Every routine row of the child's sets (deleted ones too: they go with the history).
    public var routines: Int
    public var dailyLogs: Int
    /// The photo files the child's routines show.
    public var photos: Set<String>
    /// The child's weekly schedule slots.
    public var scheduleSlots: Int = 0
}

extension Store {
    /// Every child (archived ones too) with the names of its sets and how many routines, log
    /// entries and photos it has, in creation order.
    public func childHoldings() throws -> [ChildHoldings] {
        try read {
            var holdings = try db.query("SELECT id, display_name, archived_at FROM children ORDER BY created_at, rowid") { row in
                ChildHoldings(id: UUID(uuidString: row.text(0)) ?? UUID(), name: row.text(1), archived: row.optionalText(2) != nil,
                              sets: [], routines: 0, dailyLogs: 0, photos: [])
            }
            var index: [String: Int] = [:]
            for (n, h) in holdings.enumerated() { index[h.id.lowercased] = n }
            for (child, name) in try db.query("""
                SELECT child_id, name FROM routine_sets WHERE deleted_at IS NULL ORDER BY created_at, rowid
                """, [], { ($0.text(0), try JSONColumn.decode(LocalizedText.self, $0.text(1), table: "routine_sets", id: $0.text(0))) }) {
                if let n = index[child] { holdings[n].sets.append(name) }
            }
            for (child, icon) in try db.query("""
                SELECT s.child_id, r.icon FROM routines r JOIN routine_sets s ON s.id = r.routine_set_id ORDER BY r.rowid
                """, [], { ($0.text(0), try JSONColumn.decode(IconRef.self, $0.text(1), table: "routines", id: $0.text(0))) }) {
                guard let n = index[child] else { continue }
                holdings[n].routines += 1
                if case .photo(_, let asset) = icon { holdings[n].photos.insert(asset) }
            }
            // A photo a completion showed stays with the child whose history names it.
            for (child, icon) in try db.query("""
                SELECT s.child_id, k.icon FROM routine_looks k JOIN routines r ON r.id = k.routine_id
                JOIN routine_sets s ON s.id = r.routine_set_id ORDER BY k.rowid
                """, [], { ($0.text(0), try JSONColumn.decode(IconRef.self, $0.text(1), table: "routine_looks", id: $0.text(0))) }) {
                if let n = index[child], case .photo(_, let asset) = icon { holdings[n].photos.insert(asset) }
            }
            for (child, count) in try db.query("""
                SELECT s.child_id, count(*) FROM daily_logs l JOIN routine_sets s ON s.id = l.routine_set_id GROUP BY s.child_id
                """, [], { ($0.text(0), $0.int(1)) }) {
                if let n = index[child] { holdings[n].dailyLogs = count }
            }
            for (child, count) in try db.query("SELECT child_id, count(*) FROM set_schedules GROUP BY child_id", [], { ($0.text(0), $0.int(1)) }) {
                if let n = index[child] { holdings[n].scheduleSlots = count }
            }
            return holdings
        }
    }

    /// Replaces one child's sets, routines, history and feedback profile with `data`, in one
    /// transaction (a savepoint inside one); every other child and the device settings stay as they
    /// are. `newChild` is inserted first when the data goes to a child that is not there yet. Ids
    /// that another child already uses get new ones (the same phone backup restored into two
    /// children). Recordings, guardian corrections and absences stay with the routines that are
    /// there again; the child's schedule slots stay where their set is there again. Returns the
    /// data as stored (with any new ids).
    @discardableResult
    public func replaceChildData(childId: UUID, newChild: Child? = nil, with data: ChildData, at now: Date) throws -> ChildData {
        var data = data
        for i in data.sets.indices { data.sets[i].childId = childId }
        try validate { try Validator.profile(data.profile) }
        try validateGroups(Snapshot(routineSets: data.sets, routines: data.routines))
        return try write {
            let syncBefore = try syncRowsBeforeRestore()   // refused on a joined device; a change on the hub
            if let newChild {
                if try children().contains(where: { Validator.foldedName($0.displayName) == Validator.foldedName(newChild.displayName) }) {
                    throw StoreError.childNameTaken(newChild.displayName)
                }
                try insertRows(children: [newChild], sets: [], routines: [], logs: DailyLogRecords())
            } else {
                try updateProfile(childId: childId, data.profile, at: now)
            }
            let child = SQLValue.text(childId.lowercased)
            let ownSets = "SELECT id FROM routine_sets WHERE child_id = ?"
            let ownRoutines = "SELECT id FROM routines WHERE routine_set_id IN (\(ownSets))"
            let recordings = try db.query("SELECT \(Store.recordingColumns) FROM routine_recordings WHERE routine_id IN (\(ownRoutines)) ORDER BY rowid",
                                          [child], decodeRecording)
            let schedules = try db.query("SELECT child_id, weekday, start_time, routine_set_id, created_at, updated_at FROM set_schedules WHERE child_id = ? ORDER BY rowid",
                                         [child]) { row in (0..<6).map { row.value(Int32($0)) } }
            let guardianRecords = try takeGuardianRecords()
            // History first: a trigger forbids removing routines that logs point at.
            for sql in ["DELETE FROM set_schedules WHERE child_id = ?",
                        "DELETE FROM routine_recordings WHERE routine_id IN (\(ownRoutines))",
                        "DELETE FROM daily_logs WHERE routine_set_id IN (\(ownSets))",
                        "DELETE FROM routine_looks WHERE routine_id IN (\(ownRoutines))",
                        "DELETE FROM routines WHERE routine_set_id IN (\(ownSets))",
                        "DELETE FROM routine_sets WHERE child_id = ?"] {
                try db.run(sql, [child])
            }
            data = try freshIds(data)
            try insertRows(children: [], sets: data.sets, routines: data.routines, logs: DailyLogRecords(data.logs))
            let routines = Set(try db.query("SELECT id FROM routines", []) { UUID(uuidString: $0.text(0)) ?? UUID() })
            for r in recordings where routines.contains(r.routineId) { try insertRecording(r) }
            try putBack(guardianRecords, routines: routines)
            let usable = Set(data.sets.filter { $0.deletedAt == nil }.map(\.id.lowercased))
            for row in schedules {
                guard case .text(let set) = row[3], usable.contains(set) else { continue }
                try db.run("""
                    INSERT INTO set_schedules (child_id, weekday, start_time, routine_set_id, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """, row)
            }
            if let syncBefore { try settleRestoreOnHub(before: syncBefore) }
            return data
        }
    }

    /// `data` with new ids wherever a row of another child already has the id (this child's rows
    /// are gone by now), references following.
    private func freshIds(_ data: ChildData) throws -> ChildData {
        func taken(_ table: String, _ id: UUID) throws -> Bool {
            try db.queryFirst("SELECT 1 FROM \(table) WHERE id = ?", [.text(id.lowercased)]) { _ in true } ?? false
        }
        var data = data
        var sets: [UUID: UUID] = [:], routines: [UUID: UUID] = [:]
        for i in data.sets.indices where try taken("routine_sets", data.sets[i].id) {
            let fresh = ids.next()
            sets[data.sets[i].id] = fresh
            data.sets[i].id = fresh
        }
        for i in data.routines.indices {
            if let moved = sets[data.routines[i].routineSetId] { data.routines[i].routineSetId = moved }
            if try taken("routines", data.routines[i].id) {
                let fresh = ids.next()
                routines[data.routines[i].id] = fresh
                data.routines[i].id = fresh
            }
        }
        for i in data.logs.indices {
            if let moved = sets[data.logs[i].routineSetId] { data.logs[i].routineSetId = moved }
            if let moved = routines[data.logs[i].routineId] { data.logs[i].routineId = moved }
            if try taken("daily_logs", data.logs[i].id) { data.logs[i].id = ids.next() }
        }
        return data
    }
}
