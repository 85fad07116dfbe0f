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
    public func process(_ input: [Float]) -> [Float] {
        guard from != to, from > 0, to > 0, !input.isEmpty else { return input }
        let ratio = Double(to) / Double(from)
        // Below 1 (downsampling) the cutoff moves down to the new Nyquist frequency.
        let cutoff = min(1.0, ratio) * 0.95
        let outCount = Int((Double(input.count) * ratio).rounded(.down))
        let reach = Double(halfWidth) / cutoff
        var output = [Float](repeating: 0, count: outCount)
        for n in 0..<outCount {
            let center = Double(n) / ratio
            let lo = max(0, Int((center - reach).rounded(.up)))
            let hi = min(input.count - 1, Int((center + reach).rounded(.down)))
            var acc = 0.0
            if lo <= hi {
                for k in lo...hi {
                    let x = Double(k) - center
                    let window = 0.5 + 0.5 * cos(Double.pi * x / reach)
                    acc += Double(input[k]) * cutoff * sinc(x * cutoff) * window
                }
            }
            output[n] = Float(acc)
        }
        return output
    }

    private func sinc(_ x: Double) -> Double {
        x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
    }
}
