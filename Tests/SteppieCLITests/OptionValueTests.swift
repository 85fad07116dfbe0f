import Foundation
import Testing
@testable import SteppieCLI

/// Values are checked where the command tree declares them (issue 15, item 8): a value outside
/// the declared range is a usage mistake, exit 64, naming the option the user typed and what it
/// allows, in the user's language, before any handler runs (so nothing is opened or written).
@Suite struct OptionValueTests {
    let parser = CommandTree.parser
    /// Any well-formed id: ids are typed too (`RecordId`), so a placeholder must be one.
    static let id = "3f2a9c1e-0000-4000-8000-000000000000"

    static let refused: [([String], UsageError)] = [
        (["profile", "set", "--undo", "7"], .notAllowed(option: "--undo", value: "7", allowed: .undoSeconds)),
        (["profile", "set", "--undo=4"], .notAllowed(option: "--undo", value: "4", allowed: .undoSeconds)),
        (["profile", "set", "--undo", "05x"], .notAllowed(option: "--undo", value: "05x", allowed: .undoSeconds)),
        (["profile", "set", "--tts-rate", "1.51"], .notAllowed(option: "--tts-rate", value: "1.51", allowed: .ttsRate)),
        (["profile", "set", "--tts-rate", "1e0"], .notAllowed(option: "--tts-rate", value: "1e0", allowed: .ttsRate)),
        (["profile", "set", "--tts-rate", "inf"], .notAllowed(option: "--tts-rate", value: "inf", allowed: .ttsRate)),
        (["profile", "set", "--tts-volume", "-0.1"], .notAllowed(option: "--tts-volume", value: "-0.1", allowed: .unitVolume)),
        (["profile", "set", "--pitch", "-1"], .notAllowed(option: "--pitch", value: "-1", allowed: .pitch)),
        (["profile", "set", "--pitch", "100"], .notAllowed(option: "--pitch", value: "100", allowed: .pitch)),
        (["profile", "set", "--lead-times", "10,10"], .notAllowed(option: "--lead-times", value: "10,10", allowed: .leadTimes)),
        (["profile", "set", "--lead-times", "241"], .notAllowed(option: "--lead-times", value: "241", allowed: .leadTimes)),
        (["profile", "set", "--quiet-hours", "07:00-07:00"], .notAllowed(option: "--quiet-hours", value: "07:00-07:00", allowed: .quietHours)),
        (["routine", "add", "--title-en", "x", "--position", "0"], .notAllowed(option: "--position", value: "0", allowed: .position)),
        (["routine", "add", "--title-en", "x", "--time", "7:30"], .notAllowed(option: "--time", value: "7:30", allowed: .timeOrNone)),
        (["routine", "move", id, "--to", "-2"], .notAllowed(option: "--to", value: "-2", allowed: .position)),
        (["history", "--date", "2026-02-30"], .notAllowed(option: "--date", value: "2026-02-30", allowed: .date)),
        (["history", "--month", "2026-13"], .notAllowed(option: "--month", value: "2026-13", allowed: .month)),
        (["set", "create", "--name-en", "x", "--start", "24:00"], .notAllowed(option: "--start", value: "24:00", allowed: .time)),
        (["set", "start-time", id, "noon"], .notAllowed(option: "TIME", value: "noon", allowed: .timeOrNone)),
        (["say", "hi", "--rate", "2"], .notAllowed(option: "--rate", value: "2", allowed: .ttsRate)),
        (["routine", "edit", id, "--color", "plaid"],
         .invalidChoice(option: "--color", value: "plaid", choices: ["sky", "mint", "lemon", "peach", "lavender", "rose"])),
    ]

    @Test(arguments: refused.indices)
    func aValueOutsideTheTreeIsAUsageMistakeNamingTheOption(_ i: Int) {
        let (args, expected) = Self.refused[i]
        #expect(throws: expected) { try parser.parse(args) }
    }

