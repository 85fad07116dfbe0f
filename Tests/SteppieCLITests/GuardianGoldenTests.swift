import Foundation
import Testing
import SteppieCore
import SteppieStore
@testable import SteppieCLI

/// Golden text of `history`, the month heatmap and `stats`, in Korean and English, on fixed data:
/// Mina's morning set from 2026-03-02; all six done on Mar 2–3, three on Mar 4, none on Mar 5,
/// two on Mar 6 (today); the last routine soft-deleted on Mar 6 07:00 (tracked through Mar 6).
@Suite struct GuardianGoldenTests {
    static func fixture() throws -> CLIHarness {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        for count in [6, 6, 3] {
            for _ in 0..<count { #expect(h.run(["complete"]).status == 0); h.clock.advance(by: 60) }
            h.clock.advance(by: 86_400 - Double(count) * 60)
        }
        h.clock.advance(by: 86_400)                                    // Mar 6, 07:00
        let store = try Store(path: h.db, timeZone: h.zone)
        let child = try store.resolveChild(nil)
        let set = try #require(try store.activeSet(childId: child.id))
        let last = try #require(try store.routines(setId: set.id).last)
        #expect(h.run(["routine", "delete", last.id.uuidString], input: []).status == 0)
        for _ in 0..<2 { #expect(h.run(["complete"]).status == 0); h.clock.advance(by: 300) }
        return h
    }

    /// A day lists what was done (with the time) and what was not (issue 15, item 10).
    @Test func historyOfADay() throws {
        let h = try Self.fixture()
        #expect(h.run(["history", "--date", "2026-03-04"]).out == """
            Mina — 2026-03-04
              ✓ 07:00  Wake up
              ✓ 07:01  Wash face
              ✓ 07:02  Brush teeth
              ✗        Get dressed
              ✗        Eat breakfast
              ✗        Pack bag  (deleted)
            3 of 6 routines done.

            """)
        #expect(h.run(["history", "--date", "2026-03-04"], locale: "ko").out == """
            Mina — 2026-03-04
              ✓ 07:00  일어나기
              ✓ 07:01  세수하기
              ✓ 07:02  양치하기
              ✗        옷 입기
              ✗        아침 먹기
              ✗        가방 챙기기  (삭제됨)
            루틴 6개 중 3개 완료.

            """)
        #expect(h.run(["history", "--date", "2026-03-02"], locale: "ko").out == """
            Mina — 2026-03-02
              ✓ 07:00  일어나기
              ✓ 07:01  세수하기
              ✓ 07:02  양치하기
              ✓ 07:03  옷 입기
              ✓ 07:04  아침 먹기
              ✓ 07:05  가방 챙기기  (삭제됨)
            루틴 6개 중 6개 완료.

            """)
        // Today: what is not done yet is pending, not missed.
        #expect(h.run(["history"]).out == """
            Mina — 2026-03-06
              ✓ 07:00  Wake up
              ✓ 07:05  Wash face
              ·        Brush teeth  (not yet)
              ·        Get dressed  (not yet)
              ·        Eat breakfast  (not yet)
              ·        Pack bag  (not yet)  (deleted)
            2 of 6 routines done.

            """)
        #expect(h.run(["history", "--date", "2026-03-01"]).out == "Mina — 2026-03-01\n  Nothing was done on this day.\n")
    }

    /// Colours go to a terminal only: into a pipe or a file the heatmap is plain text, with or
    /// without NO_COLOR (the harness's output is not a terminal, like `steppie history | less`).
    @Test func noColoursIntoAPipe() throws {
        let h = try Self.fixture()
        let out = h.run(["history", "--month", "2026-03"]).out
        #expect(out.contains("2█") && !out.contains("\u{1B}"), "\(out)")
    }

    @Test func monthHeatmap() throws {
        let h = try Self.fixture()
        let noColor = ["NO_COLOR": "1"]
        #expect(h.run(["history", "--month", "2026-03"], variables: noColor).out == """
            Mina — 2026-03
             Mo  Tu  We  Th  Fr  Sa  Su
                                      1
              2█  3█  4▒  5·  6░  7   8
              9  10  11  12  13  14  15
             16  17  18  19  20  21  22
             23  24  25  26  27  28  29
             30  31

            · none  ░ up to 1/3  ▒ up to 2/3  ▓ most  █ all done  (blank: nothing to do)
            All routines done on 2 of 4 days.

            """)
        #expect(h.run(["history", "--month", "2026-03"], locale: "ko", variables: noColor).out == """
            Mina — 2026-03
             월  화  수  목  금  토  일
                                      1
              2█  3█  4▒  5·  6░  7   8
              9  10  11  12  13  14  15
             16  17  18  19  20  21  22
             23  24  25  26  27  28  29
             30  31

            · 없음  ░ 1/3까지  ▒ 2/3까지  ▓ 대부분  █ 모두 완료  (빈칸: 할 일 없음)
            4일 중 2일 모든 루틴 완료.

            """)
        let colored = h.run(["history", "--month", "2026-03"], terminal: true).out
        #expect(colored.contains("\u{1B}[32m█\u{1B}[0m"))
    }

    @Test func statistics() throws {
        let h = try Self.fixture()
        #expect(h.run(["stats"]).out == """
            Statistics of Mina on 2026-03-06
            Routine             Current  Longest  Done  Days  Rate
            Wake up                   1        3     4     5   80%
            Wash face                 1        3     4     5   80%
            Brush teeth               0        3     3     5   60%
            Get dressed               0        2     2     5   40%
            Eat breakfast             0        2     2     5   40%
            Pack bag (deleted)        0        2     2     5   40%
            All routines done: current streak 0, longest 2, 2 of 5 days (40%)
            Routine-days: 17 of 30 (57%)

            """)
        #expect(h.run(["stats"], locale: "ko").out == """
            Mina의 통계 (2026-03-06 기준)
            루틴                  현재  최장  완료  대상일  비율
            일어나기                 1     3     4       5   80%
            세수하기                 1     3     4       5   80%
            양치하기                 0     3     3       5   60%
            옷 입기                  0     2     2       5   40%
            아침 먹기                0     2     2       5   40%
            가방 챙기기 (삭제됨)     0     2     2       5   40%
            모든 루틴 완료: 현재 연속 0일, 최장 2일, 5일 중 2일 (40%)
            루틴-일: 30 중 17 (57%)

            """)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(h.run(["stats", "--json"]).out.utf8)) as? [String: Any])
        #expect((json["routineDays"] as? [String: Any])?["completed"] as? Int == 17)
        // Each streak with its first and last day (issue 15, item 10).
        let wake = try #require((json["routines"] as? [[String: Any]])?.first)
        #expect(wake["currentStreakStart"] as? String == "2026-03-06" && wake["currentStreakEnd"] as? String == "2026-03-06")
        #expect(wake["longestStreakStart"] as? String == "2026-03-02" && wake["longestStreakEnd"] as? String == "2026-03-04")
        let days = try #require(json["days"] as? [String: Any])
        #expect(days["longestStreakStart"] as? String == "2026-03-02" && days["longestStreakEnd"] as? String == "2026-03-03")
        #expect(days["currentStreakStart"] is NSNull && days["currentStreakEnd"] is NSNull)
    }
}
