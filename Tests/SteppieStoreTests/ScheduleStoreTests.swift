import Foundation
import Testing
import SteppieCore
@testable import SteppieStore

/// Weekly schedules in the store: migration from schema 3, validation with the dump unchanged on
/// refusal, `applySchedule` under the one-active-set rule, and restores.
@Suite struct ScheduleStoreTests {
    static func time(_ text: String) throws -> LocalTime { try #require(LocalTime(text)) }

    /// Mina with a morning (active), a school and a bedtime set.
    static func family(_ f: StoreFixture) throws -> (child: Child, morning: RoutineSet, school: RoutineSet, bedtime: RoutineSet) {
        let child = try f.store.addChild(name: "Mina", at: f.now)
        let morning = try f.store.createSet(childId: child.id, template: .morning, at: f.now)
        let school = try f.store.createSet(childId: child.id, template: .school, at: f.now)
        let bedtime = try f.store.createSet(childId: child.id, template: .bedtime, at: f.now)
        return (child, morning, school, bedtime)
    }

    static func weekdays(_ f: StoreFixture) throws -> (Child, [ScheduleEntry], RoutineSet, RoutineSet, RoutineSet) {
        let (child, morning, school, bedtime) = try family(f)
        let entries = [
            ScheduleEntry(weekdays: Weekday.workdays, start: try time("06:30"), routineSetId: morning.id),
            ScheduleEntry(weekdays: Weekday.workdays, start: try time("08:30"), routineSetId: school.id),
            ScheduleEntry(weekdays: Set(Weekday.allCases), start: try time("19:30"), routineSetId: bedtime.id),
        ]
        return (child, entries, morning, school, bedtime)
    }

    @Test func aScheduleRoundTripsAndOneEntryReplacesItsWeekdayAndStart() throws {
        let f = try StoreFixture()
        let (child, entries, morning, school, bedtime) = try Self.weekdays(f)
        try f.store.setSchedule(childId: child.id, entries: entries, at: f.now)
        #expect(try f.store.schedule(childId: child.id) == WeeklySchedule(entries: entries))
        #expect(try f.store.schedule(childId: child.id).slots.count == 17)
        let after = try f.store.setScheduleEntry(childId: child.id,
                                                 ScheduleEntry(weekdays: [.friday, .saturday], start: try Self.time("08:30"), routineSetId: bedtime.id), at: f.now)
        #expect(after.slots.count == 18)
        #expect(try f.store.schedule(childId: child.id) == after)
        #expect(after.entries.contains(ScheduleEntry(weekdays: [.monday, .tuesday, .wednesday, .thursday], start: try Self.time("08:30"), routineSetId: school.id)))
        #expect(try f.store.clearSchedule(childId: child.id, weekdays: [.saturday, .sunday], at: f.now) == 3)
        #expect(try f.store.clearSchedule(childId: child.id, weekdays: [.saturday], at: f.now) == 0)
        #expect(try f.store.clearSchedule(childId: child.id, at: f.now) == 15)
        #expect(try f.store.schedule(childId: child.id).isEmpty)
        _ = morning
    }

    @Test func refusalsLeaveTheDumpUnchanged() throws {
        let f = try StoreFixture()
        let (child, entries, morning, _, _) = try Self.weekdays(f)
        try f.store.setSchedule(childId: child.id, entries: entries, at: f.now)
        let other = try f.store.addChild(name: "Joon", at: f.now)
        let othersSet = try f.store.createSet(childId: other.id, template: .morning, at: f.now)
        let before = try f.store.dump()
        let nine = (0..<9).map { ScheduleEntry(weekdays: [.monday], start: LocalTime(hour: $0, minute: 5)!, routineSetId: morning.id) }
        let refused: [(() throws -> Void, String)] = [
            ({ try f.store.setSchedule(childId: child.id, entries: nine, at: f.now) }, "schedule.entries"),
            ({ try f.store.setSchedule(childId: child.id, entries: entries + [entries[0]], at: f.now) }, "schedule.start"),
            ({ try f.store.setScheduleEntry(childId: child.id, ScheduleEntry(weekdays: [.monday], start: try Self.time("10:00"), routineSetId: othersSet.id), at: f.now) },
             "schedule.routineSetId"),
            ({ try f.store.setScheduleEntry(childId: child.id, ScheduleEntry(weekdays: [], start: try Self.time("10:00"), routineSetId: morning.id), at: f.now) },
             "schedule.weekdays"),
        ]
        for (attempt, field) in refused {
            do {
                try attempt()
                Issue.record("\(field) was accepted")
            } catch StoreError.invalid(let v) {
                #expect(v.field == field)
            }
            #expect(try f.store.dump() == before)
        }
        #expect(throws: StoreError.childNotFound(UUID(uuidString: "00000000-0000-4000-8000-000000000000")!.lowercased)) {
            try f.store.setSchedule(childId: UUID(uuidString: "00000000-0000-4000-8000-000000000000")!, entries: [], at: f.now)
        }
        #expect(try f.store.dump() == before)
    }

