import Foundation
import SteppieCore
import SteppieSync

/// Days decided from their events (`DayFold`), by one function whichever way they come: a day an
/// apply touched (`materializeDay`), or every day of the children a fresh copy brought, folded
/// once when the copy's last page is applied (`foldCopiedDays`: one pass over their events in
/// (routine, date) order) instead of page by page. The SQL over `sync_events` is kept in the few
/// small functions at the top (insert one, read one day's, stream some children's).
extension Store {
    /// An event as `sync_events` keeps it; what the child saw stays stored JSON, decoded only for
    /// the press that decides a day's look (`event.shownTitle` and `event.shownIcon` are nil).
    struct StoredEvent {
        let event: CompletionEvent
        let shownTitle: String?
        let shownIcon: String?
        /// Its date and instant were kept as numbers and written back here (`SyncEventText`): in
        /// the contract's forms by construction, so a day decided from such events passes
        /// daily_logs' CHECKs without SQLite evaluating them (`writeStagedDays`).
        var canonical = false
    }

    /// A look already found or made during one fold: (routine, title JSON, icon JSON) as stored.
    struct LookKey: Hashable {
        let routine: String
        let title: String
        let icon: String
    }

    /// The looks found or made during one fold, and the last one asked for (consecutive days of a
    /// routine mostly show the same look: compared, not hashed).
    struct LookCache {
        var known: [LookKey: SQLValue] = [:]
        var last: (key: LookKey, value: SQLValue)?

        /// Forgets everything (looks made inside a rolled-back savepoint are gone).
        mutating func clear() {
            known = [:]
            last = nil
        }
    }

    /// Keeps an event once by its id; true when it is new here.
    func insertSyncEvent(_ event: CompletionEvent) throws -> Bool {
        // Kept compactly (schema v12, `SyncEventSQL`): the same statements as the triggers'.
        let values = Self.eventValues(event)
        for statement in Self.eventInsert { try db.run(statement, values) }
        return db.changes > 0
    }

    /// An event as `SyncEventSQL`'s source binds it (`?1`…`?12`).
    static func eventValues(_ event: CompletionEvent) -> [SQLValue] {
        [
            .text(event.id), .text(event.child), .text(event.routine), .text(event.set), .text(event.date),
            .text(event.kind.rawValue), .text(event.at), .optionalText(event.shownTitle.map(SyncJSON.text)),
            .optionalText(event.shownIcon.map(SyncJSON.text)), .integer(event.stamp.wall),
            .integer(Int64(event.stamp.counter)), .text(event.stamp.device.text),
        ]
    }

    /// One routine's events on one date (an event whose kind or stamp cannot be read is left out).
    func syncEvents(routine: String, date: String) throws -> [StoredEvent] {
        try db.query("""
            SELECT id, child, routine, set_id, date, kind, at, stamp, shown_title, shown_icon FROM sync_events
            WHERE routine = ?1 AND day = \(SyncEventSQL.day("?2"))
            """, [.text(routine), .text(date)], Self.storedEvent).compactMap { $0 }
    }

