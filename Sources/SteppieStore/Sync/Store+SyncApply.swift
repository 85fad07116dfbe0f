import Foundation
import SteppieCore
import SteppieSync

/// Applying entries from elsewhere (a device's pull of the hub's feed, the hub's take of a push):
/// each field change is a last-writer-wins register, each event is kept once; then the contract's
/// tables are brought to what the registers and events decide (`SyncView`'s rules: `Resolution`,
/// `DayFold`), with the triggers quiet so nothing is logged twice.
extension Store {
    /// What one apply did.
    package struct SyncApplied: Equatable, Sendable {
        package var changesTaken = 0
        package var eventsTaken = 0
        /// Records that could not be shown in the tables (kept in the registers; `sync_conflicts`).
        package var conflicts = 0
        /// Children whose row the tables could not take (a name another child has).
        package var conflictedChildren: [String] = []
    }

    /// A page of a fresh copy: its days are not folded page by page but all at once, by the last.
    enum CopyPage {
        /// More pages follow (or a killed device will ask for them): the days wait.
        case more
        /// The copy's last page: every day of these children is decided, in one pass.
        case last(children: [String])
    }

    /// Applies entries inside the caller's write transaction (`copy`: a page of a fresh copy).
    func applySyncEntries(_ entries: [SyncEntry], physical: Int64, copy: CopyPage? = nil) throws -> SyncApplied {
        var applied = SyncApplied()
        var touched = Touched()
        touched.foldDays = copy == nil
        var newest: HybridTimestamp?
        try db.run("UPDATE sync_state SET applying = 1")
        // A copy page's events are staged, then kept together by the same statements (no day waits on which were new).
        let staged = copy == nil ? nil : try stagedCopyEvents()
        for entry in entries {
            newest = max(newest ?? entry.stamp, entry.stamp)
            switch entry {
            case .change(let change):
                if let owner = try db.queryFirst("SELECT child FROM sync_registers WHERE entity = ? AND record = ? LIMIT 1",
                                                 [.text(change.entity.rawValue), .text(change.record)], { $0.text(0) }),
                   owner != change.child {
                    continue   // another child's record: never applied (the hub refuses such pushes)
                }
                try db.run("""
                    INSERT INTO sync_registers (entity, record, field, child, value, stamp) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (entity, record, field) DO UPDATE SET value = excluded.value, stamp = excluded.stamp
                    WHERE excluded.stamp > sync_registers.stamp
                    """, [.text(change.entity.rawValue), .text(change.record), .text(change.field), .text(change.child),
                          .text(SyncJSON.text(change.value)), .text(change.stamp.description)])
                if db.changes > 0 {
                    applied.changesTaken += 1
                    touched.add(change)
                }
            case .event(let event):
                if let staged {
                    try staged.bind(Self.eventValues(event))
                    try staged.execute()
                } else if try insertSyncEvent(event) {
                    applied.eventsTaken += 1
                    if copy == nil { touched.days.insert(SyncView.DayKey(routine: event.routine, date: event.date)) }
                }
            }
        }
        if staged != nil {
            for statement in Self.stagedEventInsert { try db.run(statement) }
            applied.eventsTaken = db.changes
            try db.run("DELETE FROM temp.sync_copy_events")
        }
        if let newest {
            // Every later local stamp sorts after what came in.
            try db.run("""
                UPDATE sync_state SET clock_wall = ?, clock_counter = ?
                WHERE clock_wall < ? OR (clock_wall = ? AND clock_counter < ?)
                """, [.integer(newest.wall), .integer(Int64(newest.counter)), .integer(newest.wall), .integer(newest.wall),
                      .integer(Int64(newest.counter))])
        }
        (applied.conflicts, applied.conflictedChildren) = try materialize(touched, physical: physical)
        if case .last(let children) = copy {
            applied.conflicts += try foldCopiedDays(children: children, physical: physical)
        }
        try db.run("UPDATE sync_state SET applying = 0")
        return applied
    }

