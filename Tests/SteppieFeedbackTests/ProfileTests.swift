import Testing
import SteppieCore
@testable import SteppieFeedback

@Suite struct ProfileTests {
    @Test func presetsDecreaseStrongToOff() {
        let rows = FeedbackIntensity.allCases.map { FeedbackPreset.preset(for: $0) }
        #expect(rows.map(\.intensity) == [.strong, .normal, .quiet, .off])
        for (a, b) in zip(rows, rows.dropFirst()) {
            #expect(a.soundGain > b.soundGain)
            #expect(a.speechVolume > b.speechVolume)
        }
    }
}
