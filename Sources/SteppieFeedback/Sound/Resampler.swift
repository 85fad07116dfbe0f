import Foundation

/// A windowed-sinc resampler (Hann window), good enough for short effects and exact for equal rates.
public struct Resampler: Sendable {
    public let from: Int
    public let to: Int
    /// Zero crossings on each side of the kernel.
    public let halfWidth: Int

    public init(from: Int, to: Int, halfWidth: Int = 16) {
        self.from = from; self.to = to; self.halfWidth = halfWidth
    }

    /// Resamples mono `input` from `from` Hz to `to` Hz.
    ///
    /// Output sample `n` sits at input position `n·from/to`; its fractional part takes only
    /// `to/gcd(from, to)` values, so the kernel weights are computed once per phase and reused
    /// (sounds load at start, on the way to the first press).
    public func process(_ input: [Float]) -> [Float] {
        guard from != to, from > 0, to > 0, !input.isEmpty else { return input }
        let ratio = Double(to) / Double(from)
        // Below 1 (downsampling) the cutoff moves down to the new Nyquist frequency.
        let cutoff = min(1.0, ratio) * 0.95
        let outCount = Int((Double(input.count) * ratio).rounded(.down))
        let reach = Double(halfWidth) / cutoff
        let taps = Int(reach.rounded(.up))
        var kernels: [Int: [Double]] = [:]
        let cacheable = to / gcd(from, to) <= 4096
        var output = [Float](repeating: 0, count: outCount)
        for n in 0..<outCount {
            let whole = n * from / to
            let phaseKey = n * from % to
            let frac = Double(phaseKey) / Double(to)
            // Weights for offsets -taps...taps around `whole`, at distance (k - whole) - frac.
            let weights: [Double]
            if cacheable, let cached = kernels[phaseKey] {
                weights = cached
            } else {
                weights = (-taps...taps).map { offset in
                    let x = Double(offset) - frac
                    guard abs(x) <= reach else { return 0 }
                    let window = 0.5 + 0.5 * cos(Double.pi * x / reach)
                    return cutoff * sinc(x * cutoff) * window
                }
                if cacheable { kernels[phaseKey] = weights }
            }
            var acc = 0.0
            let lo = max(0, whole - taps), hi = min(input.count - 1, whole + taps)
            if lo <= hi {
                for k in lo...hi { acc += Double(input[k]) * weights[k - whole + taps] }
            }
            output[n] = Float(acc)
        }
        return output
    }

    private func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    private func sinc(_ x: Double) -> Double {
        x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
    }
}
