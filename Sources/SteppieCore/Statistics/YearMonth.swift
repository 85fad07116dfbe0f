/// A calendar month `YYYY-MM` on the device's local calendar.
public struct YearMonth: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    public let year: Int
    public let month: Int

    /// Creates a month, nil unless `year` is 1…9999 and `month` 1…12.
    public init?(year: Int, month: Int) {
        guard (1...9999).contains(year), (1...12).contains(month) else { return nil }
        self.year = year
        self.month = month
    }

    /// The month containing `day`.
    public init(_ day: LocalDay) {
        year = day.year
        month = day.month
    }

    /// Parses exactly `YYYY-MM`.
    public init?(_ text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 7, utf8[4] == UInt8(ascii: "-"),
              utf8.enumerated().allSatisfy({ $0.offset == 4 || ($0.element >= 48 && $0.element <= 57) }),
              let y = Int(text.prefix(4)), let m = Int(text.suffix(2)) else { return nil }
        self.init(year: y, month: m)
    }

    /// The first day of the month.
    public var firstDay: LocalDay {
        // Day 1 of a validated month always exists; the fallback is unreachable.
        LocalDay(year: year, month: month, day: 1) ?? LocalDay(dayNumber: 0)
    }

    /// The last day of the month.
    public var lastDay: LocalDay { firstDay.adding(days: LocalDay.daysIn(month: month, year: year) - 1) }

    /// Every day of the month, in order.
    public var days: [LocalDay] {
        let first = firstDay.dayNumber
        return (first...lastDay.dayNumber).map(LocalDay.init(dayNumber:))
    }

    public var description: String {
        String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year) + "-" + (month < 10 ? "0" : "") + String(month)
    }

    public static func < (a: YearMonth, b: YearMonth) -> Bool { (a.year, a.month) < (b.year, b.month) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = YearMonth(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected a month YYYY-MM, got \(text)"))
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