    /// Every event of `children` whose routine is a row here, in (routine, date) order, each with
    /// its routine's set: one statement stepped row by row, nothing held but the current row.
    /// (`CROSS JOIN` and `+child`: the routines in id order, each one's events along the key by
    /// target and day, so no sort but of one routine's targets; by child, SQLite would sort every
    /// event of the children in a temporary tree.) The stored columns are read as they are and
    /// named through the targets, origins, looks and dates read once (only the id and the instant
    /// are made into text per event), instead of decoding every event's texts in SQL.
    /// (`routine`: that routine's events alone; `names`: the targets, origins and looks read
    /// already, for a caller that reads routine by routine.)
    func forEachSyncEvent(ofChildren children: [String], routine: String? = nil, names: SyncEventNames? = nil,
                          _ body: (StoredEvent, _ set: String) throws -> Void) throws {
        let names = try names ?? syncEventNames()
        let (targets, origins, looks) = (names.targets, names.origins, names.looks)
        var dates: [Int: String] = [:]
        let statement = try db.statement("""
            SELECT e.target, e.day, e.kind, e.at_ms, e.wall, e.counter, e.origin, e.look, e.hi, r.routine_set_id, e.lo, e.at_offset
            FROM routines r CROSS JOIN sync_event_targets t ON t.routine = r.id CROSS JOIN sync_event_log e ON e.target = t.id
            WHERE +t.child IN (SELECT value FROM json_each(?1))\(routine == nil ? "" : " AND r.id = ?2")
            ORDER BY r.id, e.day
            """)
        defer { statement.reset() }
        try statement.bind([.text(SyncJSON.text(.array(children.map(SyncValue.string))))] + (routine.map { [.text($0)] } ?? []))
        let kinds = SyncEventSQL.kinds.compactMap(CompletionEvent.Kind.init(rawValue:))
        while let row = try statement.step() {
            guard let target = targets[row.int(0)], let device = origins[row.int(6)] else { continue }
            let date: String
            var canonical = true
            if case .integer(let day) = row.value(1) {
                if let known = dates[Int(day)] {
                    date = known
                } else {
                    date = try db.queryFirst("SELECT \(SyncEventSQL.dateText("?1"))", [.integer(day)]) { $0.text(0) } ?? ""
                    dates[Int(day)] = date
                }
            } else {
                date = row.text(1)
                canonical = false
            }
            let kind = row.int(2)
            guard kinds.indices.contains(kind), (0...Int(UInt32.max)).contains(row.int(5)) else { continue }
            let look = row.isNull(7) ? nil : looks[row.int(7)]
            let stamp = HybridTimestamp(wall: Int64(row.int(4)), counter: UInt32(row.int(5)), device: device)
            // The id and the instant decoded as `SyncEventSQL.idText` and `atText` decode them.
            let id: String, at: String
            if case .integer(let hi) = row.value(8) { id = SyncEventText.id(hi: hi, lo: Int64(row.int(10))) } else { id = row.text(8) }
            if case .integer(let ms) = row.value(3), case .integer(let day) = row.value(1), !row.isNull(11) {
                at = SyncEventText.instant(localMilliseconds: day * 86_400_000 + ms, offsetMinutes: Int64(row.int(11)))
            } else {
                at = row.text(3)
                canonical = false
            }
            let event = CompletionEvent(id: id, child: target.child, routine: target.routine, set: target.set, date: date,
                                        kind: kinds[kind], at: at, stamp: stamp)
            try body(StoredEvent(event: event, shownTitle: look?.title, shownIcon: look?.icon, canonical: canonical), row.text(9))
        }
    }

    /// The names `sync_event_log`'s numbers stand for: its targets (child, routine, set), origins
    /// (devices) and looks (title, icon).
    struct SyncEventNames {
        var targets: [Int: (child: String, routine: String, set: String)] = [:]
        var origins: [Int: DeviceID] = [:]
        var looks: [Int: (title: String?, icon: String?)] = [:]
    }

    func syncEventNames() throws -> SyncEventNames {
        var names = SyncEventNames()
        for (id, child, routine, set) in try db.query("SELECT id, child, routine, set_id FROM sync_event_targets", [], {
            ($0.int(0), $0.text(1), $0.text(2), $0.text(3))
        }) { names.targets[id] = (child, routine, set) }
        for (id, device) in try db.query("SELECT id, device FROM sync_event_origins", [], { ($0.int(0), $0.text(1)) }) {
            if let device = DeviceID(device) { names.origins[id] = device }
        }
        for (id, title, icon) in try db.query("SELECT id, NULLIF(title, ''), NULLIF(icon, '') FROM sync_event_looks", [], {
            ($0.int(0), $0.optionalText(1), $0.optionalText(2))
        }) { names.looks[id] = (title, icon) }
        return names
    }

