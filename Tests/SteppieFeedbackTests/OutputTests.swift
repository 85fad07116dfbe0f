import Foundation
import Testing
@testable import SteppieFeedback

@Suite struct OutputTests {
    @Test func wavOutputWritesTheWholeTimeline() throws {
        let path = NSTemporaryDirectory() + "steppie-out-\(UUID().uuidString).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = WAVOutput(path: path)
        let engine = Fixture.engine(output)
        let strong = Fixture.feedback(.strong)
        let cue = Cue.make(.completed, context: CueContext(routineTitle: "Brush teeth"), feedback: strong)
        try engine.play(cue, feedback: strong, locale: "en")
        try output.close()
        let rendered = try engine.renderToBuffer(cue, feedback: strong, locale: "en")
        let back = try SoundFile.read(path: path)
        #expect(abs(back.count - rendered.samples.count) <= 2)
        #expect(abs(AudioLevels(back).rms - AudioLevels(rendered.samples).rms) < 0.002)
    }

    @Test func nullOutputTimesEveryWriteAtOnce() throws {
        let output = NullOutput()
        let engine = Fixture.engine(output)
        let normal = Fixture.feedback(.normal)
        let report = try engine.play(Cue.make(.completed, context: CueContext(routineTitle: "Eat"), feedback: normal),
                                     feedback: normal, locale: "en")
        let (cue, speech) = engine.latencies(of: report)
        #expect(try #require(cue) < 0.05)
        #expect(try #require(speech) < 0.5)
        #expect(report.spokenText == "Well done! Eat is finished.")
        #expect(output.programs == 1)
    }

    @Test func silentCueTouchesNoOutput() throws {
        let output = NullOutput()
        let off = Fixture.feedback(.off)
        let report = try Fixture.engine(output).play(Cue.make(.completed, feedback: off), feedback: off, locale: "ko")
        #expect(report.program == nil && output.programs == 0)
    }

    @Test func factoryExplainsWhereTheWAVWent() throws {
        let choice = try OutputFactory.make(kind: nil, wavPath: "/tmp/steppie-x.wav",
                                            pulse: .init(server: "unix:/nonexistent/native"), log: { _ in })
        #expect(choice.output.kind == .wav)
        #expect(choice.note?.description.contains("/tmp/steppie-x.wav") == true)
        #expect(try OutputFactory.make(kind: .null, wavPath: "x.wav").output.kind == .null)
        #expect(throws: FeedbackError.self) {
            try OutputFactory.make(kind: .pulse, wavPath: "x.wav", pulse: .init(server: "unix:/nonexistent/native"))
        }
    }

    @Test func limiterNeverReachesFullScale() {
        for x in stride(from: -4.0, through: 4.0, by: 0.01) {
            let y = SampleFormat.limit(Float(x))
            #expect(abs(y) < SampleFormat.ceiling + 1e-6)
            if abs(x) <= 0.7 { #expect(abs(Double(y) - x) < 1e-6) }
        }
    }
}
