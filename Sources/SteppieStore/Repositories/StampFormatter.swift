import Foundation
import SteppieCore

/// Formats instants exactly like `Timestamp.format`, without a `Calendar` per call: fast enough
/// for the millions of timestamps of a full backup or restore. Not `Sendable`: it caches offsets.
public final class StampFormatter {
    public let timeZone: TimeZone
    // The zone's offset is looked up once per quarter hour of UTC time (every transition of the
    // tz database falls on one), not once per value.
    private var cachedQuarter = Int.min
    private var cachedOffset = 0

    public init(timeZone: TimeZone) { self.timeZone = timeZone }

    /// The length of every stamp this formatter writes.
    public static let length = 29

    /// `2026-03-08T07:30:00.000+09:00` in `timeZone`'s offset at that instant.
    public func format(_ date: Date) -> String {
        String(unsafeUninitializedCapacity: Self.length) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            write(date, to: base)
            return Self.length
        }
    }

    /// Writes `format(date)` (29 bytes) at `out`, without building a string.
    public func write(_ date: Date, to out: UnsafeMutablePointer<UInt8>) {
        let t = date.timeIntervalSince1970
        let quarter = Int((t / 900).rounded(.down))
        if quarter != cachedQuarter {
            cachedQuarter = quarter
            cachedOffset = timeZone.secondsFromGMT(for: date)
        }
        let local = t + Double(cachedOffset)
        let seconds = Int(local.rounded(.down))
        // Like `Timestamp.format`: rounded to the millisecond, never carried into the next second.
        let millis = min(999, Int(((local - Double(seconds)) * 1000).rounded()))
        let day = LocalDay(dayNumber: Int((Double(seconds) / 86400).rounded(.down)))
        let secondOfDay = seconds - day.dayNumber * 86400
        let offset = abs(cachedOffset)
        day.write(to: out)
        out[10] = UInt8(ascii: "T")
        Digits.write(secondOfDay / 3600, width: 2, to: out + 11)
        out[13] = UInt8(ascii: ":")
        Digits.write((secondOfDay % 3600) / 60, width: 2, to: out + 14)
        out[16] = UInt8(ascii: ":")
        Digits.write(secondOfDay % 60, width: 2, to: out + 17)
        out[19] = UInt8(ascii: ".")
        Digits.write(millis, width: 3, to: out + 20)
        out[23] = cachedOffset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
        Digits.write(offset / 3600, width: 2, to: out + 24)
        out[26] = UInt8(ascii: ":")
        Digits.write((offset % 3600) / 60, width: 2, to: out + 27)
    }
}