    /// Raw writes that skip the validator still meet the schema: a set of another child, a bad
    /// weekday or time, a ninth start on one weekday.
    @Test func theSchemaRefusesWhatTheValidatorWould() throws {
        let f = try StoreFixture()
        let (child, _, morning, _, _) = try Self.weekdays(f)
        let other = try f.store.addChild(name: "Joon", at: f.now)
        let othersSet = try f.store.createSet(childId: other.id, template: .morning, at: f.now)
        let db = try f.rawConnection()
        let stamp = "'2026-03-02T07:00:00.000+09:00'"
        func insert(_ child: UUID, _ weekday: Int, _ time: String, _ set: UUID) throws {
            try db.run("INSERT INTO set_schedules VALUES (?, ?, ?, ?, \(stamp), \(stamp))",
                       [.text(child.lowercased), .int(weekday), .text(time), .text(set.lowercased)])
        }
        for (day, time, set) in [(1, "08:00", othersSet.id), (0, "08:00", morning.id), (8, "08:00", morning.id), (1, "24:00", morning.id), (1, "8:00", morning.id)] {
            #expect(throws: SQLiteError.self) { try insert(child.id, day, time, set) }
        }
        for hour in 0..<8 { try insert(child.id, 1, String(format: "%02d:00", hour), morning.id) }
        #expect(throws: SQLiteError.self) { try insert(child.id, 1, "09:00", morning.id) }
        #expect(throws: SQLiteError.self) { try insert(child.id, 1, "00:00", morning.id) }   // the same weekday and start
    }

    @Test func applyingTheScheduleActivatesTheScheduledSetOnce() throws {
        let f = try StoreFixture()   // Monday 2026-03-02, 07:00 in Seoul
        let (child, entries, morning, school, bedtime) = try Self.weekdays(f)
        #expect(try f.store.applySchedule(childId: child.id, at: f.now) == false)   // no schedule yet
        try f.store.setSchedule(childId: child.id, entries: entries, at: f.now)
        #expect(try f.store.activeSet(childId: child.id)?.id == morning.id)
        #expect(try f.store.applySchedule(childId: child.id, at: f.now) == false)   // morning is already active
        let schedule = try f.store.schedule(childId: child.id)
        let next = try #require(schedule.nextSwitch(after: f.now, in: f.zone))
        #expect(next.routineSetId == school.id && next.at == Timestamp.parse("2026-03-02T08:30:00+09:00"))
        #expect(try f.store.applySchedule(childId: child.id, at: next.at) == true)
        #expect(try f.store.activeSet(childId: child.id)?.id == school.id)
        #expect(try f.store.sets(childId: child.id).filter(\.isActive).count == 1)
        #expect(try f.store.applySchedule(childId: child.id, at: next.at) == false)
        // A guardian's choice by hand holds until the next switch.
        try f.store.activateSet(bedtime.id, at: next.at)
        let evening = try #require(schedule.nextSwitch(after: next.at, in: f.zone))
        #expect(evening.routineSetId == bedtime.id)
        #expect(try f.store.applySchedule(childId: child.id, at: evening.at) == false)
        let tomorrow = try #require(schedule.nextSwitch(after: evening.at, in: f.zone))
        #expect(try f.store.applySchedule(childId: child.id, at: tomorrow.at) == true)
        #expect(try f.store.activeSet(childId: child.id)?.id == morning.id)
        // An archived child's sets are left alone.
        try f.store.archiveChild(id: child.id, at: tomorrow.at)
        #expect(try f.store.applySchedule(childId: child.id, at: try #require(Timestamp.parse("2026-03-03T08:30:00+09:00"))) == false)
    }