    /// Keeps one event from elsewhere (`SyncEventSQL.boundSource`); the last statement's changes
    /// say whether it was new.
    static let eventInsert = SyncEventSQL.insert(from: SyncEventSQL.boundSource)

    /// Keeps a copy page's staged events (`stagedCopyEvents`) all at once, with the same encoding.
    static let stagedEventInsert = SyncEventSQL.insert(from: "SELECT * FROM temp.sync_copy_events")

    /// The insert that stages one event of a copy page (its values as `eventValues` gives them)
    /// in a temporary table of this connection, made the first time.
    private func stagedCopyEvents() throws -> Statement {
        try db.execute("""
            CREATE TEMP TABLE IF NOT EXISTS sync_copy_events (id, child, routine, set_id, date, kind, at, shown_title, shown_icon, w, c, d)
            """)
        return try db.statement("INSERT INTO temp.sync_copy_events VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)")
    }

    /// The records and days an apply changed.
    struct Touched {
        var records: [SyncEntity: Set<String>] = [:]
        var days: Set<SyncView.DayKey> = []
        /// False during a fresh copy: its days are folded once, by its last page.
        var foldDays = true

        mutating func add(_ change: FieldChange) {
            records[change.entity, default: []].insert(change.record)
        }
    }

    /// Brings the tables to what the registers decide for the touched records, parents first,
    /// then every touched set's order, every touched child's active set and schedule, and the
    /// touched days. A row made now brings its own waiting records with it: a new child its sets,
    /// a new set its routines, a new routine its days (a paged copy may bring a routine before its
    /// set, or a child's rows before a name conflict about it is settled). A record the tables
    /// cannot take (a name another child already has) stays in the registers and is noted in
    /// `sync_conflicts` (`SyncApplied.conflictedChildren` names such children); the rest goes on.
    func materialize(_ touched: Touched, physical: Int64) throws -> (conflicts: Int, children: [String]) {
        var conflicts = 0
        var conflictedChildren: [String] = []
        var rows = touched.records
        var sets: Set<String> = rows[.routineSet] ?? []
        var children = (rows[.child] ?? []).union(rows[.schedule] ?? [])
        var days = touched.days
        func guarded(_ entity: SyncEntity, _ record: String, row: Bool = false, _ body: () throws -> Void) throws {
            do {
                try db.transaction(body)
            } catch let error as SQLiteError where error.isConstraintViolation {
                conflicts += 1
                if entity == .child && row { conflictedChildren.append(record) }
                try db.run("INSERT INTO sync_conflicts (at, entity, record, reason) VALUES (?, ?, ?, ?)",
                           [.integer(physical), .text(entity.rawValue), .text(record), .text(error.message)])
            }
        }
        func exists(_ table: String, _ id: String) throws -> Bool {
            try db.queryFirst("SELECT 1 FROM \(table) WHERE id = ?", [.text(id)]) { _ in true } ?? false
        }
        /// Records of `entity` whose register `field` names `owner`.
        func records(_ entity: SyncEntity, _ field: String, _ owner: String) throws -> [String] {
            try db.query("SELECT record FROM sync_registers WHERE entity = ? AND field = ? AND value = json_quote(?)",
                         [.text(entity.rawValue), .text(field), .text(owner)]) { $0.text(0) }
        }
        // Children that waited for a name to be free (a conflict settled since) are tried again.
        rows[.child, default: []].formUnion(try db.query("""
            SELECT DISTINCT record FROM sync_conflicts WHERE entity = 'child' AND record NOT IN (SELECT id FROM children)
            """) { $0.text(0) })
        for id in (rows[.child] ?? []).sorted() {
            let existed = try exists("children", id)
            try guarded(.child, id, row: true) { try materializeRow(SyncColumns.children, id, physical: physical) }
            if !existed, try exists("children", id) { rows[.routineSet, default: []].formUnion(try records(.routineSet, "child", id)) }
        }
        for id in (rows[.routineSet] ?? []).sorted() {
            let existed = try exists("routine_sets", id)
            try guarded(.routineSet, id) { try materializeRow(SyncColumns.routineSets, id, physical: physical) }
            if let child = try registerChild(.routineSet, id) { children.insert(child) }
            sets.insert(id)
            if !existed, try exists("routine_sets", id) { rows[.routine, default: []].formUnion(try records(.routine, "set", id)) }
        }
        for id in (rows[.routine] ?? []).sorted() {
            let before = try db.queryFirst("SELECT routine_set_id FROM routines WHERE id = ?", [.text(id)]) { $0.text(0) }
            try guarded(.routine, id) { try materializeRow(SyncColumns.routines, id, physical: physical) }
            if let before { sets.insert(before) }
            if let set = try db.queryFirst("SELECT routine_set_id FROM routines WHERE id = ?", [.text(id)], { $0.text(0) }) {
                sets.insert(set)
                if before == nil && touched.foldDays {
                    // A routine made now: its recordings and the days whose events came before it did.
                    rows[.recording, default: []].formUnion(try records(.recording, "routine", id))
                    for date in try db.query("SELECT DISTINCT date FROM sync_events WHERE routine = ?", [.text(id)], { $0.text(0) }) {
                        days.insert(SyncView.DayKey(routine: id, date: date))
                    }
                }
            }
        }
        for id in (rows[.recording] ?? []).sorted() {
            try guarded(.recording, id) { try materializeRecording(id) }
        }
        for set in sets.sorted() {
            try guarded(.routineSet, set) { try materializeOrder(set: set) }
            if let child = try db.queryFirst("SELECT child_id FROM routine_sets WHERE id = ?", [.text(set)], { $0.text(0) }) {
                children.insert(child)
            }
        }
        for child in children.sorted() {
            try guarded(.child, child) { try materializeActiveSet(child: child) }
            try guarded(.schedule, child) { try materializeSchedule(child: child) }
        }
        for day in days.sorted() {
            try guarded(.routine, day.routine) { try materializeDay(day) }
        }
        return (conflicts, conflictedChildren)
    }

