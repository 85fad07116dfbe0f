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

    /// `2026-03-08T07:30:00.000+09:00` in `timeZone`'s offset at that instant.
    public func format(_ date: Date) -> String {
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
        var out = [UInt8]()
        out.reserveCapacity(29)
        func put(_ v: Int, _ width: Int) {
            var digits = [UInt8](repeating: 48, count: width)
            var x = v
            for i in stride(from: width - 1, through: 0, by: -1) { digits[i] = UInt8(48 + x % 10); x /= 10 }
            out.append(contentsOf: digits)
        }
        put(day.year, 4); out.append(45); put(day.month, 2); out.append(45); put(day.day, 2); out.append(84)
        put(secondOfDay / 3600, 2); out.append(58); put((secondOfDay % 3600) / 60, 2); out.append(58)
        put(secondOfDay % 60, 2); out.append(46); put(millis, 3)
        out.append(cachedOffset < 0 ? 45 : 43)
        put(offset / 3600, 2); out.append(58); put((offset % 3600) / 60, 2)
        return String(decoding: out, as: UTF8.self)
    }
}
