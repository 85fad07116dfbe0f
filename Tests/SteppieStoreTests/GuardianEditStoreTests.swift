import Foundation
import Testing
import SteppieCore
@testable import SteppieStore

/// Sets renamed and deleted, empty sets not activated, deleted routines listed, corrections of
/// past days recorded with when they were made, absences of restored routines, archived children
/// (issue 15, items 9 and 10). Every refusal leaves the database as it was.
@Suite struct GuardianEditStoreTests {
    static func at(_ text: String) -> Date { Timestamp.parse(text) ?? .distantPast }
    static func day(_ text: String) -> LocalDay { LocalDay(text) ?? LocalDay(dayNumber: 0) }

    @Test func setsAreRenamedAndDeletedButNotTheActiveOne() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let active = try #require(try f.store.activeSet(childId: child.id))
        let school = try f.store.createSet(childId: child.id, template: .school, at: f.now)
        let renamed = try f.store.renameSet(id: school.id, to: ["en": "After school", "ko": ""], at: f.now)
        #expect(renamed.name == LocalizedText(["en": "After school"]))
        #expect(try f.store.set(id: school.id).name == LocalizedText(["en": "After school"]))
        let before = try f.store.dump()
        #expect(throws: StoreError.invalid(ContractViolation(field: "routineSet.name", value: "(empty in every locale)",
                                                             allowed: "non-empty text in at least one locale"))) {
            try f.store.renameSet(id: school.id, to: ["en": ""], at: f.now)
        }
        #expect(throws: GuardianEditError.activeSetCannotBeDeleted(setId: active.id, name: active.name)) {
            try f.store.deleteSet(id: active.id, at: f.now)
        }
        #expect(try f.store.dump() == before)
        // A schedule slot naming the deleted set goes with it.
        try f.store.setScheduleEntry(childId: child.id, ScheduleEntry(weekdays: [.monday], start: try #require(LocalTime("08:00")),
                                                                      routineSetId: school.id), at: f.now)
        let deleted = try f.store.deleteSet(id: school.id, at: f.now)
        #expect(deleted.deletedAt == f.now)
        #expect(try f.store.sets(childId: child.id).map(\.id) == [active.id])
        #expect(try f.store.schedule(childId: child.id).entries.isEmpty)
        #expect(try f.store.routines(setId: school.id).count == 4)   // routines and their history stay
        #expect(throws: StoreError.setNotFound(school.id.lowercased)) { try f.store.deleteSet(id: school.id, at: f.now) }
    }

    @Test func anEmptySetCannotBeActivated() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let empty = try f.store.createSet(childId: child.id, name: LocalizedText(["en": "Evening"]), at: f.now)
        let before = try f.store.dump()
        #expect(throws: GuardianEditError.emptySetCannotBeActivated(setId: empty.id, name: empty.name)) {
            try f.store.activateSet(empty.id, at: f.now)
        }
        #expect(throws: GuardianEditError.emptySetCannotBeActivated(setId: nil, name: LocalizedText(["en": "Night"]))) {
            try f.store.createSet(childId: child.id, name: LocalizedText(["en": "Night"]), activate: true, at: f.now)
        }
        #expect(try f.store.dump() == before)
        try f.store.addRoutine(setId: empty.id, title: LocalizedText(["en": "Bath"]), at: f.now)
        try f.store.activateSet(empty.id, at: f.now)
        #expect(try f.store.activeSet(childId: child.id)?.id == empty.id)
        // A child's first set still becomes active, even empty.
        let jun = try f.store.addChild(name: "Jun", at: f.now)
        #expect(try f.store.createSet(childId: jun.id, name: LocalizedText(["en": "First"]), at: f.now).isActive)
    }

    @Test func aNewRoutineIsSkyUnlessAColorIsGiven() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let set = try #require(try f.store.activeSet(childId: child.id))
        let plain = try f.store.addRoutine(setId: set.id, title: LocalizedText(["en": "Water"]), at: f.now)
        let mint = try f.store.addRoutine(setId: set.id, title: LocalizedText(["en": "Juice"]), colorToken: "color.card.mint", at: f.now)
        #expect(plain.colorToken == "color.card.sky" && mint.colorToken == "color.card.mint")
        #expect(try f.store.routine(id: plain.id).colorToken == "color.card.sky")
    }

    @Test func deletedRoutinesAreListedNewestFirst() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let routines = try f.store.routines(setId: try #require(try f.store.activeSet(childId: child.id)).id)
        try f.store.deleteRoutine(id: routines[1].id, at: Self.at("2026-03-02T08:00:00+09:00"))
        try f.store.deleteRoutine(id: routines[4].id, at: Self.at("2026-03-02T09:00:00+09:00"))
        #expect(try f.store.deletedRoutines(childId: child.id).map(\.routine.id) == [routines[4].id, routines[1].id])
        try f.store.restoreRoutine(id: routines[4].id, at: Self.at("2026-03-02T10:00:00+09:00"))
        #expect(try f.store.deletedRoutines(childId: child.id).map(\.routine.id) == [routines[1].id])
    }

    @Test func aGuardianCorrectsAPastDayAndTheChangeIsRecorded() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let r = try f.store.routines(setId: try #require(try f.store.activeSet(childId: child.id)).id)
        try f.store.complete(childId: child.id, day: Self.day("2026-03-02"), at: Self.at("2026-03-02T07:05:00+09:00"))
        let made = Self.at("2026-03-04T20:00:00+09:00")
        // Mar 3: nothing was logged; the guardian marks the second routine done.
        let change = try f.store.setDayEntry(childId: child.id, routineId: r[1].id, day: Self.day("2026-03-03"), done: true, at: made)
        guard case .changed(let correction) = change else { Issue.record("unchanged"); return }
        #expect(correction.done && correction.previousStatus == nil && correction.madeAt == made && correction.date == Self.day("2026-03-03"))
        let log = try #require(try f.store.log(day: Self.day("2026-03-03"), routineId: r[1].id))
        #expect(log.status == .completed && log.completedAt == made)
        // The same again changes nothing and records nothing.
        #expect(try f.store.setDayEntry(childId: child.id, routineId: r[1].id, day: Self.day("2026-03-03"), done: true, at: made) == .unchanged)
        // Mar 2: the child's completion is taken back.
        guard case .changed(let back) = try f.store.setDayEntry(childId: child.id, routineId: r[0].id, day: Self.day("2026-03-02"),
                                                                done: false, at: made) else { Issue.record("unchanged"); return }
        #expect(back.previousStatus == .completed)
        #expect(try f.store.log(day: Self.day("2026-03-02"), routineId: r[0].id)?.status == .undone)
        #expect(try f.store.corrections(childId: child.id, from: Self.day("2026-03-01"), through: Self.day("2026-03-31")).count == 2)
        // The day view and the statistics see the corrected days.
        let entries = try f.store.dayEntries(childId: child.id, day: Self.day("2026-03-03"), reference: Self.day("2026-03-04"))
        #expect(entries.map(\.state) == [.missed, .completed, .missed, .missed, .missed, .missed])
        #expect(entries[1].correction == correction)
        let stats = try f.store.childStatistics(childId: child.id, reference: Self.day("2026-03-04"))
        #expect(stats.perRoutine[r[1].id]?.completedDays == 1 && stats.perRoutine[r[0].id]?.completedDays == 0)

        let jun = try f.childWithMorning("Jun")
        let before = try f.store.dump()
        #expect(throws: GuardianEditError.dayInFuture(day: Self.day("2026-03-05"), today: Self.day("2026-03-04"))) {
            try f.store.setDayEntry(childId: child.id, routineId: r[0].id, day: Self.day("2026-03-05"), done: true, at: made)
        }
        #expect(throws: GuardianEditError.dayNotTracked(routineId: r[0].id, day: Self.day("2026-03-01"))) {
            try f.store.setDayEntry(childId: child.id, routineId: r[0].id, day: Self.day("2026-03-01"), done: true, at: made)
        }
        #expect(throws: GuardianEditError.routineOfAnotherChild(routineId: r[0].id, child: "Jun")) {
            try f.store.setDayEntry(childId: jun.id, routineId: r[0].id, day: Self.day("2026-03-03"), done: true, at: made)
        }
        let unknown = UUID()
        #expect(throws: StoreError.routineNotFound(unknown.lowercased)) {
            try f.store.setDayEntry(childId: child.id, routineId: unknown, day: Self.day("2026-03-03"), done: true, at: made)
        }
        #expect(try f.store.dump() == before)
    }

    @Test func aDeletedThenRestoredRoutinesAbsentDaysAreNotMissed() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let r = try f.store.routines(setId: try #require(try f.store.activeSet(childId: child.id)).id)
        let wake = r[0]
        for d in ["02", "03", "07", "08"] {
            try f.store.complete(childId: child.id, day: Self.day("2026-03-\(d)"), at: Self.at("2026-03-\(d)T07:00:00+09:00"))
        }
        // Deleted on Mar 3 in the evening, restored on Mar 7 in the morning: Mar 4, 5, 6 are away.
        try f.store.deleteRoutine(id: wake.id, at: Self.at("2026-03-03T20:00:00+09:00"))
        try f.store.restoreRoutine(id: wake.id, at: Self.at("2026-03-07T06:00:00+09:00"))
        let stats = try f.store.childStatistics(childId: child.id, reference: Self.day("2026-03-08"))
        let s = try #require(stats.perRoutine[wake.id])
        #expect(s.eligibleDays == 4 && s.completedDays == 4 && s.currentStreak == 4 && s.longestStreak == 4)
        let spans = try #require(stats.perRoutineStreaks[wake.id])
        #expect(spans.current == Self.day("2026-03-02")...Self.day("2026-03-08"))
        // Another routine, never deleted, missed those days.
        #expect(stats.perRoutine[r[1].id]?.eligibleDays == 7)
        let month = try f.store.routineMonth(childId: child.id, routineId: wake.id, month: try #require(YearMonth(year: 2026, month: 3)),
                                             reference: Self.day("2026-03-08")).month
        #expect(month.days[3...5].allSatisfy { $0.isAbsent && $0.state == nil })
        #expect(month.completedDays == 4 && month.trackedDays == 4)
        // Its absent days cannot be corrected either.
        #expect(throws: GuardianEditError.dayNotTracked(routineId: wake.id, day: Self.day("2026-03-05"))) {
            try f.store.setDayEntry(childId: child.id, routineId: wake.id, day: Self.day("2026-03-05"), done: true,
                                    at: Self.at("2026-03-08T07:00:00+09:00"))
        }
        // The absences survive a restore of a snapshot that has the routine again.
        try f.store.replaceAll(with: try f.store.snapshot())
        #expect(try f.store.childStatistics(childId: child.id, reference: Self.day("2026-03-08")).perRoutine[wake.id] == s)
    }

    @Test func archivedChildrenAreListedUnarchivedAndTheirHistoryRead() throws {
        let f = try StoreFixture()
        let mina = try f.childWithMorning()
        try f.store.complete(childId: mina.id, day: f.today, at: f.now)
        try f.store.archiveChild(id: mina.id, at: f.now)
        #expect(try f.store.archivedChildren().map(\.id) == [mina.id])
        #expect(throws: StoreError.noChildren) { try f.store.resolveChild(nil) }
        #expect(try f.store.resolveChildIncludingArchived("mina").id == mina.id)
        #expect(try f.store.dayEntries(childId: mina.id, day: f.today, reference: f.today).first?.state == .completed)
        // A new Mina takes the name: the archived one cannot come back under it.
        let other = try f.store.addChild(name: "MINA", at: f.now)
        #expect(throws: StoreError.childNameTaken("Mina")) { try f.store.unarchiveChild(id: mina.id, at: f.now) }
        try f.store.renameChild(id: other.id, to: "Jun", at: f.now)
        let back = try f.store.unarchiveChild(id: mina.id, at: f.now)
        #expect(back.archivedAt == nil)
        #expect(try f.store.children().map(\.id) == [mina.id, other.id])
        #expect(throws: GuardianEditError.childNotArchived(name: "Mina")) { try f.store.unarchiveChild(id: mina.id, at: f.now) }
    }

    @Test func migrationV5AddsTheTablesToAVersion4Database() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-v4-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("steppie.db").path
        let zone = TimeZone(identifier: "Asia/Seoul") ?? .current
        // A database as version 4 left it, with a child, a set, a routine deleted and a log.
        do {
            let db = try Connection(path: path)
            try Migrator(Array(Schema.migrations.prefix(4))).migrate(db)
            #expect(try db.queryFirst("SELECT count(*) FROM sqlite_schema WHERE name IN ('log_corrections', 'routine_absences')") { $0.int(0) } == 0)
        }
        let old = try Connection(path: path)
        try old.execute("""
            INSERT INTO children (id, display_name, created_at, updated_at) VALUES ('00000000-0000-4000-8000-000000000001', 'Mina', '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00');
            INSERT INTO routine_sets (id, child_id, name, is_active, created_at, updated_at) VALUES ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', '{"en":"Morning"}', 1, '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00');
            INSERT INTO routines (id, routine_set_id, title, icon, sort_order, created_at, updated_at, deleted_at) VALUES ('00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000002', '{"en":"Wake up"}', '{"type":"builtin","name":"sun"}', 0, '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00', '2026-03-02T20:00:00+09:00');
            INSERT INTO daily_logs (id, date, routine_id, routine_set_id, status, completed_at, created_at, updated_at) VALUES ('00000000-0000-4000-8000-000000000004', '2026-03-01', '00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000002', 'completed', '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00');
            """)
        let store = try Store(path: path, timeZone: zone)
        #expect(try Migrator().applied(store.db).suffix(6) == ["v7-network-backoff-photo-swaps", "v8-routine-looks", "v9-child-pictures-sibling-switch", "v10-sync", "v11-sync-recordings", "v12-compact-sync-events"])
        #expect(try store.db.queryFirst("PRAGMA user_version") { $0.int(0) } == Schema.migrations.count)
        // Old rows are untouched and the new tables work on them.
        let routine = try #require(UUID(uuidString: "00000000-0000-4000-8000-000000000003"))
        #expect(try store.log(day: Self.day("2026-03-01"), routineId: routine)?.status == .completed)
        try store.restoreRoutine(id: routine, at: Self.at("2026-03-06T07:00:00+09:00"))
        let child = try store.resolveChild("Mina")
        let s = try #require(try store.childStatistics(childId: child.id, reference: Self.day("2026-03-06")).perRoutine[routine])
        #expect(s.eligibleDays == 3)   // Mar 1, 2 and 6; Mar 3-5 away
        // The schema checks the new rows too.
        #expect(throws: SQLiteError.self) {
            try store.db.run("INSERT INTO log_corrections (id, date, routine_id, done, made_at) VALUES ('x', '2026-03-01', ?, 2, 'now')",
                             [.text(routine.lowercased)])
        }
        #expect(try store.integrityProblems().isEmpty)
    }
}