    /// The child a record belongs to, as its registers say.
    private func registerChild(_ entity: SyncEntity, _ record: String) throws -> String? {
        try db.queryFirst("SELECT child FROM sync_registers WHERE entity = ? AND record = ? LIMIT 1",
                          [.text(entity.rawValue), .text(record)]) { $0.text(0) }
    }

    /// A record's registers: field → (JSON, stamp).
    func registers(_ entity: SyncEntity, _ record: String) throws -> [String: (value: String, stamp: String)] {
        var out: [String: (value: String, stamp: String)] = [:]
        for (field, value, stamp) in try db.query("SELECT field, value, stamp FROM sync_registers WHERE entity = ? AND record = ?",
                                                  [.text(entity.rawValue), .text(record)], { ($0.text(0), $0.text(1), $0.text(2)) }) {
            out[field] = (value, stamp)
        }
        return out
    }

    /// Inserts or updates one row of a synced table from its registers. A row that cannot be
    /// made yet (a required field not here yet, or its parent not yet: a paged copy) waits for
    /// the page that brings it.
    private func materializeRow(_ table: SyncColumns.Table, _ id: String, physical: Int64) throws {
        let regs = try registers(table.entity, id)
        var columns = ["id"]
        var values = ["?"]
        var arguments: [SQLValue] = [.text(id)]
        var updates: [String] = []
        for field in table.fields {
            guard let json = regs[field.name]?.value ?? field.fallback else { return }
            columns.append(field.column)
            switch field.kind {
            case .presence:
                // Deleted or archived at the time of the stamp that set it.
                let wall = regs[field.name].flatMap { HybridTimestamp($0.stamp)?.wall } ?? physical
                values.append("CASE WHEN json_extract(?, '$') THEN ? ELSE NULL END")
                arguments += [.text(json), stamp(Date(timeIntervalSince1970: Double(wall) / 1000))]
                updates.append("\(field.column) = CASE WHEN excluded.\(field.column) IS NULL THEN NULL "
                               + "ELSE COALESCE(\(table.table).\(field.column), excluded.\(field.column)) END")
            default:
                values.append("json_extract(?, '$')")
                arguments.append(.text(json))
                updates.append("\(field.column) = excluded.\(field.column)")
            }
        }
        let now = stamp(Date(timeIntervalSince1970: Double(physical) / 1000))
        columns.append("updated_at")
        values.append("?")
        arguments.append(now)
        updates.append("updated_at = excluded.updated_at")
        switch table.entity {
        case .routine:
            // A routine moved or shown again goes to the end of its set until the order pass.
            guard let set = regs["set"].flatMap({ SyncJSON.value($0.value)?.string }),
                  try db.queryFirst("SELECT 1 FROM routine_sets WHERE id = ?", [.text(set)], { _ in true }) == true else { return }
            let end = try db.queryFirst("SELECT COALESCE(MAX(sort_order), -1) + 1 FROM routines WHERE routine_set_id = ?",
                                        [.text(set)]) { $0.int(0) } ?? 0
            columns.append("sort_order")
            values.append("?")
            arguments.append(.int(end))
            updates.append("sort_order = excluded.sort_order")
        case .routineSet:
            guard let child = regs["child"].flatMap({ SyncJSON.value($0.value)?.string }),
                  try db.queryFirst("SELECT 1 FROM children WHERE id = ?", [.text(child)], { _ in true }) == true else { return }
            updates.append("is_active = CASE WHEN excluded.deleted_at IS NULL THEN routine_sets.is_active ELSE 0 END")
        default:
            break
        }
        try db.run("""
            INSERT INTO \(table.table) (\(columns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))
            ON CONFLICT (id) DO UPDATE SET \(updates.joined(separator: ", "))
            """, arguments)
    }

