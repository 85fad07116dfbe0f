import Foundation
import Testing
import SteppieCore
import SteppieStore
@testable import SteppieCLI

@Suite struct CommandTests {
    @Test func helpIsGoldenText() {
        let h = CLIHarness()
        #expect(h.run(["today", "--help"]).out == """
            Show today's routines of a child and what is done.

            Usage: steppie today [--child NAME] [--json]

            Options:
              --child NAME  The child, by name or id (default: the only child).
              --json        Print JSON for scripts.

            Global options:
              --db PATH        Database file (default: $STEPPIE_DB, then $XDG_DATA_HOME/steppie/steppie.db).
              --locale LOCALE  Language of messages and titles. (ko|en|qps)
              --help           Show help for the command.

            """)
    }

    @Test func usageErrorsExit64AndRuntimeErrorsExit1() {
        let h = CLIHarness()
        let usage = h.run(["today", "--kid", "x"])
        #expect(usage.status == 64)
        #expect(usage.err.contains("unknown option --kid"))
        let runtime = h.run(["today"])
        #expect(runtime.status == 1)
        #expect(runtime.err.hasPrefix("steppie: there is no Steppie database at "))
        #expect(runtime.err.hasSuffix("; run `steppie init` to create one.\n"))
        let badId = h.run(["complete", "not-a-uuid"])
        #expect(badId.status == 64 && badId.err.contains("\"not-a-uuid\""))
    }

    @Test func aGuidedMorningThroughSingleCommands() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        var today = h.run(["today"])
        #expect(today.out.hasPrefix("Mina — Morning routine — 2026-03-02  (0 / 6)\n ▶ 1. Wake up  ← now\n"))
        #expect(h.run(["complete"]).out == "Wake up: done (1 / 6).\n")
        h.clock.advance(by: 2)
        #expect(h.run(["undo"]).out == "Wake up: undone (0 / 6).\n")
        #expect(h.run(["complete"], locale: "ko").out == "일어나기: 완료 (1 / 6).\n")
        h.clock.advance(by: 6)
        let late = h.run(["undo"])
        #expect(late.status == 1 && late.err == "steppie: the undo window of 5 seconds has passed\n")
        for _ in 0..<5 { #expect(h.run(["complete"]).status == 0) }
        today = h.run(["today"])
        #expect(today.out.contains("All routines are complete."))
        #expect(h.run(["complete"]).err == "steppie: every routine of today is already complete\n")

        let json = h.run(["today", "--json"])
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(obj["date"] as? String == "2026-03-02")
        #expect((obj["progress"] as? [String: Int]) == ["completed": 6, "total": 6])
        #expect(obj["allDone"] as? Bool == true)
    }

    @Test func completingAnotherCardIsRefusedAndChangesNothing() throws {
        let h = CLIHarness()
        h.run(["init", "--child", "Mina"])
        let plan = try JSONSerialization.jsonObject(with: Data(h.run(["today", "--json"]).out.utf8)) as? [String: Any]
        let third = try #require((plan?["routines"] as? [[String: Any]])?[2]["id"] as? String)
        let store = try Store(path: h.db, timeZone: h.zone)
        let before = try store.dump()
        let r = h.run(["complete", third])
        #expect(r.status == 1 && r.err.contains("is not the current one"))
        #expect(try store.dump() == before)
    }

    @Test func badNamesAreRefusedThroughTheCommandLineWithTheDatabaseUnchanged() throws {
        let h = CLIHarness()
        h.run(["init", "--child", "Mina"])
        let store = try Store(path: h.db, timeZone: h.zone)
        let before = try store.dump()
        let cases: [(String, String)] = [
            ("", "child.name cannot be (empty)"),
            ("Mi\u{202E}na", "child.name cannot be U+202E"),
            ("A\u{7}", "child.name cannot be U+0007"),
            (String(repeating: "가", count: 61), "child.name cannot be (61 characters)"),
            ("MINA", "a child named MINA already exists"),
        ]
        for (name, message) in cases {
            let r = h.run(["children", "add", name])
            #expect(r.status == 1, "\(name)")
            #expect(r.err.contains(message), "\(r.err)")
        }
        #expect(try store.dump() == before)
        #expect(try store.integrityProblems().isEmpty)
    }

    @Test func stepieNowAndTZDecideTheLocalDate() throws {
        let h = CLIHarness(now: "2026-03-08T01:59:30-05:00", zone: "America/New_York")
        h.run(["init", "--child", "Mina"])
        h.run(["complete"])
        h.clock.advance(by: 60)   // 03:00:30 EDT: the same local day across the DST jump
        let r = try JSONSerialization.jsonObject(with: Data(h.run(["today", "--json"]).out.utf8)) as? [String: Any]
        #expect(r?["date"] as? String == "2026-03-08")
        #expect((r?["progress"] as? [String: Int])?["completed"] == 1)
    }
}
