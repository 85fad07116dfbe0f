import Foundation
import SteppieCore

/// The settings feedback is actually played with: the intensity preset with the child's profile on top.
public struct EffectiveFeedback: Equatable, Sendable {
    public var intensity: FeedbackIntensity
    /// Speech is spoken at all.
    public var speech: Bool
    public var verbosity: SpeechVerbosity
    /// Final linear speech gain 0…1 (ttsVolume × preset factor × volume cap).
    public var speechVolume: Double
    /// Factor on espeak-ng's normal speed (ttsRate × preset factor), 0.45…1.5.
    public var speechRate: Double
    /// espeak-ng pitch 0…99.
    public var pitch: Int
    /// espeak-ng voice variant (`+variant`), nil for the language default.
    public var voiceVariant: String?
    public var soundStyle: SoundStyle
    /// Final linear sound-effect gain (preset gain × volume cap), 0 when sounds are off.
    public var soundGain: Double
    /// The haptic pattern, nil when haptics are off.
    public var haptic: HapticPattern?
    /// Linear gain of the audio haptic pulse (the volume cap).
    public var hapticGain: Double
    /// The child's volume cap 0…1, applied to every output level.
    public var volumeCap: Double

    /// Computes the effective settings of a child's profile (values out of range are clamped).
    public init(profile: FeedbackProfile) {
        let preset = FeedbackPreset.preset(for: profile.intensity)
        let cap = Self.clamp(profile.volumeCap, 0, 1)
        let ttsVolume = Self.clamp(profile.ttsVolume, 0, 1)
        let ttsRate = Self.clamp(profile.ttsRate, 0.5, 1.5)
        intensity = profile.intensity
        speech = preset.speech && profile.ttsEnabled
        verbosity = preset.verbosity
        speechVolume = speech ? ttsVolume * preset.speechVolume * cap : 0
        speechRate = ttsRate * preset.speechRate
        pitch = min(99, max(0, profile.pitch))
        let variant = profile.voiceVariant?.trimmingCharacters(in: .whitespaces) ?? ""
        voiceVariant = variant.isEmpty ? nil : variant
        let soundOn = profile.soundEnabled && preset.soundStyle != .none
        soundStyle = soundOn ? preset.soundStyle : .none
        soundGain = soundOn ? preset.soundGain * cap : 0
        haptic = profile.hapticEnabled ? preset.haptic.pattern : nil
        hapticGain = cap
        volumeCap = cap
    }

    private static func clamp(_ v: Double, _ lo: Double, _ hi: Double) -> Double {
        v.isFinite ? min(hi, max(lo, v)) : lo
    }
}