    private static func storedEvent(_ r: Row) -> StoredEvent? {
        guard let kind = CompletionEvent.Kind(rawValue: r.text(5)), let stamp = HybridTimestamp(r.text(7)) else { return nil }
        return StoredEvent(event: CompletionEvent(id: r.text(0), child: r.text(1), routine: r.text(2), set: r.text(3), date: r.text(4),
                                                  kind: kind, at: r.text(6), stamp: stamp),
                           shownTitle: r.optionalText(8), shownIcon: r.optionalText(9))
    }

    /// One routine's day, decided by its events (`DayFold`): the log row, its corrections and the
    /// look the last press showed.
    func materializeDay(_ day: SyncView.DayKey) throws {
        let events = try syncEvents(routine: day.routine, date: day.date)
        guard !events.isEmpty,
              let set = try db.queryFirst("SELECT routine_set_id FROM routines WHERE id = ?", [.text(day.routine)], { $0.text(0) })
        else { return }
        var looks = LookCache()
        try writeDay(routine: day.routine, date: day.date, set: set, events: events, looks: &looks, now: stamp(Date()),
                     id: ids.next().lowercased)
    }

    /// Every day of `children`'s routines decided from their events in one pass (the end of a
    /// fresh copy). The pass runs inside one savepoint; when a day breaks a constraint, it is rolled
    /// back and run again with each routine's days in a savepoint of their own, and those of a
    /// routine that fails written again day by day, each failing one noted as `materialize` notes
    /// it, so the tables end as a page-by-page apply leaves them. (A savepoint per routine from the
    /// start would keep every page it changes that an earlier routine wrote, in a sub-journal file:
    /// about half the fold's time on ten years.) Returns the conflicts noted.
    func foldCopiedDays(children: [String], physical: Int64) throws -> Int {
        // As a restore loads its logs: without daily_logs' own indexes and set trigger (each day's
        // set is its routine's, read from `routines` with its events), made again in one sorted
        // pass at the end; a failure rolls the whole page back, indexes and trigger with it.
        let deferred = try dropLogIndexes()
        // The new rows' ids in increasing order: added at one place of the id index, not at random.
        var dayIds = OrderedIdentifiers(milliseconds: physical, seed: ids.next())
        var conflicts = 0
        do {
            // The staged days are kept in memory, not spilled to a temporary file (about 60 MB).
            let tempCache = try db.queryFirst("PRAGMA temp.cache_size") { $0.int(0) } ?? -2000
            try withPragma("temp.cache_size", "-65536", restoring: "\(tempCache)") {
                try db.transaction { try stagedFoldPass(children: children, dayIds: &dayIds) }
            }
        } catch let error as SQLiteError where error.isConstraintViolation {
            conflicts = try guardedFoldPass(children: children, physical: physical, dayIds: &dayIds)
        }
        try rebuild(deferred)
        return conflicts
    }

    /// The unguarded pass of `foldCopiedDays`: the days go to daily_logs in a few statements
    /// (`writeStagedDays`), each day staged as soon as the next begins (nothing waits for its
    /// routine); a day that breaks a constraint fails its whole statement, and the caller rolls the
    /// pass back for the guarded one.
    private func stagedFoldPass(children: [String], dayIds: inout OrderedIdentifiers) throws {
        var looks = LookCache()
        let now = stamp(Date())
        let staged = try dayStaging()
        var stagedCount = 0
        var routine = "", set = ""
        var day: [StoredEvent] = []
        var allCanonical = true
        func writePending() throws {
            guard let first = day.first else { return }
            try writeDay(routine: routine, date: first.event.date, set: set, events: day, looks: &looks, now: now, id: dayIds.next(),
                         staged: staged)
            if allCanonical && !day.allSatisfy(\.canonical) { allCanonical = false }
            day.removeAll(keepingCapacity: true)
            stagedCount += 1
            if stagedCount >= Self.stagedDays {
                try writeStagedDays(checked: !allCanonical)
                stagedCount = 0
                allCanonical = true
            }
        }
        try forEachSyncEvent(ofChildren: children) { stored, routineSet in
            if stored.event.routine != routine {
                try writePending()
                routine = stored.event.routine
                set = routineSet
            }
            if let first = day.first, first.event.date != stored.event.date { try writePending() }
            day.append(stored)
        }
        try writePending()
        try writeStagedDays(checked: !allCanonical)
    }