    /// The routines of a set, as the order rule sees them (from the registers).
    private func orderedRoutines(set: String) throws -> [Resolution.OrderedRoutine] {
        try db.query("""
            SELECT r.record, MIN(r.stamp),
                COALESCE((SELECT value FROM sync_registers WHERE entity = 'routine' AND record = r.record AND field = 'active'), 'true'),
                COALESCE((SELECT value FROM sync_registers WHERE entity = 'routine' AND record = r.record AND field = 'deleted'), 'false')
            FROM sync_registers r
            WHERE r.entity = 'routine' AND r.record IN
                (SELECT record FROM sync_registers WHERE entity = 'routine' AND field = 'set' AND value = json_quote(?))
            GROUP BY r.record
            """, [.text(set)]) { row in
            guard let created = HybridTimestamp(row.text(1)) else {
                throw StoreError.corruptRow(table: "sync_registers", id: row.text(0), reason: "stamp")
            }
            return Resolution.OrderedRoutine(id: row.text(0), created: created, visible: row.text(2) == "true" && row.text(3) == "false")
        }
    }

    private func visibleOrder(set: String) throws -> [String] {
        let order = try db.queryFirst("SELECT value FROM sync_registers WHERE entity = 'routineSet' AND record = ? AND field = 'order'",
                                      [.text(set)]) { SyncJSON.value($0.text(0))?.strings } ?? nil
        return Resolution.visibleOrder(order: order, routines: try orderedRoutines(set: set))
    }

    /// Positions 0, 1, 2… of a set's visible routines in the order the registers decide.
    private func materializeOrder(set: String) throws {
        let order = try visibleOrder(set: set)
        try db.run("""
            UPDATE routines SET sort_order = sort_order + 1000000
            WHERE routine_set_id = ? AND is_active = 1 AND deleted_at IS NULL AND sort_order < 1000000
            """, [.text(set)])
        for (position, id) in order.enumerated() {
            try db.run("UPDATE routines SET sort_order = ? WHERE id = ? AND routine_set_id = ?", [.int(position), .text(id), .text(set)])
        }
    }

