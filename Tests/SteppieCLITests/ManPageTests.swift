import Foundation
import Testing
import SteppieLocalization
@testable import SteppieCLI

/// `steppie(1)` is written from the command tree and the catalogs (`steppie __man`, shipped by the
/// Debian package): every command and option is on it, catalog text cannot become a roff request,
/// and groff renders it without a warning in both languages.
@Suite struct ManPageTests {
    static let macros: Set<String> = [".TH", ".SH", ".SS", ".PP", ".TP", ".B", ".I", ".br", ".\\\""]

    static func page(_ locale: String) throws -> String {
        ManPage.render(text: try LanguageTests.messages(locale), date: "2026-12-03")
    }

    /// Every path of the tree (leaves and groups) has its subsection, with each of its options and
    /// arguments, in English and Korean.
    @Test(arguments: ["en", "ko"]) func everyCommandAndOptionIsOnThePage(locale: String) throws {
        let page = try Self.page(locale)
        let sections = page.components(separatedBy: "\n.SS ").dropFirst()
        var byPath: [String: String] = [:]
        for section in sections {
            let title = String(section.prefix { $0 != "\n" })
            byPath[title] = section
        }
        let paths = ManPage.commands()
        #expect(paths.count > 60)
        var leaves = 0
        for (path, node) in paths {
            let title = ManPage.quoted((["steppie"] + path).joined(separator: " "))
            let section = try #require(byPath[title], "no section \(title)")
            if node.subcommands.isEmpty { leaves += 1 }
            for option in node.options {
                #expect(section.contains("\\fB" + ManPage.escape(option.name) + "\\fR"), "\(title) lacks \(option.name)")
            }
            for positional in node.positionals {
                #expect(section.contains(ManPage.escape(positional.name)), "\(title) lacks \(positional.name)")
            }
            for sub in node.subcommands {
                #expect(section.contains("\\fB" + ManPage.escape(sub.name) + "\\fR"), "\(title) lacks \(sub.name)")
            }
        }
        #expect(byPath.count == paths.count)
        #expect(leaves > 50)
        for name in ["init", "child", "serve", "routine", "guardian", "backup"] {
            #expect(byPath[ManPage.quoted("steppie " + name)] != nil, "\(name)")
        }
        for global in CommandTree.globals { #expect(page.contains("\\fB" + ManPage.escape(global.name) + "\\fR")) }
    }

    /// Only the generator's own macros start a line: catalog text that starts with `.` or `'`
    /// (a request to groff) is kept as text, and a backslash cannot start an escape.
    @Test func catalogTextCannotBecomeARequest() throws {
        #expect(ManPage.escape(".so /etc/passwd") == "\\&.so /etc/passwd")
        #expect(ManPage.escape("a\n'bp\n.ex") == "a\n\\&'bp\n\\&.ex")
        #expect(ManPage.escape("C:\\fB x") == "C:\\efB x")
        #expect(ManPage.escape("--db") == "\\-\\-db")
        #expect(ManPage.escape("스테피 …") == "\\[uC2A4]\\[uD14C]\\[uD53C] \\[u2026]")
        #expect(ManPage.quoted("say \"hi\"") == "\"say \\(dqhi\\(dq\"")

        let hostile = Messages(locale: "en") { key, _ in ".so /etc/passwd\n'\\\" hidden \\fB\(key)" }
        for locale in ["en", "ko"] {
            let pages = [ManPage.render(text: hostile, date: "2026-12-03"),
                         ManPage.render(text: Messages(locale: locale) { k, a in hostile(k, a) }, date: "2026-12-03"),
                         try Self.page(locale)]
            for page in pages {
                for line in page.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
                    let macro = String(line.prefix { $0 != " " })
                    #expect(Self.macros.contains(macro), "\(line)")
                }
                #expect(!page.contains("\\fB.so"))
                #expect(!page.contains("\n.so"))
            }
        }
    }

    /// The English page is ASCII; the Korean one is UTF-8 with the coding line, its NAME line in Korean.
    @Test func encodings() throws {
        let en = try Self.page("en"), ko = try Self.page("ko")
        let ascii = en.unicodeScalars.allSatisfy { $0.isASCII }
        #expect(ascii)
        #expect(en.contains("\n.SH \"NAME\"\nsteppie \\- Steppie: "))
        #expect(ko.hasPrefix(".\\\" -*- coding: UTF-8 -*-\n"))
        #expect(ko.contains("\n.SH \"이름\"\nsteppie \\- 스테피: "))
        #expect(!ko.contains("\\[u"))
        #expect(en.contains(".TH STEPPIE 1 \"2026-12-03\" \"steppie \(SteppieVersion.current)\""))
    }

    /// groff renders both pages with every warning on and says nothing (as `man -l` and lintian do).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "groff is not installed"),
          arguments: ["en", "ko"])
    func groffRendersWithoutWarnings(locale: String) throws {
        let h = BinaryHarness()
        try Self.page(locale).write(toFile: h.directory + "/steppie.1", atomically: true, encoding: .utf8)
        let r = h.sh("groff -k -man -Tutf8 -ww -z steppie.1 && groff -k -man -Tutf8 -P-cbou steppie.1 | head -c 100000")
        #expect(r.status == 0 && r.err.isEmpty, "\(r.err)")
        #expect(r.out.contains(locale == "en" ? "SYNOPSIS" : "사용법"))
        if locale == "en" {
            // ASCII: plain groff, without the preconv step, too.
            let plain = h.sh("groff -man -Tutf8 -ww -z steppie.1")
            #expect(plain.status == 0 && plain.err.isEmpty, "\(plain.err)")
        }
    }

    /// The hidden commands: `__man` and `__version` run, help lists neither, a wrong option is a usage error.
    @Test func hiddenCommands() {
        let h = CLIHarness()
        let man = h.run(["__man", "--date", "2026-01-02"])
        #expect(man.status == 0 && man.out.hasPrefix(".\\\" Generated"), "\(man.err)")
        #expect(man.out.contains(".TH STEPPIE 1 \"2026-01-02\""))
        #expect(h.run(["__man", "--locale", "ko", "--prefix", "/opt/x"]).out.contains("/opt/x/share/steppie/"))
        #expect(h.run(["__version"]).out == SteppieVersion.current + "\n")
        #expect(h.run(["__man", "--date", "yesterday"]).status == 64)
        #expect(h.run(["__man", "--bogus"]).status == 64)
        #expect(h.run(["__version", "--date", "2026-01-02"]).status == 64)
        let help = h.run(["--help"])
        #expect(help.status == 0 && !help.out.contains("__man") && !help.out.contains("__version"))
    }
}
