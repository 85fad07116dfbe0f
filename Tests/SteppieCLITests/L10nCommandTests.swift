import Foundation
import Testing
@testable import SteppieCLI

@Suite struct L10nCommandTests {
    @Test func checkPassesOnTheRepositoryCatalogs() {
        let r = CLIHarness().run(["l10n", "check"])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains("no problems"))
    }

    @Test func checkReportsPlantedProblemsWithExit1() throws {
        let h = CLIHarness()
        let copy = h.directory.appendingPathComponent("Localization")
        try FileManager.default.copyItem(at: CLIHarness.repository.appendingPathComponent("Localization"), to: copy)
        func edit(_ locale: String, _ file: String, _ change: (inout [String: Any]) -> Void) throws {
            let url = copy.appendingPathComponent(locale).appendingPathComponent(file)
            var obj = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            change(&obj)
            try JSONSerialization.data(withJSONObject: obj).write(to: url)
        }
        try edit("en", "tts.json") { $0["tts.allDone"] = nil }                                   // missing key
        try edit("en", "tts.json") { $0["tts.completed"] = "{title} done." }                   // placeholder mismatch
        try edit("ko", "child.json") { $0["child.complete.button"] = "" }                      // empty value
        let r = h.run(["l10n", "check", "--dir", copy.path])
        #expect(r.status == 1)
        #expect(r.out.contains("tts.allDone") && r.out.contains("en"), "\(r.out)")
        #expect(r.out.contains("tts.completed"), "\(r.out)")
        #expect(r.out.contains("child.complete.button"), "\(r.out)")
        #expect(r.out.hasSuffix("3 problems.\n"), "\(r.out)")
    }

    @Test(arguments: [
        ("{t|을를} 했어요", "책", "책을 했어요"), ("{t|을를} 했어요", "양치하기", "양치하기를 했어요"),
        ("{t|으로로}", "물", "물로"), ("{t|으로로}", "집", "집으로"), ("{t|을를}", "3", "3을"), ("{t|을를}", "2", "2를"),
    ])
    func formatAppliesParticles(_ template: String, _ value: String, _ expected: String) {
        let r = CLIHarness().run(["l10n", "format", "--template", template, "--arg", "t=\(value)"], locale: "ko")
        #expect(r.status == 0)
        #expect(r.out == expected + "\n")
    }

    @Test func formatAndShowReportMistakes() {
        let h = CLIHarness()
        #expect(h.run(["l10n", "format"]).status == 64)
        #expect(h.run(["l10n", "format", "tts.completed", "--template", "x"]).status == 64)
        #expect(h.run(["l10n", "format", "--template", "x", "--arg", "novalue"]).status == 64)
        #expect(h.run(["l10n", "format", "--template", "{broken"]).status == 64)
        let missing = h.run(["l10n", "show", "no.such.key"])
        #expect(missing.status == 1 && missing.err.contains("no.such.key"))
        #expect(h.run(["l10n", "format", "child.remaining", "--arg", "count=1"]).out == "1 activity left\n")
        #expect(h.run(["l10n", "show", "tts.allDone"]).out == "en\tAll routines are complete.\nko\t오늘 할 일을 모두 끝냈어요.\n")
    }
}
