import Foundation

/// Loudness figures of a buffer of float samples (full scale = 1.0).
public struct AudioLevels: Equatable, Sendable {
    public var rms: Double
    public var peak: Double

    /// Measures RMS and peak of `samples`.
    public init(_ samples: [Float]) {
        var sum = 0.0, peak = 0.0
        for s in samples {
            let d = Double(s)
            sum += d * d
            peak = max(peak, abs(d))
        }
        rms = samples.isEmpty ? 0 : (sum / Double(samples.count)).squareRoot()
        self.peak = peak
    }

    /// Measures 16-bit samples (full scale = 32768).
    public init(_ samples: [Int16]) {
        self.init(samples.map { Float($0) / 32768 })
    }

    /// RMS in dBFS (−inf for silence).
    public var rmsDBFS: Double { 20 * log10(rms) }
    /// Peak in dBFS (−inf for silence).
    public var peakDBFS: Double { 20 * log10(peak) }
}

/// Sample-format helpers shared by the mixer and the outputs.
public enum SampleFormat {
    /// The engine's one sample rate (espeak-ng's native rate).
    public static let rate = 22050

    /// Highest level any output may reach (−0.45 dBFS).
    public static let ceiling: Float = 0.95

    /// A soft limiter: linear below 0.7, then a tanh knee that never reaches `ceiling`.
    @inline(__always)
    public static func limit(_ x: Float) -> Float {
        let knee: Float = 0.7
        let a = abs(x)
        guard a > knee else { return x }
        let room = ceiling - knee
        let y = knee + room * Float(tanh(Double((a - knee) / room)))
        return x < 0 ? -y : y
    }

    /// Limits and converts float samples to 16-bit.
    public static func toInt16(_ samples: [Float]) -> [Int16] {
        samples.map { Int16((limit($0) * 32767).rounded()) }
    }

    /// Converts 16-bit samples to float, scaled by `gain`.
    public static func toFloat(_ samples: [Int16], gain: Float = 1) -> [Float] {
        samples.map { Float($0) / 32768 * gain }
    }

    /// Adds `source × gain` into `target` starting at `offset`, growing `target` as needed.
    public static func mix(_ source: [Float], into target: inout [Float], at offset: Int, gain: Float = 1) {
        let start = max(0, offset)
        if target.count < start + source.count {
            target.append(contentsOf: repeatElement(0, count: start + source.count - target.count))
        }
        for i in 0..<source.count { target[start + i] += source[i] * gain }
    }

    /// Seconds to a sample count at the engine rate.
    public static func samples(_ seconds: Double) -> Int { Int((seconds * Double(rate)).rounded()) }
}
