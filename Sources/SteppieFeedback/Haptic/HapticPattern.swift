/// One haptic pulse, in the spirit of an Android waveform step or a Core Haptics event.
public struct HapticPulse: Hashable, Sendable, Codable {
    /// Seconds after the start of the pattern.
    public var start: Double
    /// Seconds.
    public var duration: Double
    /// 0…1.
    public var intensity: Double
    /// 0…1: soft (low, slow) to crisp (higher, quicker onset).
    public var sharpness: Double

    public init(start: Double, duration: Double, intensity: Double, sharpness: Double) {
        self.start = start; self.duration = duration
        self.intensity = min(1, max(0, intensity)); self.sharpness = min(1, max(0, sharpness))
    }
}

/// A haptic stand-in pattern: pulses sent to the audio, force-feedback and log outputs.
public struct HapticPattern: Hashable, Sendable, Codable {
    public var name: String
    public var pulses: [HapticPulse]

    public init(name: String, pulses: [HapticPulse]) {
        self.name = name; self.pulses = pulses
    }

    /// Seconds from the first pulse start to the last pulse end.
    public var duration: Double { pulses.map { $0.start + $0.duration }.max() ?? 0 }

    /// The strong preset: two short pulses, the second one softer.
    public static let medium = HapticPattern(name: "medium", pulses: [
        HapticPulse(start: 0, duration: 0.08, intensity: 0.7, sharpness: 0.5),
        HapticPulse(start: 0.14, duration: 0.07, intensity: 0.5, sharpness: 0.5),
    ])

    /// The normal preset: one light pulse.
    public static let light = HapticPattern(name: "light", pulses: [
        HapticPulse(start: 0, duration: 0.06, intensity: 0.4, sharpness: 0.3),
    ])
}
