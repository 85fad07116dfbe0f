import Foundation
import Testing
import SteppieCore
import SteppieStore
@testable import SteppieCLI

/// `steppie schedule show|set|clear`: golden help and output in English and Korean, refusals
/// (exit 64 for bad values, exit 1 for unknown sets, guardian mode) with the database unchanged,
/// and one run through the real binary.
@Suite struct ScheduleCommandTests {
    /// Mina with her morning set (active), a school and a bedtime set; Monday 2026-03-02 07:00 in Seoul.
    static func family() -> CLIHarness {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        #expect(h.run(["set", "create", "--template", "school"]).status == 0)
        #expect(h.run(["set", "create", "--template", "bedtime"]).status == 0)
        return h
    }

    static func scheduled() -> CLIHarness {
        let h = family()
        #expect(h.run(["schedule", "set", "--set", "morning routine", "--days", "weekdays", "--from", "06:30"]).status == 0)
        #expect(h.run(["schedule", "set", "--set", "School routine", "--days", "mon,tue,wed,thu,fri", "--from", "08:30"]).status == 0)
        #expect(h.run(["schedule", "set", "--set", "잠자리 루틴", "--days", "daily", "--from", "19:30"]).status == 0)
        return h
    }

    @Test func helpIsGoldenText() {
        let h = CLIHarness()
        #expect(h.run(["schedule", "set", "--help"]).out == """
            From a time on some weekdays, make a set the active one (replaces that weekday and time).

            Usage: steppie schedule set [--child NAME] [--set SET] [--days DAYS] [--from HH:mm]

            Options:
              --child NAME  The child, by name or id (default: the only child).
              --set SET     The set, by id or by name (see: steppie sets).
              --days DAYS   Weekdays: mon,tue,wed,thu,fri,sat,sun, or weekdays, weekend, daily.
              --from HH:mm  The local time the set becomes active, HH:mm (00:00…23:59).

            Global options:
              --db PATH        Database file (default: $STEPPIE_DB, then $XDG_DATA_HOME/steppie/steppie.db).
              --locale LOCALE  Language of messages and titles. (ko|en|qps)
              --help           Show help for the command.

            """)
        #expect(h.run(["schedule", "--help"]).out.contains("""
              show   Show a child's weekly schedule, the set it names now and the next switch.
            """))
    }

    @Test func setAndShowInBothLanguages() throws {
        let h = Self.family()
        let set = h.run(["schedule", "set", "--set", "School routine", "--days", "weekdays", "--from", "08:30"])
        #expect(set.out == "Mina: from 08:30 on Mon, Tue, Wed, Thu, Fri, School routine is the active set.\n")
        let ko = h.run(["schedule", "set", "--set", "잠자리 루틴", "--days", "daily", "--from", "19:30"], locale: "ko")
        #expect(ko.out == "Mina: 월·화·수·목·금·토·일 19:30부터 잠자리 루틴이 활성 세트예요.\n")
        #expect(h.run(["schedule", "set", "--set", "Morning routine", "--days", "weekdays", "--from", "06:30"]).status == 0)
        let ids = try Self.setIds(h)
        #expect(h.run(["schedule", "show"]).out == """
            Weekly schedule of Mina:
              06:30  Mon, Tue, Wed, Thu, Fri  Morning routine  (\(ids[0]))
              08:30  Mon, Tue, Wed, Thu, Fri  School routine  (\(ids[1]))
              19:30  Mon, Tue, Wed, Thu, Fri, Sat, Sun  Bedtime routine  (\(ids[2]))
            Scheduled now: Morning routine
            Next switch: Mon 2026-03-02 08:30, to School routine

            """)
        #expect(h.run(["schedule", "show"], locale: "ko").out == """
            Mina의 주간 일정:
              06:30부터  월·화·수·목·금  아침 루틴  (\(ids[0]))
              08:30부터  월·화·수·목·금  학교 루틴  (\(ids[1]))
              19:30부터  월·화·수·목·금·토·일  잠자리 루틴  (\(ids[2]))
            지금 일정의 세트: 아침 루틴
            다음 전환: 2026-03-02 (월) 08:30, 학교 루틴으로 바뀌어요

            """)
        // Friday night: the next switch is Monday morning; a set chosen by hand is shown beside it.
        h.clock.set(try #require(Timestamp.parse("2026-03-06T21:00:00+09:00")))
        #expect(h.run(["set", "activate", ids[1]]).status == 0)
        #expect(h.run(["schedule", "show"]).out.hasSuffix("""
            Scheduled now: Bedtime routine
            Active now: School routine (not the scheduled set; the schedule takes over at its next switch)
            Next switch: Mon 2026-03-09 06:30, to Morning routine

            """))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(h.run(["schedule", "show", "--json"]).out.utf8)) as? [String: Any])
        #expect(json["scheduledSetId"] as? String == ids[2])
        #expect(json["activeSetId"] as? String == ids[1])
        let next = try #require(json["nextSwitch"] as? [String: Any])
        #expect(next["at"] as? String == "2026-03-09T06:30:00.000+09:00" && next["setId"] as? String == ids[0])
        let entries = try #require(json["entries"] as? [[String: Any]])
        #expect(entries.count == 3 && entries[2]["days"] as? [String] == ["mon", "tue", "wed", "thu", "fri", "sat", "sun"])
    }

    /// The sets' ids in creation order: morning, school, bedtime.
    static func setIds(_ h: CLIHarness) throws -> [String] {
        let sets = try #require(try JSONSerialization.jsonObject(with: Data(h.run(["sets", "--json"]).out.utf8)) as? [[String: Any]])
        return sets.compactMap { $0["id"] as? String }
    }

    @Test func clearRemovesDaysOrEverything() throws {
        let h = Self.scheduled()
        #expect(h.run(["schedule", "clear", "--days", "weekend"]).out == "Removed 2 start times from Mina's schedule.\n")
        #expect(h.run(["schedule", "clear", "--days", "sat"]).out == "Mina has no schedule on those days; nothing changed.\n")
        #expect(h.run(["schedule", "clear", "--days", "mon"], locale: "ko").out == "Mina의 일정에서 시작 시각 3개를 지웠어요.\n")
        #expect(h.run(["schedule", "clear"]).out == "Removed 12 start times from Mina's schedule.\n")
        #expect(h.run(["schedule", "show"]).out
                == "Mina has no weekly schedule. Add one with: steppie schedule set --set SET --days mon,tue --from HH:mm\n")
    }

    @Test func badValuesAreRefusedWithTheDatabaseUnchanged() throws {
        let h = Self.scheduled()
        let store = try Store(path: h.db, timeZone: h.zone)
        let before = try store.dump()
        let cases: [([String], Int32, String)] = [
            (["schedule", "set", "--set", "School routine", "--days", "monday", "--from", "08:30"], 64,
             "steppie: --days: \"monday\" is not valid; expected weekdays such as mon,tue,fri (mon…sun), or weekdays, weekend, daily\nSee: steppie --help\n"),
            (["schedule", "set", "--set", "School routine", "--days", "mon", "--from", "25:00"], 64,
             "steppie: --from: \"25:00\" is not valid; expected a 24-hour time HH:mm, 00:00…23:59\nSee: steppie --help\n"),
            (["schedule", "set", "--set", "School routine", "--days", "mon"], 64, "steppie: missing argument --from\nSee: steppie --help\n"),
            (["schedule", "clear", "--days", ""], 64,
             "steppie: --days: \"\" is not valid; expected weekdays such as mon,tue,fri (mon…sun), or weekdays, weekend, daily\nSee: steppie --help\n"),
            (["schedule", "set", "--set", "Holiday", "--days", "mon", "--from", "08:30"], 1, "steppie: no routine set Holiday\n"),
        ]
        for (args, status, err) in cases {
            let r = h.run(args)
            #expect(r.status == status, "\(args)")
            #expect(r.err == err, "\(args)")
            #expect(try store.dump() == before)
        }
        // A ninth start time on Monday.
        for hour in 0..<5 { #expect(h.run(["schedule", "set", "--set", "School routine", "--days", "mon", "--from", String(format: "%02d:15", hour)]).status == 0) }
        let full = try store.dump()
        let ninth = h.run(["schedule", "set", "--set", "School routine", "--days", "mon", "--from", "23:00"])
        #expect(ninth.status == 1)
        #expect(ninth.err == "steppie: schedule.entries cannot be 9 on mon; allowed: at most 8 start times a day\n")
        let ninthKo = h.run(["schedule", "set", "--set", "School routine", "--days", "mon", "--from", "23:00"], locale: "ko")
        #expect(ninthKo.err.hasSuffix("허용 범위: 하루에 시작 시각 8개까지\n"), "\(ninthKo.err)")
        #expect(try store.dump() == full)
        // Another child's set by id is not this child's.
        #expect(h.run(["children", "add", "Joon", "--template", "morning"]).status == 0)
        let joonSet = try #require((try JSONSerialization.jsonObject(with: Data(h.run(["sets", "--child", "Joon", "--json"]).out.utf8)) as? [[String: Any]])?.first?["id"] as? String)
        let foreign = h.run(["schedule", "set", "--child", "Mina", "--set", joonSet, "--days", "tue", "--from", "10:00"])
        #expect(foreign.status == 1 && foreign.err == "steppie: no routine set \(joonSet)\n")
        #expect(h.run(["set", "create", "--child", "Mina", "--template", "school"]).status == 0)
        let twice = h.run(["schedule", "set", "--child", "Mina", "--set", "school routine", "--days", "tue", "--from", "10:00"])
        #expect(twice.status == 1 && twice.err.hasPrefix("steppie: several sets are called school routine ("))
    }

    @Test func changingTheScheduleIsGuardianWork() throws {
        let h = Self.family()
        _ = try #require(h.run(["guardian", "set-pin", "--pin-stdin"], input: ["8361"]).status == 0 ? true : nil)
        let store = try Store(path: h.db, timeZone: h.zone)
        let before = try store.dump()
        for args in [["schedule", "set", "--set", "School routine", "--days", "mon", "--from", "08:30"], ["schedule", "clear"]] {
            let r = h.run(args)
            #expect(r.status == 1 && r.err == "steppie: guardian mode is off; turn it on with: steppie guardian unlock\n")
        }
        #expect(try store.dump() == before)
        #expect(h.run(["schedule", "show"]).status == 0)                      // looking needs no guardian mode
        #expect(h.run(["guardian", "unlock", "--pin-stdin"], input: ["8361"]).status == 0)
        #expect(h.run(["schedule", "set", "--set", "School routine", "--days", "mon", "--from", "08:30"]).status == 0)
    }

    /// The real binary, with STEPPIE_NOW and TZ as a user would run it.
    @Test func throughTheRealBinary() throws {
        let h = BinaryHarness()
        let now = ["STEPPIE_NOW": "2026-03-06T23:59:30+09:00"]
        let setup = h.sh("""
            $S init --child Mina && $S set create --template bedtime && $S children add Joon && \
            $S schedule set --child Mina --set 'Bedtime routine' --days daily --from 19:30 && \
            $S schedule set --child Mina --set 'Morning routine' --days sat --from 00:00
            """, env: now)
        #expect(setup.status == 0, "\(setup.err)")
        let show = h.sh("$S schedule show --child mina", env: now)
        #expect(show.status == 0)
        #expect(show.out.hasSuffix("""
            Scheduled now: Bedtime routine
            Active now: Morning routine (not the scheduled set; the schedule takes over at its next switch)
            Next switch: Sat 2026-03-07 00:00, to Morning routine

            """), "\(show.out)")
        let bad = h.sh("$S schedule set --child Mina --set 'Bedtime routine' --days someday --from 19:30", env: now)
        #expect(bad.status == 64 && bad.err.contains("--days"))
        let noDb = BinaryHarness().sh("$S schedule show")
        #expect(noDb.status == 1 && noDb.err.contains("steppie init"))
    }
}
