import Foundation
import Testing
import SteppieCore
@testable import SteppieFeedback

/// Prints the measured loudness table of docs/feedback.md (and checks its order).
@Suite struct LoudnessReportTests {
    @Test func loudnessTable() throws {
        let engine = Fixture.engine()
        var lines = ["| intensity | whole cue RMS | whole cue peak | non-speech RMS | non-speech peak | length |",
                     "|---|---|---|---|---|---|"]
        var previous = Double.infinity
        for intensity in FeedbackIntensity.allCases {
            let feedback = Fixture.feedback(intensity)
            let cue = Cue.make(.completed, context: CueContext(routineTitle: "Brush teeth"), feedback: feedback)
            let r = try engine.renderToBuffer(cue, feedback: feedback, locale: "en")
            let all = AudioLevels(r.samples)
            let effects = AudioLevels(r.nonSpeech.map { Array(r.samples[$0]) } ?? [])
            #expect(all.rms < previous || all.rms == 0)
            previous = all.rms
            func db(_ x: Double) -> String { x > 0 ? String(format: "%.1f dBFS", 20 * log10(x)) : "silence" }
            lines.append("| \(intensity) | \(db(all.rms)) | \(db(all.peak)) | \(db(effects.rms)) | \(db(effects.peak)) | "
                         + String(format: "%.2f s |", r.duration))
        }
        print(lines.joined(separator: "\n"))
    }
}
