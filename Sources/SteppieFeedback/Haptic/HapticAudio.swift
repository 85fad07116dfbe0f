import Foundation

/// Renders a haptic pattern as a low-frequency audio pulse (40–60 Hz) for tactile transducers.
public enum HapticAudio {
    /// Peak level of a full-intensity pulse before the volume cap.
    public static let level: Float = 0.3
    /// Raised-cosine attack and release, so the pulse never clicks.
    public static let attack = 0.02
    public static let release = 0.02

    /// The pulse train of `pattern` at the engine rate, scaled by `gain`.
    public static func render(_ pattern: HapticPattern, gain: Double = 1) -> [Float] {
        var out: [Float] = []
        for pulse in pattern.pulses where pulse.duration > 0 && pulse.intensity > 0 {
            let frequency = 40 + 20 * pulse.sharpness
            let count = SampleFormat.samples(pulse.duration)
            let amplitude = Double(level) * pulse.intensity * gain
            var tone = [Float](repeating: 0, count: count)
            let rate = Double(SampleFormat.rate)
            for i in 0..<count {
                let t = Double(i) / rate
                var env = 1.0
                if t < attack { env = 0.5 - 0.5 * cos(Double.pi * t / attack) }
                let tail = pulse.duration - t
                if tail < release { env *= 0.5 - 0.5 * cos(Double.pi * max(0, tail) / release) }
                tone[i] = Float(amplitude * env * sin(2 * Double.pi * frequency * t))
            }
            SampleFormat.mix(tone, into: &out, at: SampleFormat.samples(pulse.start))
        }
        return out
    }
}
