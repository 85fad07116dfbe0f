import Foundation

/// A calendar date on the device's local calendar (`YYYY-MM-DD`), never an instant.
public struct LocalDay: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Creates a day, returning nil when the components do not name a real Gregorian date.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...LocalDay.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD`.
    public init?(_ text: String) {
        var text = text
        guard let day = text.withUTF8({ LocalDay(utf8: $0) }) else { return nil }
        self = day
    }

    /// Parses exactly `YYYY-MM-DD` from its UTF-8 bytes.
    public init?(utf8 u: UnsafeBufferPointer<UInt8>) {
        guard u.count == 10, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-") else { return nil }
        func number(_ from: Int, _ to: Int) -> Int? {
            var v = 0
            for i in from..<to {
                guard u[i] >= 48, u[i] <= 57 else { return nil }
                v = v * 10 + Int(u[i] - 48)
            }
            return v
        }
        guard let y = number(0, 4), let m = number(5, 7), let d = number(8, 10) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The local date of `instant` in `timeZone`.
    public init(_ instant: Date, in timeZone: TimeZone) {
        let c = LocalDay.calendar(timeZone).dateComponents([.year, .month, .day], from: instant)
        // Gregorian components of a real instant are always a valid date.
        self.year = c.year ?? 1970
        self.month = c.month ?? 1
        self.day = c.day ?? 1
    }

    public var description: String {
        String(unsafeUninitializedCapacity: 10) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            write(to: base)
            return 10
        }
    }

    /// Writes `YYYY-MM-DD` (10 bytes) at `out`; the year is taken modulo 10 000, as it is always
    /// 1…9999.
    public func write(to out: UnsafeMutablePointer<UInt8>) {
        Digits.write(year, width: 4, to: out)
        out[4] = UInt8(ascii: "-")
        Digits.write(month, width: 2, to: out + 5)
        out[7] = UInt8(ascii: "-")
        Digits.write(day, width: 2, to: out + 8)
    }

    public static func < (a: LocalDay, b: LocalDay) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// Days since 1970-01-01 (proleptic Gregorian), for arithmetic without time zones.
    public var dayNumber: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The day with the given day number (inverse of `dayNumber`).
    public init(dayNumber z0: Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.month = m
        self.day = d
    }

    public func adding(days: Int) -> LocalDay { LocalDay(dayNumber: dayNumber + days) }

    /// Whole days from `self` to `other` (positive when `other` is later).
    public func days(to other: LocalDay) -> Int { other.dayNumber - dayNumber }

    /// Monday = 1 … Sunday = 7 (ISO weekday).
    public var isoWeekday: Int { ((dayNumber % 7) + 7 + 3) % 7 + 1 }

    /// The first instant of this day in `timeZone` (DST-safe: a day may not start at 00:00).
    public func start(in timeZone: TimeZone) -> Date {
        let cal = LocalDay.calendar(timeZone)
        let comps = DateComponents(year: year, month: month, day: day)
        return cal.date(from: comps).map { cal.startOfDay(for: $0) } ?? Date(timeIntervalSince1970: 0)
    }

    /// The instant of `time` on this day in `timeZone`; a time skipped by DST moves forward.
    public func instant(at time: LocalTime, in timeZone: TimeZone) -> Date {
        let cal = LocalDay.calendar(timeZone)
        let comps = DateComponents(year: year, month: month, day: day, hour: time.hour, minute: time.minute)
        return cal.date(from: comps) ?? start(in: timeZone)
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func calendar(_ timeZone: TimeZone) -> Calendar {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        return cal
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let day = LocalDay(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "expected a date YYYY-MM-DD, got \(text)"))
        }
        self = day
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
