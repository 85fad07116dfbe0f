/// Fixed-width decimal digits written as bytes, for text formats written millions of times
/// (dates and timestamps of a backup).
public enum Digits {
    /// Writes the last `width` decimal digits of `value` (≥ 0), zero-padded, at `out`.
    @inline(__always)
    public static func write(_ value: Int, width: Int, to out: UnsafeMutablePointer<UInt8>) {
        var x = value
        var i = width - 1
        while i >= 0 {
            out[i] = UInt8(truncatingIfNeeded: 48 + x % 10)
            x /= 10
            i -= 1
        }
    }
}