/// The active set never ends up empty by an edit (#26 item 9): deleting or turning off its last
/// visible routine is refused; in a set that is not active it is allowed.
@Suite struct ActiveSetNeverEmptyTests {
    @Test func theLastRoutineOfTheActiveSetStays() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let set = try #require(try f.store.activeSet(childId: child.id))
        let routines = try f.store.routines(setId: set.id).filter(\.isVisible).sorted { $0.order < $1.order }
        for r in routines.dropLast() { try f.store.setRoutineActive(id: r.id, false, at: f.now) }
        let last = try #require(routines.last)
        let before = try f.store.dump()
        for attempt in [{ _ = try f.store.deleteRoutine(id: last.id, at: f.now) }, { _ = try f.store.setRoutineActive(id: last.id, false, at: f.now) }] {
            do {
                try attempt()
                Issue.record("the last routine of the active set was hidden")
            } catch GuardianEditError.lastRoutineOfActiveSet(let id, let name) {
                #expect(id == last.id && name == set.name)
            }
        }
        #expect(try f.store.dump() == before)
        // Another set, not active: its last routine may go.
        let other = try f.store.createSet(childId: child.id, template: .bedtime, at: f.now)
        for r in try f.store.routines(setId: other.id) { _ = try f.store.deleteRoutine(id: r.id, at: f.now) }
        #expect(try f.store.routines(setId: other.id).allSatisfy { !$0.isVisible })
    }
}
