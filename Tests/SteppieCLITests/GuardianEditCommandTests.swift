import Foundation
import Testing
import SteppieCore
import SteppieStore
@testable import SteppieCLI

/// Sets, deleted routines, past days and archived children from the command line (issue 15,
/// items 9 and 10), with golden text in Korean and English where the wording is the point.
@Suite struct GuardianEditCommandTests {
    static func routineIds(_ h: CLIHarness) throws -> [String] {
        let sets = try #require(try JSONSerialization.jsonObject(with: Data(h.run(["routines", "--json"]).out.utf8)) as? [[String: Any]])
        return (sets.first?["routines"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test func setsAreRenamedAndDeletedButNotTheActiveOne() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let created = h.run(["set", "create", "--template", "bedtime"])
        let id = try #require(created.out.split(separator: "(").last?.dropLast(3)).description
        #expect(h.run(["set", "rename", id, "--name-ko", "저녁 루틴", "--name-en", "Evening"]).out == "Renamed Bedtime routine to Evening.\n")
        #expect(h.run(["set", "rename", id, "--name-en", "Night"], locale: "ko").out == "저녁 루틴을 저녁 루틴으로 바꿨어요.\n")
        #expect(h.run(["set", "rename", id]).status == 64)
        let sets = try #require(try JSONSerialization.jsonObject(with: Data(h.run(["sets", "--json"]).out.utf8)) as? [[String: Any]])
        let active = try #require(sets.first { $0["isActive"] as? Bool == true }?["id"] as? String)
        let before = try Store(path: h.db, timeZone: h.zone).dump()
        let refused = h.run(["set", "delete", active])
        #expect(refused.status == 1)
        #expect(refused.err == "steppie: Morning routine is the active set and cannot be deleted; activate another set first: steppie set activate SET-ID\n")
        #expect(h.run(["set", "delete", active], locale: "ko").err
                == "steppie: 아침 루틴은 지금 쓰는 세트라서 삭제할 수 없어요. 먼저 다른 세트를 활성화하세요: steppie set activate SET-ID\n")
        #expect(try Store(path: h.db, timeZone: h.zone).dump() == before)
        #expect(h.run(["set", "delete", id], locale: "ko").out == "저녁 루틴을 삭제했어요 (\(id)). 루틴과 기록은 남아 있어요.\n")
        #expect(!h.run(["sets"]).out.contains(id))
        #expect(h.run(["set", "delete", id]).status == 1)
    }

    @Test func deletedRoutinesAreListedWithTheirIdsAndNewRoutinesAreSky() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        #expect(h.run(["routines", "--deleted"]).out == "Mina has no deleted routines.\n")
        let ids = try Self.routineIds(h)
        #expect(h.run(["routine", "delete", ids[2]]).status == 0)
        #expect(h.run(["routines", "--deleted"]).out == """
            Deleted routines of Mina:
              Brush teeth  \(ids[2])  set: Morning routine  deleted 2026-03-02

            """)
        #expect(h.run(["routines", "--deleted"], locale: "ko").out == """
            Mina의 삭제된 루틴:
              양치하기  \(ids[2])  세트: 아침 루틴  2026-03-02 삭제

            """)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(h.run(["routines", "--deleted", "--json"]).out.utf8)) as? [[String: Any]])
        #expect(json.first?["id"] as? String == ids[2] && json.first?["deletedAt"] as? String == "2026-03-02T07:00:00.000+09:00")
        #expect(h.run(["routine", "restore", ids[2]]).status == 0)
        #expect(h.run(["routines", "--deleted"]).out == "Mina has no deleted routines.\n")
        // The seventh card would have been the first color again by cycling; the contract says sky.
        #expect(h.run(["routine", "add", "--title-en", "Water", "--position", "2"]).status == 0)
        let sets = try #require(try JSONSerialization.jsonObject(with: Data(h.run(["routines", "--json"]).out.utf8)) as? [[String: Any]])
        let water = (sets.first?["routines"] as? [[String: Any]])?.first { ($0["title"] as? [String: String])?["en"] == "Water" }
        #expect(water?["colorToken"] as? String == "color.card.sky")
        #expect(h.run(["routine", "add", "--title-en", "Juice", "--color", "peach"]).status == 0)
    }

    /// A routine deleted on Mar 3 and restored on Mar 7: Mar 4–6 are away, not missed; a guardian
    /// marks Mar 8 done; the routine's month shows it all.
    @Test func oneRoutinesMonthWithAnAbsenceAndACorrection() throws {
        let h = CLIHarness(now: "2026-03-02T07:00:00+09:00")
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let ids = try Self.routineIds(h)
        #expect(h.run(["complete"]).status == 0)
        h.clock.advance(by: 86_400 + 3600)                              // Mar 3, 08:00
        #expect(h.run(["routine", "delete", ids[0]]).status == 0)
        h.clock.advance(by: 4 * 86_400)                                 // Mar 7, 08:00
        #expect(h.run(["routine", "restore", ids[0]]).status == 0)
        h.clock.advance(by: 2 * 86_400)                                 // Mar 9, 08:00
        #expect(h.run(["history", "set", "2026-03-08", ids[0], "done"]).out == "Wake up on 2026-03-08: marked as done.\n")
        #expect(h.run(["history", "set", "2026-03-08", ids[0], "done"], locale: "ko").out
                == "2026-03-08의 일어나기는 이미 한 것으로 되어 있어요. 바뀐 것은 없어요.\n")
        let absent = h.run(["history", "set", "2026-03-05", ids[0], "done"])
        #expect(absent.status == 1 && absent.err == "steppie: routine \(ids[0]) was not part of the day on 2026-03-05 (not created yet, deleted, or away)\n")
        #expect(h.run(["history", "--routine", ids[0], "--month", "2026-03"]).out == """
            Wake up — 2026-03 (Mina)
             Mo  Tu  We  Th  Fr  Sa  Su
                                      1
              2✓  3✗  4○  5○  6○  7✗  8✓
              9· 10  11  12  13  14  15
             16  17  18  19  20  21  22
             23  24  25  26  27  28  29
             30  31

            ✓ done  ✗ missed  · not yet  ○ away (deleted, then restored)  (blank: not part of the day)
            Done on 2 of 5 days.

            """)
        #expect(h.run(["history", "--routine", ids[0], "--month", "2026-03"], locale: "ko").out.hasSuffix("""
            ✓ 완료  ✗ 놓침  · 아직  ○ 쉼 (삭제했다가 되살림)  (빈칸: 하루 루틴에 없음)
            5일 중 2일 완료.

            """))
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(h.run(["stats", "--json"]).out.utf8)) as? [String: Any])
        let wake = try #require((stats["routines"] as? [[String: Any]])?.first { $0["id"] as? String == ids[0] })
        #expect(wake["eligibleDays"] as? Int == 5 && wake["completedDays"] as? Int == 2)
        #expect(wake["longestStreakStart"] as? String == "2026-03-08" && wake["currentStreakEnd"] as? String == "2026-03-08")
        // The day view marks the correction with when it was made.
        #expect(h.run(["history", "--date", "2026-03-08"]).out.contains("  ✓ 08:00  Wake up  (corrected 2026-03-09 08:00)\n"))
        #expect(h.run(["history", "--date", "2026-03-08"], locale: "ko").out.contains("  ✓ 08:00  일어나기  (2026-03-09 08:00 수정)\n"))
        let future = h.run(["history", "set", "2026-03-10", ids[1], "done"], locale: "ko")
        #expect(future.status == 1 && future.err == "steppie: 2026-03-10은 오늘(2026-03-09) 이후예요. 오늘과 지난 날만 고칠 수 있어요\n")
        #expect(h.run(["history", "set", "2026-03-08", ids[1], "maybe"]).status == 64)
        #expect(h.run(["history", "set", "2026-3-8", ids[1], "done"]).err.hasPrefix("steppie: DATE does not accept \"2026-3-8\"; allowed: a date YYYY-MM-DD\n"))
    }

    /// Through the real binary: correcting a day is guardian work (refused while guardian mode is
    /// off), and the change is recorded with when it was made.
    @Test func correctingADayNeedsGuardianModeAndIsRecorded() throws {
        let h = BinaryHarness()
        let at = ["STEPPIE_NOW": "2026-03-05T19:00:00+09:00"]
        #expect(h.sh("$S init --child Mina", env: ["STEPPIE_NOW": "2026-03-02T07:00:00+09:00"]).status == 0)
        #expect(h.sh("$S guardian set-pin --pin-stdin", input: "8361\n").status == 0)
        #expect(h.sh("$S guardian lock").status == 0)
        let id = h.query("SELECT id FROM routines ORDER BY sort_order LIMIT 1")
        let before = h.dump()
        let refused = h.sh("$S history set 2026-03-03 \(id) done", env: at)
        #expect(refused.status == 1 && refused.err.contains("guardian mode is off"), "\(refused.err)")
        #expect(h.dump() == before)
        #expect(h.sh("$S guardian unlock --pin-stdin", input: "8361\n").status == 0)
        let done = h.sh("$S history set 2026-03-03 \(id) done --locale ko", env: at)
        #expect(done.status == 0 && done.out == "2026-03-03의 일어나기를 한 것으로 고쳤어요.\n", "\(done.err)")
        // STEPPIE_NOW runs on from its instant: the change is stamped within the command's run.
        #expect(h.query("SELECT date, done, previous_status IS NULL, substr(made_at, 1, 19) FROM log_corrections")
                == "2026-03-03|1|1|2026-03-05T19:00:00")
        #expect(h.query("SELECT status, substr(completed_at, 1, 19) FROM daily_logs WHERE date = '2026-03-03'") == "completed|2026-03-05T19:00:00")
        #expect(h.sh("$S history set 2026-03-03 \(id) not-done --locale en", env: at).out == "Wake up on 2026-03-03: marked as not done.\n")
        #expect(h.query("SELECT count(*) FROM log_corrections") == "2")
    }

    @Test func archivedChildrenAreListedUnarchivedAndTheirHistoryRead() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        #expect(h.run(["complete"]).status == 0)
        #expect(h.run(["children", "list", "--archived"]).out == "No archived children.\n")
        #expect(h.run(["children", "archive", "Mina"]).status == 0)
        let id = try #require(try Store(path: h.db, timeZone: h.zone).archivedChildren().first?.id.lowercased)
        #expect(h.run(["children", "list", "--archived"]).out == "Mina  \(id)  archived 2026-03-02\n")
        #expect(h.run(["children", "list", "--archived"], locale: "ko").out == "Mina  \(id)  2026-03-02 보관\n")
        #expect(h.run(["history", "--child", "mina"]).out.hasPrefix("Mina — 2026-03-02\n  ✓ 07:00  Wake up\n"))
        #expect(h.run(["stats", "--child", "Mina"]).status == 0)
        // Still hidden from child mode, and said as archived, not "no child named" (#26 item 9).
        let today = h.run(["today", "--child", "Mina"])
        #expect(today.status == 1 && today.err == "steppie: Mina is archived; bring them back with: steppie children unarchive Mina\n", "\(today.err)")
        #expect(h.run(["today", "--child", "Mina"], locale: "ko").err == "steppie: Mina는 보관되어 있어요. 다시 꺼내려면: steppie children unarchive Mina\n")
        #expect(h.run(["children", "unarchive", "Mina"], locale: "ko").out == "Mina가 다시 아이 목록에 있어요.\n")
        #expect(h.run(["children", "unarchive", "Mina"]).status == 1)
        #expect(h.run(["today"]).status == 0)
        #expect(h.run(["children", "list", "--archived"]).out == "No archived children.\n")
    }
}
