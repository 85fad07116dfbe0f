import Testing
@testable import SteppieCLI

/// Which command lines start espeak-ng before they are parsed (issue 16).
@Suite struct PrewarmTests {
    @Test func onlyLinesThatSurelySpeakInThisProcess() {
        let warm: [[String]] = [
            ["say", "--out", "a.wav", "Hello"], ["say", "Hello", "--out", "a.wav"], ["say", "--out=a.wav", "Hi"],
            ["feedback", "preview", "--event", "completed", "--out", "p.wav"],
        ]
        let cold: [[String]] = [
            ["say", "Hello"],                              // a running service may speak it
            ["say", "--out", "a.wav", "--help"], ["say", "--print-spoken", "--out", "a.wav", "x"],
            ["feedback", "preview"], ["feedback", "tune", "--out", "x"], ["backup", "create", "--out", "b.zip"],
            ["--help"], [], ["today"], ["--locale", "en", "say", "--out", "a.wav", "x"],
        ]
        for line in warm { #expect(Prewarm.speaksInProcess(line), "\(line)") }
        for line in cold { #expect(!Prewarm.speaksInProcess(line), "\(line)") }
    }
}

/// The prewarm rule is C (it runs before `main`), so it is checked against the command tree: a
/// line warms espeak-ng exactly when its command writes speech to a `--out FILE.wav`. A command
/// renamed, added or given such an option without the rule following fails here.
@Suite struct PrewarmTreeTests {
    @Test func warmsExactlyTheCommandsThatWriteSpeechToAFile() {
        let leaves = CommandTreeTests.nodes().filter { $0.1.run != nil }
        #expect(leaves.count > 50)
        var warmed: [String] = []
        for (path, spec) in leaves {
            let writesSpeech = spec.options.contains { $0.name == "--out" && $0.valueName == "FILE.wav" }
            let line = path + ["--out", "a.wav", "x"]
            #expect(Prewarm.speaksInProcess(line) == writesSpeech, "\(path.joined(separator: " "))")
            #expect(!Prewarm.speaksInProcess(path + ["--help", "--out", "a.wav"]), "\(path)")
            if writesSpeech { warmed.append(path.joined(separator: " ")) }
        }
        #expect(warmed.sorted() == ["feedback preview", "say"])
    }
}