    /// The guarded pass of `foldCopiedDays`: each routine's days in a savepoint, and those of a
    /// routine that fails day by day, each failing one noted in `sync_conflicts`. Routine by
    /// routine, each one's events read to their end before its days are written: a savepoint rolled
    /// back in a transaction that changed the schema (the fold dropped daily_logs' indexes) aborts
    /// every statement still open, and a read of every routine's events left open across a failing
    /// day was aborted with it (`SQLITE_ABORT_ROLLBACK`), so the copy could never be applied.
    private func guardedFoldPass(children: [String], physical: Int64, dayIds: inout OrderedIdentifiers) throws -> Int {
        var looks = LookCache()
        let now = stamp(Date())
        var conflicts = 0
        let names = try syncEventNames()
        let routines = try db.query("""
            SELECT DISTINCT r.id FROM routines r JOIN sync_event_targets t ON t.routine = r.id
            WHERE t.child IN (SELECT value FROM json_each(?)) ORDER BY r.id
            """, [.text(SyncJSON.text(.array(children.map(SyncValue.string))))]) { $0.text(0) }
        for routine in routines {
            var set = ""
            var days: [(date: String, events: [StoredEvent])] = []
            try forEachSyncEvent(ofChildren: children, routine: routine, names: names) { stored, routineSet in
                set = routineSet
                if days.last?.date == stored.event.date {
                    days[days.count - 1].events.append(stored)
                } else {
                    days.append((stored.event.date, [stored]))
                }
            }
            guard !days.isEmpty else { continue }
            do {
                try db.transaction {
                    for day in days {
                        try writeDay(routine: routine, date: day.date, set: set, events: day.events, looks: &looks, now: now, id: dayIds.next())
                    }
                }
            } catch let error as SQLiteError where error.isConstraintViolation {
                looks.clear()   // looks made inside the rolled-back savepoint are gone
                for day in days {
                    do {
                        try db.transaction {
                            try writeDay(routine: routine, date: day.date, set: set, events: day.events, looks: &looks, now: now,
                                         id: dayIds.next())
                        }
                    } catch let error as SQLiteError where error.isConstraintViolation {
                        looks.clear()
                        conflicts += 1
                        try db.run("INSERT INTO sync_conflicts (at, entity, record, reason) VALUES (?, ?, ?, ?)",
                                   [.integer(physical), .text(SyncEntity.routine.rawValue), .text(routine), .text(error.message)])
                    }
                }
            }
        }
        return conflicts
    }

    /// Writes one routine's day as its events decide (`DayFold`): the log row in `set`, the
    /// corrections (each one's previous status decided again from all the day's events, so one
    /// that arrived before the press it follows ends as it does everywhere), and the look the deciding press showed (found in `looks`, in
    /// `routine_looks`, or made). `id` names the log row when it is new.
    private func writeDay(routine: String, date: String, set: String, events: [StoredEvent], looks: inout LookCache,
                          now: SQLValue, id: String, staged: Statement? = nil) throws {
        guard let entry = DayFold.entry(events.map(\.event)) else { return }
        var look: SQLValue = .null
        if let press = entry.shownBy, let shown = events.first(where: { $0.event.id == press }),
           let title = shown.shownTitle, let icon = shown.shownIcon {
            let key = LookKey(routine: routine, title: title, icon: icon)
            if let last = looks.last, last.key == key {
                look = last.value
            } else if let known = looks.known[key] {
                look = known
                looks.last = (key, known)
            } else if let titleValue = SyncJSON.value(title), let iconValue = SyncJSON.value(icon) {
                look = try self.look(routine: routine, title: SyncJSON.text(titleValue), icon: SyncJSON.text(iconValue), now: now)
                looks.known[key] = look
                looks.last = (key, look)
            }
        }
        let completed = entry.status == .completed
        let row: [SQLValue] = [.text(id), .text(date), .text(routine), .text(set), .text(completed ? "completed" : "undone"),
                               .optionalText(entry.completedAt), now, now, look]
        if let staged {
            try staged.bind(row)
            try staged.execute()
        } else {
            try db.run("INSERT INTO daily_logs \(Self.dayColumns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) \(Self.dayUpsert)", row)
        }
        for correction in entry.corrections {
            try db.run("""
                INSERT INTO log_corrections (id, date, routine_id, done, previous_status, made_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET previous_status = excluded.previous_status
                WHERE previous_status IS NOT excluded.previous_status
                """, [.text(correction.event), .text(date), .text(routine), .bool(correction.done),
                      .optionalText(correction.previous?.rawValue), .text(correction.madeAt)])
        }
    }

