import Foundation
import Testing

/// `steppie child` as a real process: the child's language decides the status lines, the events
/// and the screen whatever the system's is; the screen celebrates by the child's intensity; the
/// event stream says every refused undo and never a focus without its card.
@Suite(.serialized) struct ChildLanguageAndCelebrationTests {
    static let now = ["STEPPIE_NOW": "2026-03-02T07:00:00+09:00"]

    /// The status lines (no screen, no JSON on standard output) and the events' titles follow the
    /// child's language: an English child on a Korean command line and the other way round.
    @Test(arguments: [
        ("en", "ko", """
        Now: Wake up
        Wake up done. Great job!
        Next: Wash face

        """, ["Wake up", "Wash face"]),
        ("ko", "en", """
        지금 할 일: 일어나기
        일어나기 완료! 잘했어요!
        다음: 세수하기

        """, ["일어나기", "세수하기"]),
    ])
    func theChildsLanguageDecidesLinesAndEvents(childLocale: String, commandLocale: String, golden: String, titles: [String]) throws {
        try #require(FileManager.default.isExecutableFile(atPath: CLIHarness.binary))
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina && $S profile set --child-locale \(childLocale)").status == 0)
        let r = h.sh("$S child --locale \(commandLocale) --output null --events \"$D/events.jsonl\" --keys-from -",
                     env: Self.now, input: "done\nnext\nquit\n")
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == golden, "\(r.out)")
        let events = try String(contentsOfFile: h.directory + "/events.jsonl", encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let seen = events.compactMap { $0["title"] as? String }
        #expect(!seen.isEmpty && Set(seen) == Set(titles), "\(seen)")
    }

    /// The card after a completion, by intensity (NO_COLOR, a 100×40 tmux pane).
    @Test(arguments: [
        ("strong", ["✦ ★ ✦ ★ ✦", "✔ W a k e   u p ✔", "✦ ★ ✦ ★ ✦"]),
        ("normal", ["✓ W a k e   u p"]),
        ("quiet", ["W a k e   u p ·✓"]),
        ("off", ["W a k e   u p"]),
    ])
    func theScreenCelebratesByIntensity(intensity: String, card: [String]) throws {
        try #require(FileManager.default.isExecutableFile(atPath: CLIHarness.binary))
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        #expect(h.run(["profile", "set", "--intensity", intensity]).status == 0)
        let t = ChildModeTmuxTests.Tmux()
        defer { t.stop() }
        let command = "TZ=Asia/Seoul NO_COLOR=1 \(CLIHarness.binary) child --db \(h.db) --locale en --output null; sleep 30"
        t.run(["new-session", "-d", "-s", "child", "-x", "100", "-y", "40", command])
        #expect(t.waitFor("W a k e   u p"), "first screen: \(t.screen())")
        t.keys("Space")
        #expect(t.waitFor("You can undo for"), "undo countdown: \(t.screen())")
        // The lines inside the card's frame, from the done label to the icon label.
        let inner = t.screen().split(separator: "\n").compactMap { line -> String? in
            guard let open = line.firstIndex(of: "│"), let close = line.lastIndex(of: "│"), open < close else { return nil }
            return line[line.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        #expect(inner == ["Done"] + card + ["[Alarm clock]"], "\(intensity): \(inner)")
        t.keys("Space")
    }

    /// Two undo presses after "next" are both refused, and both are written.
    @Test func everyRefusedUndoIsAnEvent() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CLIHarness.binary))
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let child = try ChildProcess(db: h.db, directory: h.directory, variables: ["TZ": "Asia/Seoul", "STEPPIE_NOW": "2026-03-02T07:00:00+09:00"])
        child.send("done")
        child.waitFor(ChildProcess.type("completed"))
        child.send("next")
        child.send("undo")
        child.send("undo")
        child.send("undo")
        let third = child.waitFor { _ in child.events.filter(ChildProcess.type("undoRefused")).count >= 3 }
        let (status, _, err) = child.finish()
        #expect(status == 0, "\(err)")
        #expect(third != nil, "\(child.events.map { $0["type"] ?? "" })")
        #expect(child.events.filter(ChildProcess.type("undoRefused")).allSatisfy { $0["title"] as? String == "Wash face" })
    }

    /// Across midnight (both DST nights in New York and in Seoul), every focus event names its card.
    @Test(arguments: [
        ("America/New_York", "2026-03-07T23:59:58-05:00"),
        ("America/New_York", "2026-11-01T23:59:58-05:00"),
        ("Asia/Seoul", "2026-03-02T23:59:58+09:00"),
    ])
    func noFocusWithoutATitleAtMidnight(zone: String, start: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: CLIHarness.binary))
        let h = CLIHarness(now: start, zone: zone)
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let child = try ChildProcess(db: h.db, directory: h.directory, variables: ["TZ": zone, "STEPPIE_NOW": start])
        child.send("done")
        child.waitFor(ChildProcess.type("dayChanged"))
        let newFocus = child.waitFor { $0["type"] as? String == "focus" && $0["date"] as? String != String(start.prefix(10)) }
        let (status, _, err) = child.finish()
        #expect(status == 0, "\(err)")
        #expect(newFocus?["title"] as? String == "Wake up")
        let focus = child.events.filter(ChildProcess.type("focus"))
        #expect(focus.count >= 2)
        #expect(focus.allSatisfy { ($0["title"] as? String)?.isEmpty == false && $0["activityId"] != nil }, "\(focus)")
    }
}
