import Testing
@testable import SteppieCLI

@Suite struct ParserTests {
    let parser = CommandTree.parser

    @Test func globalOptionsWorkBeforeAndAfterTheSubcommand() throws {
        let a = try parser.parse(["--db", "x.db", "today", "--child", "Mina", "--json"])
        let b = try parser.parse(["today", "--json", "--child=Mina", "--db=x.db"])
        #expect(a == b)
        #expect(a.path == ["today"] && a.value("--db") == "x.db" && a.value("--child") == "Mina" && a.flag("--json"))
        let c = try parser.parse(["children", "--locale", "en", "add", "Jun Ho"])
        #expect(c.path == ["children", "add"] && c.argument("NAME") == "Jun Ho" && c.value("--locale") == "en")
    }

    @Test func helpIsAvailableEverywhere() throws {
        #expect(try parser.parse(["children", "add", "--help"]).wantsHelp)
        #expect(try parser.parse(["-h"]).wantsHelp)
        #expect(try parser.parse([]).wantsHelp)
    }

    static let usageCases: [([String], UsageError)] = [
        (["bogus"], .unknownCommand("bogus", path: [])),
        (["children", "adopt"], .unknownCommand("adopt", path: ["children"])),
        (["children"], .missingCommand(path: ["children"])),
        (["today", "--kid", "Mina"], .unknownOption("--kid", path: ["today"])),
        (["today", "--child"], .missingValue(option: "--child")),
        (["today", "--child", "--json"], .missingValue(option: "--child")),
        (["--locale", "fr", "today"], .invalidChoice(option: "--locale", value: "fr", choices: ["ko", "en", "qps"])),
        (["init", "--template", "evening"], .invalidChoice(option: "--template", value: "evening", choices: ["morning", "school", "bedtime"])),
        (["today", "extra"], .unexpectedArgument("extra")),
        (["children", "add"], .missingArgument("NAME")),
        (["today", "--child", "A", "--child", "B"], .repeatedOption("--child")),
        (["--db"], .missingValue(option: "--db")),
    ]

    @Test(arguments: usageCases.indices)
    func usageMistakesNameTheBadArgument(_ i: Int) {
        let (args, expected) = Self.usageCases[i]
        #expect(throws: expected) { try parser.parse(args) }
    }

    @Test func doubleDashEndsOptions() throws {
        let inv = try parser.parse(["children", "add", "--", "--weird name"])
        #expect(inv.argument("NAME") == "--weird name")
    }

    @Test func everyCommandOfTheTreeHasAHandlerAndHelpText() throws {
        func leaves(_ node: CommandSpec, _ path: [String]) -> [[String]] {
            node.subcommands.isEmpty ? [path] : node.subcommands.flatMap { leaves($0, path + [$0.name]) }
        }
        let h = CLIHarness()
        for path in leaves(CommandTree.root, []) {
            #expect(CommandTree.parser.node(at: path)?.run != nil, "\(path)")
            let help = h.run(path + ["--help"])
            #expect(help.status == 0)
            #expect(!help.out.contains("⟦"), "missing catalog text in help of \(path): \(help.out)")
        }
        for locale in ["ko", "en"] {
            #expect(!h.run(["--help"], locale: locale).out.contains("⟦"))
        }
    }
}