    static let dayColumns = "(id, date, routine_id, routine_set_id, status, completed_at, created_at, updated_at, look_id)"
    /// How a day's row meets one already there (a routine's day this device made itself).
    static let dayUpsert = """
        ON CONFLICT (date, routine_id) DO UPDATE SET status = excluded.status, completed_at = excluded.completed_at,
            updated_at = excluded.updated_at, look_id = CASE WHEN excluded.status = 'completed' THEN COALESCE(excluded.look_id, look_id) ELSE look_id END
        """

    /// Days a fold stages before writing them to daily_logs by one statement.
    static let stagedDays = 250_000

    /// A temporary table of this connection for a fold's days (no constraint: a row staged opens
    /// no statement journal), emptied; the insert that stages one.
    private func dayStaging() throws -> Statement {
        try db.execute("""
            CREATE TEMP TABLE IF NOT EXISTS fold_days (id, date, routine_id, routine_set_id, status, completed_at, created_at, updated_at, look_id);
            DELETE FROM temp.fold_days;
            """)
        return try db.statement("INSERT INTO temp.fold_days VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
    }

    /// Writes the staged days to daily_logs by one statement, in the order they were staged, and
    /// empties the staging table. (Each statement that writes daily_logs keeps, in a statement
    /// journal, every page it changes that was there before it began: one per day row would
    /// journal the same table and index pages again and again, a sub-journal file written about
    /// half of the fold's time on ten years.)
    ///
    /// `checked` false (every staged day decided from events kept as numbers): daily_logs' CHECKs
    /// are not evaluated, as a restore's bulk load does not (five GLOBs a row); they hold by
    /// construction — the id `OrderedIdentifiers`' lowercase UUID, the date SQLite's `date()` of a
    /// day number, the instants `SyncEventText`'s and `Timestamp`'s, the status one of the two words
    /// and completed ⇔ completed_at `DayFold`'s rule. NOT NULL, UNIQUE and the foreign keys are
    /// still enforced.
    private func writeStagedDays(checked: Bool) throws {
        let insert = { try self.db.run("INSERT INTO daily_logs \(Self.dayColumns) SELECT * FROM temp.fold_days WHERE true ORDER BY rowid \(Self.dayUpsert)") }
        if checked { try insert() } else { try withPragma("ignore_check_constraints", "ON", restoring: "OFF", insert) }
        try db.execute("DELETE FROM temp.fold_days")
    }

    /// The routine's look with this title and icon (canonical JSON), made when it has none yet.
    private func look(routine: String, title: String, icon: String, now: SQLValue) throws -> SQLValue {
        if let id = try db.queryFirst("SELECT id FROM routine_looks WHERE routine_id = ? AND title = json(?) AND icon = json(?) LIMIT 1",
                                      [.text(routine), .text(title), .text(icon)], { $0.text(0) }) {
            return .text(id)
        }
        let id = ids.next().lowercased
        try db.run("INSERT INTO routine_looks (id, routine_id, title, icon, created_at) VALUES (?, ?, json(?), json(?), ?)",
                   [.text(id), .text(routine), .text(title), .text(icon), now])
        return .text(id)
    }
}