    @Test func valuesInsideTheTreeAreAccepted() throws {
        for args in [["profile", "set", "--undo", "3", "--tts-rate", "0.5", "--tts-volume", "1", "--pitch", "0", "--volume-cap", ".5",
                      "--lead-times", "240,1,5", "--quiet-hours", "21:00-07:00"],
                     ["profile", "set", "--lead-times", "none", "--quiet-hours", "none"],
                     ["routine", "add", "--title-en", "x", "--position", "12", "--time", "none"],
                     ["history", "--date", "2028-02-29"], ["history", "--month", "0001-01"],
                     ["set", "start-time", Self.id, "none"], ["set", "start-time", Self.id, "23:59"]] {
            _ = try parser.parse(args)
        }
    }

    /// The allowed values come from the contract's own constants.
    @Test func theTreeUsesTheContractsRanges() {
        #expect(AllowedValues.undoSeconds.kind == .integers([3, 5, 10]))
        #expect(AllowedValues.pitch.kind == .integerRange(min: 0, max: 99))
        #expect(AllowedValues.ttsRate.kind == .decimalRange(min: 0.5, max: 1.5))
        #expect(AllowedValues.leadTimes == AllowedValues(.integerList(min: 1, max: 240, maxCount: 5), or: ["none"]))
    }

    /// Golden text through the real binary, in Korean and English: exit 64, the option as typed,
    /// its allowed values, the help hint; the database is left exactly as it was.
    @Test func profileSetUndoSevenIsExit64InBothLanguages() {
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina").status == 0)
        let before = h.dump()
        let en = h.sh("$S profile set --undo 7 --locale en")
        #expect(en.status == 64)
        #expect(en.out.isEmpty)
        #expect(en.err == """
            steppie: --undo does not accept "7"; allowed: 3, 5 or 10
            See: steppie --help

            """)
        let ko = h.sh("$S profile set --undo=7 --locale ko")
        #expect(ko.status == 64)
        #expect(ko.err == """
            steppie: --undo에 "7" 값은 쓸 수 없어요. 허용: 3, 5, 10 중 하나
            도움말: steppie --help

            """)
        let rate = h.sh("$S profile set --tts-rate 1.6 --locale ko")
        #expect(rate.status == 64 && rate.err.hasPrefix("steppie: --tts-rate에 \"1.6\" 값은 쓸 수 없어요. 허용: 0.5…1.5 사이의 수\n"), "\(rate.err)")
        let lead = h.sh("$S profile set --lead-times 10,10 --locale en")
        #expect(lead.status == 64 && lead.err.hasPrefix(
            "steppie: --lead-times does not accept \"10,10\"; allowed: up to 5 different whole numbers 1…240, separated by commas, or none\n"), "\(lead.err)")
        let leadKo = h.sh("$S profile set --lead-times 10,10 --locale ko")
        #expect(leadKo.err.hasPrefix("steppie: --lead-times에 \"10,10\" 값은 쓸 수 없어요. 허용: 쉼표로 나눈 서로 다른 정수 최대 5개, 각각 1…240 또는 none\n"),
                "\(leadKo.err)")
        let date = h.sh("$S history --date 2026-02-30 --locale en")
        #expect(date.status == 64 && date.err.hasPrefix("steppie: --date does not accept \"2026-02-30\"; allowed: a date YYYY-MM-DD\n"), "\(date.err)")
        let position = h.sh("$S routine add --title-en Water --position 0 --locale ko")
        #expect(position.status == 64 && position.err.hasPrefix("steppie: --position에 \"0\" 값은 쓸 수 없어요. 허용: 1 이상의 정수\n"), "\(position.err)")
        #expect(!en.err.contains("undoDurationSeconds") && !ko.err.contains("undoDurationSeconds"))
        #expect(h.dump() == before)
        // Inside the range the same command works.
        #expect(h.sh("$S profile set --undo 10 --locale en").status == 0)
        #expect(h.sh("$S profile show --json").out.contains("\"undoSeconds\" : 10"))
    }
}
