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
