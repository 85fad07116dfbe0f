import SteppieCore

/// How much of a sentence is spoken.
public enum SpeechVerbosity: String, Sendable, Codable, CaseIterable {
    /// The full sentence (`tts.completed`).
    case full
    /// The short phrase (`tts.completed.short`).
    case short
}

/// Which family of sound effects an intensity uses.
public enum SoundStyle: String, Sendable, Codable, CaseIterable {
    /// Full effects: the two-note chime, the all-done melody.
    case full
    /// One gentle chime per event.
    case single
    /// A soft tick only.
    case soft
    /// No sound at all.
    case none
}

/// Which haptic stand-in pattern an intensity uses.
public enum HapticPreset: String, Sendable, Codable, CaseIterable {
    case medium, light, none

    /// The pattern of this preset, or nil for `none`.
    public var pattern: HapticPattern? {
        switch self {
        case .medium: HapticPattern.medium
        case .light: HapticPattern.light
        case .none: nil
        }
    }
}

/// One row of the intensity table: what an intensity does on every channel before the child's own settings.
public struct FeedbackPreset: Equatable, Sendable {
    public var intensity: FeedbackIntensity
    public var speech: Bool
    public var verbosity: SpeechVerbosity
    /// Factor on the child's ttsVolume.
    public var speechVolume: Double
    /// Factor on the child's ttsRate.
    public var speechRate: Double
    public var soundStyle: SoundStyle
    /// Linear gain of the sound effect.
    public var soundGain: Double
    public var haptic: HapticPreset

    /// The intensity table (SPEC §4), the single source of these numbers; `docs/feedback.md` mirrors it.
    public static let table: [FeedbackPreset] = [
        FeedbackPreset(intensity: .strong, speech: true, verbosity: .full, speechVolume: 1.0, speechRate: 1.0,
                       soundStyle: .full, soundGain: 1.0, haptic: .medium),
        FeedbackPreset(intensity: .normal, speech: true, verbosity: .full, speechVolume: 0.8, speechRate: 1.0,
                       soundStyle: .single, soundGain: 0.7, haptic: .light),
        FeedbackPreset(intensity: .quiet, speech: true, verbosity: .short, speechVolume: 0.55, speechRate: 0.9,
                       soundStyle: .soft, soundGain: 0.35, haptic: .none),
        FeedbackPreset(intensity: .off, speech: false, verbosity: .short, speechVolume: 0, speechRate: 1.0,
                       soundStyle: .none, soundGain: 0, haptic: .none),
    ]

    /// The table row of `intensity`.
    public static func preset(for intensity: FeedbackIntensity) -> FeedbackPreset {
        table.first { $0.intensity == intensity } ?? table[table.count - 1]
    }
}