    /// The child's one active set, as `Resolution.activeSet` decides from the registers.
    private func materializeActiveSet(child: String) throws {
        let candidates = try db.query("""
            SELECT r.record, MIN(r.stamp),
                COALESCE((SELECT value FROM sync_registers WHERE entity = 'routineSet' AND record = r.record AND field = 'deleted'), 'false')
            FROM sync_registers r
            WHERE r.entity = 'routineSet' AND r.record IN
                (SELECT record FROM sync_registers WHERE entity = 'routineSet' AND field = 'child' AND value = json_quote(?))
            GROUP BY r.record
            """, [.text(child)]) { ($0.text(0), $0.text(1), $0.text(2) == "true") }
        var sets: [Resolution.CandidateSet] = []
        for (id, created, deleted) in candidates {
            guard let created = HybridTimestamp(created) else { continue }
            let visible = try visibleOrder(set: id)
            sets.append(Resolution.CandidateSet(id: id, created: created, deleted: deleted, hasVisibleRoutine: !visible.isEmpty))
        }
        let named = try db.queryFirst("SELECT value FROM sync_registers WHERE entity = 'child' AND record = ? AND field = 'activeSet'",
                                      [.text(child)]) { SyncJSON.value($0.text(0))?.string } ?? nil
        let chosen = Resolution.activeSet(named: named, sets: sets)
        try db.run("UPDATE routine_sets SET is_active = 0 WHERE child_id = ? AND is_active = 1 AND id IS NOT ?",
                   [.text(child), .optionalText(chosen)])
        if let chosen {
            try db.run("UPDATE routine_sets SET is_active = 1 WHERE id = ? AND child_id = ? AND deleted_at IS NULL AND is_active = 0",
                       [.text(chosen), .text(child)])
        }
    }

    /// The child's weekly schedule, whole, from its `slots` register (slots naming a set this
    /// device does not hold yet wait for it).
    private func materializeSchedule(child: String) throws {
        guard let slots = try db.queryFirst("SELECT value FROM sync_registers WHERE entity = 'schedule' AND record = ? AND field = 'slots'",
                                            [.text(child)], { SyncJSON.value($0.text(0)) }) ?? nil,
              case .array(let items) = slots else { return }
        try db.run("DELETE FROM set_schedules WHERE child_id = ?", [.text(child)])
        let now = stamp(Date())
        for item in items {
            guard case .array(let slot) = item, slot.count == 3, let weekday = slot[0].int, let time = slot[1].string,
                  let set = slot[2].string else { continue }
            try db.run("""
                INSERT INTO set_schedules (child_id, weekday, start_time, routine_set_id, created_at, updated_at)
                SELECT ?, ?, ?, id, ?, ? FROM routine_sets WHERE id = ? AND child_id = ?
                """, [.text(child), .integer(weekday), .text(time), now, now, .text(set), .text(child)])
        }
    }

    /// On the hub: a child whose name another child already has (two devices each made a "Mina")
    /// is renamed "Mina (2)" by the hub itself, a change with the hub's stamp that every device
    /// takes, and its rows are made; the conflict and how it was settled are kept for the guardian.
    func settleChildNameConflicts(_ ids: [String], physical: Int64) throws {
        for id in ids {
            guard let name = try db.queryFirst("SELECT value FROM sync_registers WHERE entity = 'child' AND record = ? AND field = 'name'",
                                               [.text(id)], { SyncJSON.value($0.text(0))?.string }) ?? nil else { continue }
            var n = 2
            var candidate = name
            repeat {
                let suffix = " (\(n))"
                candidate = String(name.prefix(60 - suffix.count)) + suffix
                n += 1
            } while try db.queryFirst("SELECT 1 FROM children WHERE display_name = ? COLLATE NOCASE AND archived_at IS NULL",
                                      [.text(candidate)], { _ in true }) == true
            try db.run("INSERT INTO sync_local_writes VALUES ('child', ?, ?, 'name', json_quote(?))", [.text(id), .text(id), .text(candidate)])
            try db.run("INSERT INTO sync_conflicts (at, entity, record, reason) VALUES (?, 'child', ?, ?)",
                       [.integer(physical), .text(id), .text("renamed: \(name) → \(candidate)")])
            try db.run("UPDATE sync_state SET applying = 1")
            var touched = Touched()
            touched.records[.child] = [id]
            _ = try materialize(touched, physical: physical)
            try db.run("UPDATE sync_state SET applying = 0")
        }
    }
}
