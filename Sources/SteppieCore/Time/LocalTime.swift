import Foundation

/// A local wall-clock time `HH:mm` in 24-hour form.
public struct LocalTime: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    public let hour: Int
    public let minute: Int

    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// The local wall-clock time of `instant` in `timeZone` (its offset at that instant).
    public init(_ instant: Date, in timeZone: TimeZone) {
        let local = instant.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: instant))
        let minutes = (Int((local / 60).rounded(.down)) % 1440 + 1440) % 1440
        self.hour = minutes / 60
        self.minute = minutes % 60
    }

    /// Parses exactly `HH:mm` (two digits each).
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let h = Int(parts[0]), let m = Int(parts[1]) else { return nil }
        self.init(hour: h, minute: m)
    }

    public var minutesSinceMidnight: Int { hour * 60 + minute }

    public var description: String {
        (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }

    public static func < (a: LocalTime, b: LocalTime) -> Bool {
        a.minutesSinceMidnight < b.minutesSinceMidnight
    }

    /// True when `self` falls inside the window [start, end), which may wrap past midnight.
    public func isInside(from start: LocalTime, to end: LocalTime) -> Bool {
        if start == end { return false }
        if start < end { return self >= start && self < end }
        return self >= start || self < end
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let t = LocalTime(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "expected a time HH:mm, got \(text)"))
        }
        self = t
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
