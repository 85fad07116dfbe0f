import Foundation
import Testing
import SteppieStore
@testable import SteppieCLI

/// The command tree is typed (issue 25, item 4): each leaf carries its handler, and every usage
/// mistake is found by the parser, before the handler (and the guardian check around it) runs.
@Suite struct CommandTreeTests {
    /// Every node below the root with its path.
    static func nodes(_ spec: CommandSpec = CommandTree.root, _ path: [String] = []) -> [([String], CommandSpec)] {
        spec.subcommands.flatMap { child in [(path + [child.name], child)] + nodes(child, path + [child.name]) }
    }

    @Test func everyLeafRunsAndNoPlainGroupDoes() {
        let all = Self.nodes()
        #expect(all.count > 60)   // 57 leaves and their groups
        for (path, spec) in all {
            let runnable = spec.subcommands.isEmpty || spec.runsWithoutSubcommand
            #expect((spec.run != nil) == runnable, "\(path.joined(separator: " "))")
        }
    }

    /// Every name a rule uses is an option or argument of its command (or a global), so a
    /// renamed option cannot leave a rule that never fires.
    @Test func rulesNameWhatTheirCommandDeclares() {
        let globals = Set(CommandTree.globals.map(\.name))
        for (path, spec) in Self.nodes() {
            let declared = Set(spec.options.map(\.name) + spec.positionals.map(\.name)).union(globals)
            for rule in spec.rules {
                let names: [String]
                switch rule {
                case .required(let n), .choices(let n, _): names = [n]
                case .atLeastOne(let ns): names = ns
                case .exclusive(let a, let b), .requires(let a, let b): names = [a, b]
                }
                for n in names { #expect(declared.contains(n), "\(path.joined(separator: " ")): \(n)") }
            }
        }
    }

    /// Lines that are wrong as typed: on a database with a PIN and guardian mode off, each is
    /// refused with exit 64 and its own message, not "unlock first" (exit 1), and nothing changes.
    @Test(arguments: [
        (["set", "create", "--child", "Mina"], "steppie: missing argument --template | --name-ko | --name-en\n"),
        (["set", "create", "--template", "school", "--name-en", "X"], "steppie: --template and --name-en cannot be used together\n"),
        (["set", "rename", "3f2a9c1e-0000-4000-8000-000000000000"], "steppie: missing argument --name-ko | --name-en\n"),
        (["set", "delete", "school"],
         "steppie: SET-ID: \"school\" is not valid; expected an id such as 3f2a9c1e-… as steppie routines or steppie sets shows it\n"),
        (["routine", "edit", "3f2a9c1e-0000-4000-8000-000000000000"],
         "steppie: missing argument --title-ko | --title-en | --icon | --color | --time\n"),
        (["routine", "move", "3f2a9c1e-0000-4000-8000-000000000000"], "steppie: missing argument --to\n"),
        (["routine", "record", "3f2a9c1e-0000-4000-8000-000000000000", "--remove", "a.wav", "--locale", "en"],
         "steppie: --remove and FILE cannot be used together\n"),
        (["routine", "record", "3f2a9c1e-0000-4000-8000-000000000000", "--locale", "en"], "steppie: missing argument FILE | --remove\n"),
        (["profile", "set"], "steppie: missing argument --intensity | --sound | --speech | --haptic | --tts-rate | --tts-volume | "
                             + "--volume-cap | --pitch | --voice | --undo | --lead-times | --quiet-hours | --child-locale\n"),
        (["history", "--date", "2026-03-02", "--month", "2026-03"], "steppie: --date and --month cannot be used together\n"),
        (["history", "--routine", "wake-up"],
         "steppie: --routine: \"wake-up\" is not valid; expected an id such as 3f2a9c1e-… as steppie routines or steppie sets shows it\n"),
        (["schedule", "set", "--days", "mon", "--from", "08:00"], "steppie: missing argument --set\n"),
        (["schedule", "clear", "--days", "someday"],
         "steppie: --days: \"someday\" is not valid; expected weekdays such as mon,tue,fri (mon…sun), or weekdays, weekend, daily\n"),
        (["haptics", "set"], "steppie: missing argument --audio-pulse | --rumble | --log\n"),
        (["buttons", "add", "/dev/input/event3", "--grab", "--no-grab"], "steppie: --grab and --no-grab cannot be used together\n"),
        (["complete", "wake-up"],
         "steppie: ROUTINE-ID: \"wake-up\" is not valid; expected an id such as 3f2a9c1e-… as steppie routines or steppie sets shows it\n"),
    ])
    func refusedByTheParserBeforeTheGuardianCheck(line: [String], message: String) throws {
        let h = CLIHarness()
        _ = try GuardianCommandTests.withPin(h)
        let before = try Store(path: h.db, timeZone: h.zone).dump()
        let r = h.run(line)
        #expect(r.status == 64, "\(line): \(r.status) \(r.err)")
        #expect(r.err == message + "See: steppie --help\n", "\(line)")
        #expect(r.out.isEmpty)
        #expect(try Store(path: h.db, timeZone: h.zone).dump() == before)
    }

    /// A recording's language is `ko` or `en`: the pseudo-locale the global `--locale` also takes
    /// is refused for it by the parser (its message is then in the pseudo-locale). The harness
    /// always gives `--locale`; without one `.required("--locale")` refuses the line the same way.
    @Test func aRecordingNeedsARealLanguage() throws {
        let h = CLIHarness()
        _ = try GuardianCommandTests.withPin(h)
        let r = h.run(["routine", "record", "3f2a9c1e-0000-4000-8000-000000000000", "a.wav", "--locale", "qps"])
        #expect(r.status == 64)
        #expect(r.err.contains("--locale") && r.err.contains("\"qps\""), "\(r.err)")
        #expect(CommandTree.parser.node(at: ["routine", "record"])?.rules.contains(.required("--locale")) == true)
        #expect(throws: UsageError.missingArgument("--locale")) {
            try CommandTree.parser.parse(["routine", "record", "3f2a9c1e-0000-4000-8000-000000000000", "a.wav"])
        }
    }

    /// The same mistakes on a fresh data folder create nothing: no database, no journal.
    @Test func aRefusedLineCreatesNoDatabase() throws {
        let h = CLIHarness()
        for line in [["set", "create"], ["profile", "set"], ["schedule", "set", "--set", "x"], ["l10n", "format"],
                     ["l10n", "format", "--arg", "=1", "--template", "x"]] {
            #expect(h.run(line).status == 64, "\(line)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: h.directory.path).isEmpty, "\(line)")
        }
    }

    /// The message of a rule is said in Korean too.
    @Test func rulesAreSaidInKorean() {
        let h = CLIHarness()
        #expect(h.run(["haptics", "set"], locale: "ko").err.hasPrefix("steppie: 필요한 인자가 없어요: --audio-pulse | --rumble | --log\n"))
        #expect(h.run(["history", "--routine", "x"], locale: "ko").err.contains("steppie routines나 steppie sets가 보여 주는"))
    }
}
