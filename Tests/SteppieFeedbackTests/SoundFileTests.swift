import Foundation
import SteppieTestSupport
import Testing
@testable import SteppieFeedback

@Suite struct SoundFileTests {
    func tempPath(_ name: String) -> String {
        NSTemporaryDirectory() + "steppie-\(UUID().uuidString)-\(name)"
    }

    /// Zero crossings per second / 2 ≈ frequency of a pure tone.
    func frequency(_ s: [Float]) -> Double {
        var crossings = 0
        for i in 1..<s.count where (s[i - 1] < 0) != (s[i] < 0) { crossings += 1 }
        return Double(crossings) / 2 / Fixture.seconds(s.count)
    }

    @Test func stereo44kFileIsConvertedToEngineFormat() throws {
        let path = tempPath("tone.wav")
        defer { try? FileManager.default.removeItem(atPath: path) }
        // 1 s of 440 Hz at 44.1 kHz stereo, amplitude 0.5 (sox makes it independently of our code).
        let sox = Process()
        sox.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
        sox.arguments = ["-n", "-r", "44100", "-c", "2", "-b", "16", path, "synth", "1", "sine", "440", "vol", "0.5"]
        try sox.run()
        sox.waitUntilExit()
        try #require(sox.terminationStatus == 0)
        let samples = try SoundFile.read(path: path)
        #expect(abs(samples.count - 22050) <= 2)
        #expect(abs(frequency(samples) - 440) < 3)
        let inner = Array(samples[1000..<21000])
        #expect(abs(AudioLevels(inner).peak - 0.5) < 0.02)
        #expect(abs(AudioLevels(inner).rms - 0.5 / 2.0.squareRoot()) < 0.01)
    }

    @Test func writeAndReadBackAtEngineRate() throws {
        let path = tempPath("back.wav")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tone = (0..<4410).map { Int16(8000 * sin(2 * Double.pi * 1000 * Double($0) / 22050)) }
        try SoundFile.writeWAV(tone, to: path)
        let back = try SoundFile.read(path: path)
        #expect(back.count == tone.count)
        #expect(zip(back, tone).allSatisfy { abs($0 * 32768 - Float($1)) < 1.5 })
    }

    @Test func resamplerKeepsLengthAndTone() {
        let input = (0..<48000).map { Float(sin(2 * Double.pi * 300 * Double($0) / 48000)) }
        let out = Resampler(from: 48000, to: 22050).process(input)
        #expect(out.count == 22050)
        #expect(abs(frequency(out) - 300) < 2)
        let up = Resampler(from: 11025, to: 22050).process(Array(input.prefix(11025)))
        #expect(up.count == 22050)
    }

    @Test func missingFilesAreClearErrors() {
        #expect(throws: FeedbackError.self) { try SoundFile.read(path: "/nonexistent/x.wav") }
        #expect(throws: FeedbackError.missingSound(name: "chime-double", directory: "/nonexistent")) {
            try SoundLibrary(directory: "/nonexistent")
        }
    }
}
