import SteppieLocalization
import Foundation
import SteppieCore
@testable import SteppieFeedback

/// Shared fixtures: the repository's Sounds/, a small sentence table, profiles and audio measurements.
enum Fixture {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let sounds: SoundLibrary = {
        do { return try SoundLibrary(directory: root + "/Sounds") } catch {
            fatalError("Sounds/ missing: \(error)")
        }
    }()

    static let sentences: [String: [String: String]] = [
        "en": [
            "tts.completed": "Well done! {routineTitle} is finished.",
            "tts.completed.short": "Done.",
            "tts.announce": "Now it is time for {routineTitle}.",
            "tts.announce.short": "{routineTitle}.",
            "tts.next": "Next: {routineTitle}.",
            "tts.next.short": "{routineTitle}.",
            "tts.undone": "Let's do {routineTitle} again.",
            "tts.undone.short": "{routineTitle}.",
            "tts.allDone": "All routines are complete.",
            "tts.allDone.short": "All done.",
            "tts.reminder": "{routineTitle} in {minutes} minutes.",
            "tts.reminder.short": "{routineTitle} soon.",
            "tts.error": "Something went wrong. Please try again.",
            "tts.error.short": "Try again.",
        ],
        "ko": [
            "tts.completed": "잘했어요! {routineTitle}를 끝냈어요.",
            "tts.completed.short": "끝.",
            "tts.allDone": "오늘 할 일을 모두 끝냈어요.",
            "tts.announce": "이제 {routineTitle} 시간이에요.",
        ],
    ]

    static let render: SpeechRenderer = { key, values, locale in
        let args = values.written
        var text = sentences[locale]?[key] ?? sentences["en"]?[key] ?? key
        for (name, value) in args { text = text.replacingOccurrences(of: "{\(name)}", with: value) }
        return text
    }

    static func feedback(_ intensity: FeedbackIntensity, rate: Double = 1, volume: Double = 1) -> EffectiveFeedback {
        var p = FeedbackProfile()
        p.intensity = intensity
        p.ttsRate = rate
        p.ttsVolume = volume
        return EffectiveFeedback(profile: p)
    }

    static func engine(_ output: any AudioOutput = NullOutput(), log: @escaping @Sendable (FeedbackNotice) -> Void = { _ in })
        -> FeedbackEngine {
        FeedbackEngine(output: output, sounds: sounds, render: render, log: log)
    }

    static func seconds(_ samples: Int) -> Double { Double(samples) / Double(SampleFormat.rate) }

    /// First and last sample above `threshold`, as a range (nil for silence).
    static func audibleSpan(_ s: [Float], threshold: Float = 0.002) -> Range<Int>? {
        guard let first = s.firstIndex(where: { abs($0) > threshold }),
              let last = s.lastIndex(where: { abs($0) > threshold }) else { return nil }
        return first..<(last + 1)
    }

    /// Seconds of audible sound: 5 ms frames whose peak exceeds `threshold`. Unlike the span, it
    /// does not grow when a loaded machine makes the stream underrun and the sink fills the gap
    /// with silence; it shrinks when audio is lost.
    static func audibleDuration(_ s: [Float], threshold: Float = 0.002) -> Double {
        let frame = SampleFormat.samples(0.005)
        var frames = 0
        var i = 0
        while i < s.count {
            let end = min(s.count, i + frame)
            if s[i..<end].contains(where: { abs($0) > threshold }) { frames += 1 }
            i = end
        }
        return Double(frames) * 0.005
    }

    /// Milliseconds from the first audible sample to the first one reaching half the early peak.
    static func onsetRampMs(_ s: [Float]) -> Double? {
        guard let span = audibleSpan(s, threshold: 0.001) else { return nil }
        let window = s[span.lowerBound..<min(s.count, span.lowerBound + SampleFormat.samples(0.1))]
        let peak = window.map { abs($0) }.max() ?? 0
        guard let half = window.firstIndex(where: { abs($0) >= peak / 2 }) else { return nil }
        return Double(half - span.lowerBound) / Double(SampleFormat.rate) * 1000
    }
}