    @Test func setsAreFoundByIdOrByAnyNameOfTheChild() throws {
        let f = try StoreFixture()
        let (child, _, morning, school, _) = try Self.weekdays(f)
        #expect(try f.store.resolveSet(childId: child.id, morning.id.lowercased).id == morning.id)
        #expect(try f.store.resolveSet(childId: child.id, school.name.values["en"] ?? "").id == school.id)
        #expect(try f.store.resolveSet(childId: child.id, (school.name.values["en"] ?? "").uppercased()).id == school.id)
        #expect(try f.store.resolveSet(childId: child.id, school.name.values["ko"] ?? "").id == school.id)
        #expect(throws: StoreError.setNotFound("holiday")) { try f.store.resolveSet(childId: child.id, "holiday") }
        let again = try f.store.createSet(childId: child.id, template: .school, at: f.now)
        #expect(throws: StoreError.setNameAmbiguous(name: "school routine", sets: [school.id.lowercased, again.id.lowercased])) {
            try f.store.resolveSet(childId: child.id, "school routine")
        }
    }

    /// A database as version 3 of the program left it gains the table and keeps every row.
    @Test func aVersion3DatabaseKeepsItsDataWhenMigrated() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-v3-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("steppie.db").path
        let zone = TimeZone(identifier: "Asia/Seoul") ?? .current
        let now = try #require(Timestamp.parse("2026-03-02T07:00:00+09:00"))
        var before = ""
        do {
            let db = try Connection(path: path)
            try Migrator(Array(Schema.migrations.prefix(3))).migrate(db)
        }
        do {
            // Fill it through a store limited to schema 3's tables (the rows v3 could hold).
            let store = try Store(path: path, timeZone: zone)
            let child = try store.addChild(name: "Mina", at: now)
            try store.createSet(childId: child.id, template: .morning, at: now)
            try store.complete(childId: child.id, day: LocalDay(now, in: zone), at: now)
            try store.db.execute("DROP TABLE set_schedules; DELETE FROM schema_migrations WHERE id = 'v4-set-schedules'; PRAGMA user_version = 3;")
            before = try store.dump()
            #expect(!before.contains("# set_schedules"))
        }
        let store = try Store(path: path, timeZone: zone)
        #expect(try Migrator().applied(store.db).last == "v4-set-schedules")
        #expect(try store.db.queryFirst("PRAGMA user_version") { $0.int(0) } == 4)
        let after = try store.dump()
        let kept = after.replacingOccurrences(of: "# set_schedules\n\n", with: "")
            .split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("'v4-set-schedules'|") }.joined(separator: "\n")
        #expect(kept == before)
        #expect(try store.integrityProblems().isEmpty)
        let child = try store.resolveChild("Mina")
        #expect(try store.schedule(childId: child.id).isEmpty)
    }

    /// A snapshot without schedules (a phone backup, an older Linux one): a restore keeps the slots
    /// whose child and set are still there.
    @Test func aRestoreKeepsTheSlotsWhoseSetIsStillThere() throws {
        let f = try StoreFixture()
        let (child, entries, morning, school, bedtime) = try Self.weekdays(f)
        try f.store.setSchedule(childId: child.id, entries: entries, at: f.now)
        var snapshot = try f.store.snapshot()
        #expect(snapshot.schedules?.count == WeeklySchedule(entries: entries).slots.count)
        snapshot.schedules = nil
        snapshot.routineSets.removeAll { $0.id == school.id }
        snapshot.routines.removeAll { $0.routineSetId == school.id }
        if let i = snapshot.routineSets.firstIndex(where: { $0.id == bedtime.id }) { snapshot.routineSets[i].deletedAt = f.now }
        try f.store.replaceAll(with: snapshot)
        let kept = try f.store.schedule(childId: child.id)
        #expect(kept == WeeklySchedule(entries: [entries[0]]))
        #expect(kept.routineSetIds == [morning.id])
        #expect(try f.store.integrityProblems().isEmpty)
    }

    /// A snapshot that carries schedules replaces them; one naming a set it does not hold is
    /// refused whole, with nothing changed.
    @Test func aSnapshotsSchedulesReplaceTheDevicesOrAreRefusedWhole() throws {
        let f = try StoreFixture()
        let (child, entries, _, school, _) = try Self.weekdays(f)
        try f.store.setSchedule(childId: child.id, entries: entries, at: f.now)
        let snapshot = try f.store.snapshot()
        _ = try f.store.clearSchedule(childId: child.id, at: f.now)
        try f.store.replaceAll(with: snapshot)
        #expect(try f.store.schedule(childId: child.id) == WeeklySchedule(entries: entries))
        #expect(try f.store.snapshot() == snapshot)

        var broken = snapshot
        broken.routineSets.removeAll { $0.id == school.id }
        broken.routines.removeAll { $0.routineSetId == school.id }
        let before = try f.store.dump()
        #expect(throws: StoreError.self) { try f.store.replaceAll(with: broken) }
        #expect(try f.store.dump() == before)
    }
}
