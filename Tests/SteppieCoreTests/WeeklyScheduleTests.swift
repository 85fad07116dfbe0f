import Foundation
import Testing
@testable import SteppieCore

/// Weekly schedules: the set in force by weekday and time, the next switch, across midnight and
/// New York's DST nights (2026-03-08 spring forward at 02:00, 2026-11-01 fall back at 02:00).
@Suite struct WeeklyScheduleTests {
    static let seoul = TimeZone(identifier: "Asia/Seoul") ?? .current
    static let newYork = TimeZone(identifier: "America/New_York") ?? .current
    static let morning = UUID(uuidString: "00000000-0000-4000-8000-00000000000a") ?? UUID()
    static let school = UUID(uuidString: "00000000-0000-4000-8000-00000000000b") ?? UUID()
    static let bedtime = UUID(uuidString: "00000000-0000-4000-8000-00000000000c") ?? UUID()
    static let weekend = UUID(uuidString: "00000000-0000-4000-8000-00000000000d") ?? UUID()

    static func t(_ text: String) throws -> Date { try #require(Timestamp.parse(text)) }
    static func time(_ text: String) throws -> LocalTime { try #require(LocalTime(text)) }
    static func entry(_ days: String, _ start: String, _ set: UUID) throws -> ScheduleEntry {
        ScheduleEntry(weekdays: try #require(Weekday.parseList(days)), start: try time(start), routineSetId: set)
    }

    /// Morning from 06:30 and school from 08:30 on weekdays, a weekend morning from 08:00,
    /// bedtime from 19:30 every day.
    static func family() throws -> WeeklySchedule {
        WeeklySchedule(entries: [
            try entry("weekdays", "06:30", morning), try entry("weekdays", "08:30", school),
            try entry("weekend", "08:00", weekend), try entry("daily", "19:30", bedtime),
        ])
    }

    // 2026-03-02 is a Monday.
    @Test(arguments: [
        ("2026-03-02T06:29:59+09:00", "c"),   // Monday before 06:30: Sunday's bedtime (wraps)
        ("2026-03-02T06:30:00+09:00", "a"),
        ("2026-03-02T08:29:59+09:00", "a"),
        ("2026-03-02T08:30:00+09:00", "b"),
        ("2026-03-02T19:29:00+09:00", "b"),
        ("2026-03-02T19:30:00+09:00", "c"),
        ("2026-03-03T00:00:00+09:00", "c"),   // midnight changes nothing
        ("2026-03-07T07:59:00+09:00", "c"),   // Saturday before 08:00: Friday's bedtime
        ("2026-03-07T08:00:00+09:00", "d"),
        ("2026-03-08T23:59:59+09:00", "c"),
        ("2026-03-01T22:30:00Z", "a"),        // Monday 07:30 in Seoul, though still Sunday in UTC
    ])
    func theSetInForce(_ instant: String, _ expected: String) throws {
        let sets = ["a": Self.morning, "b": Self.school, "c": Self.bedtime, "d": Self.weekend]
        let want = try #require(sets[expected])
        #expect(try Self.family().activeSet(at: try Self.t(instant), in: Self.seoul) == want, "\(instant)")
    }

    @Test func wrapsAroundTheWeekAndIsEmptyWithoutEntries() throws {
        let s = WeeklySchedule(entries: [try Self.entry("wed", "10:00", Self.morning), try Self.entry("fri", "10:00", Self.school)])
        #expect(s.activeSet(at: try Self.t("2026-03-02T12:00:00+09:00"), in: Self.seoul) == Self.school)   // Monday: last Friday's
        #expect(s.activeSet(at: try Self.t("2026-03-04T09:59:00+09:00"), in: Self.seoul) == Self.school)
        #expect(s.activeSet(at: try Self.t("2026-03-04T10:00:00+09:00"), in: Self.seoul) == Self.morning)
        let next = try #require(s.nextSwitch(after: try Self.t("2026-03-04T10:00:00+09:00"), in: Self.seoul))
        #expect(next.at == (try Self.t("2026-03-06T10:00:00+09:00")) && next.routineSetId == Self.school)
        #expect(WeeklySchedule().activeSet(at: Date(), in: Self.seoul) == nil)
        #expect(WeeklySchedule().nextSwitch(after: Date(), in: Self.seoul) == nil)
        // One set only: always in force, never a switch.
        let one = WeeklySchedule(entries: [try Self.entry("mon,thu", "07:00", Self.morning)])
        #expect(one.activeSet(at: Date(), in: Self.seoul) == Self.morning)
        #expect(one.nextSwitch(after: Date(), in: Self.seoul) == nil)
    }

    @Test func startsThatKeepTheSameSetAreNoSwitch() throws {
        let s = WeeklySchedule(entries: [try Self.entry("daily", "07:00", Self.morning), try Self.entry("daily", "12:00", Self.morning),
                                         try Self.entry("daily", "19:00", Self.bedtime)])
        let next = try #require(s.nextSwitch(after: try Self.t("2026-03-02T07:30:00+09:00"), in: Self.seoul))
        #expect(next.at == (try Self.t("2026-03-02T19:00:00+09:00")) && next.routineSetId == Self.bedtime)
    }

    /// Midnight in Seoul, driven by a manual clock the way the service's timer is.
    @Test func midnightInSeoulWithAManualClock() throws {
        let s = WeeklySchedule(entries: [try Self.entry("daily", "19:30", Self.bedtime), try Self.entry("sat", "00:00", Self.weekend),
                                         try Self.entry("weekdays", "06:30", Self.morning)])
        let clock = ManualWallClock(try Self.t("2026-03-06T23:59:00+09:00"))   // Friday
        #expect(s.activeSet(at: clock.now(), in: Self.seoul) == Self.bedtime)
        let next = try #require(s.nextSwitch(after: clock.now(), in: Self.seoul))
        #expect(next.at == (try Self.t("2026-03-07T00:00:00+09:00")) && next.routineSetId == Self.weekend)
        clock.advance(by: 59.999)
        #expect(s.activeSet(at: clock.now(), in: Self.seoul) == Self.bedtime)
        clock.advance(by: 0.001)
        #expect(s.activeSet(at: clock.now(), in: Self.seoul) == Self.weekend)
        let then = try #require(s.nextSwitch(after: clock.now(), in: Self.seoul))
        #expect(then.at == (try Self.t("2026-03-07T19:30:00+09:00")) && then.routineSetId == Self.bedtime)
        clock.set(then.at)
        #expect(s.activeSet(at: clock.now(), in: Self.seoul) == Self.bedtime)
        // Sunday 19:30 bedtime holds through Sunday midnight until Monday 06:30.
        let monday = try #require(s.nextSwitch(after: try Self.t("2026-03-08T20:00:00+09:00"), in: Self.seoul))
        #expect(monday.at == (try Self.t("2026-03-09T06:30:00+09:00")) && monday.routineSetId == Self.morning)
    }

    @Test func theFirstInstantOfALocalTimeAcrossDST() throws {
        let spring = try #require(LocalDay("2026-03-08"))
        #expect(spring.firstInstant(atOrAfter: try Self.time("01:59"), in: Self.newYork) == (try Self.t("2026-03-08T06:59:00Z")))
        for skipped in ["02:00", "02:30", "02:59"] {
            #expect(spring.firstInstant(atOrAfter: try Self.time(skipped), in: Self.newYork) == (try Self.t("2026-03-08T07:00:00Z")), "\(skipped)")
        }
        #expect(spring.firstInstant(atOrAfter: try Self.time("03:00"), in: Self.newYork) == (try Self.t("2026-03-08T07:00:00Z")))
        let fall = try #require(LocalDay("2026-11-01"))
        #expect(fall.firstInstant(atOrAfter: try Self.time("01:30"), in: Self.newYork) == (try Self.t("2026-11-01T01:30:00-04:00")))
        #expect(fall.firstInstant(atOrAfter: try Self.time("02:00"), in: Self.newYork) == (try Self.t("2026-11-01T02:00:00-05:00")))
        let seoulDay = try #require(LocalDay("2026-03-07"))
        #expect(seoulDay.firstInstant(atOrAfter: try Self.time("00:00"), in: Self.seoul) == (try Self.t("2026-03-07T00:00:00+09:00")))
    }

    /// 2026-03-08 in New York: 02:30 does not exist; the entry takes effect at 03:00 EDT.
    @Test func springForwardNightInNewYork() throws {
        let s = WeeklySchedule(entries: [try Self.entry("sun", "01:00", Self.morning), try Self.entry("sun", "02:30", Self.school),
                                         try Self.entry("sun", "03:15", Self.bedtime)])
        let clock = ManualWallClock(try Self.t("2026-03-08T01:30:00-05:00"))
        #expect(s.activeSet(at: clock.now(), in: Self.newYork) == Self.morning)
        let next = try #require(s.nextSwitch(after: clock.now(), in: Self.newYork))
        #expect(next.at == (try Self.t("2026-03-08T03:00:00-04:00")) && next.routineSetId == Self.school)
        clock.set(next.at.addingTimeInterval(-1))                               // 01:59:59 EST
        #expect(s.activeSet(at: clock.now(), in: Self.newYork) == Self.morning)
        clock.advance(by: 1)                                                    // 03:00:00 EDT
        #expect(s.activeSet(at: clock.now(), in: Self.newYork) == Self.school)
        let after = try #require(s.nextSwitch(after: clock.now(), in: Self.newYork))
        #expect(after.at == (try Self.t("2026-03-08T03:15:00-04:00")) && after.routineSetId == Self.bedtime)
        // Two starts inside the gap take effect together; the later start wins, as it would by day.
        let both = WeeklySchedule(entries: [try Self.entry("sun", "01:00", Self.morning), try Self.entry("sun", "02:10", Self.school),
                                            try Self.entry("sun", "02:40", Self.weekend)])
        let gap = try #require(both.nextSwitch(after: try Self.t("2026-03-08T01:30:00-05:00"), in: Self.newYork))
        #expect(gap.at == (try Self.t("2026-03-08T07:00:00Z")) && gap.routineSetId == Self.weekend)
        #expect(both.activeSet(at: gap.at, in: Self.newYork) == Self.weekend)
    }

    /// 2026-11-01 in New York: 01:00–01:59 happens twice; 01:30 takes effect once, the first time.
    @Test func fallBackNightInNewYork() throws {
        let s = WeeklySchedule(entries: [try Self.entry("daily", "00:00", Self.morning), try Self.entry("sun", "01:30", Self.school),
                                         try Self.entry("sun", "01:45", Self.bedtime)])
        // Every minute from 00:00 EDT to 03:00 EST, on a manual clock: the switches seen.
        let clock = ManualWallClock(try Self.t("2026-11-01T00:00:00-04:00"))
        var seen: [(Date, UUID)] = []
        var current = s.activeSet(at: clock.now(), in: Self.newYork)
        while clock.now() < (try Self.t("2026-11-01T03:00:00-05:00")) {
            clock.advance(by: 60)
            let now = s.activeSet(at: clock.now(), in: Self.newYork)
            if now != current, let now { seen.append((clock.now(), now)) }
            current = now
        }
        #expect(seen.map(\.0) == [try Self.t("2026-11-01T01:30:00-04:00"), try Self.t("2026-11-01T01:45:00-04:00")])
        #expect(seen.map(\.1) == [Self.school, Self.bedtime])
        // During the repeated hour (01:00–01:59 EST) bedtime holds; the next switch is Monday 00:00 EST.
        #expect(s.activeSet(at: try Self.t("2026-11-01T01:35:00-05:00"), in: Self.newYork) == Self.bedtime)
        let next = try #require(s.nextSwitch(after: try Self.t("2026-11-01T01:50:00-04:00"), in: Self.newYork))
        #expect(next.at == (try Self.t("2026-11-02T00:00:00-05:00")) && next.routineSetId == Self.morning)
    }

    /// A service's timer loop: sleep until `nextSwitch`, check the set, repeat, for two weeks around
    /// each DST change; every switch lands on a start and nothing changes between switches.
    @Test(arguments: ["2026-03-04T12:00:00-05:00", "2026-10-28T12:00:00-04:00"])
    func aTimerLoopSeesEverySwitchOnce(_ start: String) throws {
        let s = try Self.family()
        let clock = ManualWallClock(try Self.t(start))
        var switches = 0
        let end = (try Self.t(start)).addingTimeInterval(14 * 86_400)
        while true {
            let before = s.activeSet(at: clock.now(), in: Self.newYork)
            let next = try #require(s.nextSwitch(after: clock.now(), in: Self.newYork))
            if next.at > end { break }
            #expect(next.routineSetId != before)
            #expect(s.activeSet(at: next.at.addingTimeInterval(-1), in: Self.newYork) == before)
            clock.set(next.at)
            #expect(s.activeSet(at: clock.now(), in: Self.newYork) == next.routineSetId)
            let local = Timestamp.format(clock.now(), in: Self.newYork)
            #expect(["T06:30", "T08:30", "T08:00", "T19:30"].contains { local.contains($0) }, "\(local)")
            switches += 1
        }
        // Weekdays switch three times, weekend days twice.
        #expect(switches == 10 * 3 + 4 * 2)
    }

    @Test func entriesGroupSlotsAndReplaceTheSameWeekdayAndStart() throws {
        var s = try Self.family()
        #expect(s.slots.count == 5 + 5 + 2 + 7)
        s.set(try Self.entry("mon", "08:30", Self.weekend))
        #expect(s.slots.count == 19)
        #expect(s.entries.contains(ScheduleEntry(weekdays: [.tuesday, .wednesday, .thursday, .friday], start: try Self.time("08:30"), routineSetId: Self.school)))
        #expect(s.clear(weekdays: [.saturday, .sunday]) == 4)
        #expect(s.clear() == 15)
        #expect(s.isEmpty)
    }

    @Test func weekdayLists() {
        #expect(Weekday.parseList("mon,TUE, fri") == [.monday, .tuesday, .friday])
        #expect(Weekday.parseList("weekdays") == Weekday.workdays)
        #expect(Weekday.parseList("weekend,mon") == [.saturday, .sunday, .monday])
        #expect(Weekday.parseList("daily")?.count == 7)
        for bad in ["", "mon,", "monday", "1", "mon;tue", "월"] { #expect(Weekday.parseList(bad) == nil, "\(bad)") }
        #expect(Weekday.list([.sunday, .monday]) == "mon,sun")
    }
}

@Suite struct ScheduleValidatorTests {
    static let child = UUID()
    static func set(_ child: UUID = child, deleted: Bool = false) -> RoutineSet {
        RoutineSet(id: UUID(), childId: child, name: LocalizedText(ko: "아침", en: "Morning"), createdAt: Date(timeIntervalSince1970: 0),
                   deletedAt: deleted ? Date(timeIntervalSince1970: 1) : nil)
    }
    static func entry(_ days: Set<Weekday>, _ start: String, _ set: RoutineSet) -> ScheduleEntry {
        ScheduleEntry(weekdays: days, start: LocalTime(start) ?? LocalTime(hour: 0, minute: 0)!, routineSetId: set.id)
    }

    @Test func acceptsAFullWeekAndRefusesWithTheField() throws {
        let a = Self.set(), b = Self.set()
        let full = (0..<8).map { Self.entry(Set(Weekday.allCases), String(format: "%02d:00", $0 * 3), $0 % 2 == 0 ? a : b) }
        try Validator.schedule(full, childId: Self.child, sets: [a, b])
        let cases: [([ScheduleEntry], [RoutineSet], String)] = [
            (full + [Self.entry([.monday], "23:59", a)], [a, b], "schedule.entries"),
            ([Self.entry([.monday], "08:00", a), Self.entry([.monday, .friday], "08:00", b)], [a, b], "schedule.start"),
            ([Self.entry([], "08:00", a)], [a], "schedule.weekdays"),
            ([Self.entry([.monday], "08:00", a)], [], "schedule.routineSetId"),
        ]
        for (entries, sets, field) in cases {
            #expect(throws: ContractViolation.self) { try Validator.schedule(entries, childId: Self.child, sets: sets) }
            do { try Validator.schedule(entries, childId: Self.child, sets: sets) } catch let v as ContractViolation { #expect(v.field == field) }
        }
        let other = Self.set(UUID())
        #expect(throws: ContractViolation(field: "schedule.routineSetId", value: other.id.lowercased, allowed: "a set of this child")) {
            try Validator.schedule([Self.entry([.monday], "08:00", other)], childId: Self.child, sets: [other])
        }
        let gone = Self.set(deleted: true)
        #expect(throws: ContractViolation(field: "schedule.routineSetId", value: gone.id.lowercased, allowed: "a set that is not deleted")) {
            try Validator.schedule([Self.entry([.monday], "08:00", gone)], childId: Self.child, sets: [gone])
        }
    }
}
