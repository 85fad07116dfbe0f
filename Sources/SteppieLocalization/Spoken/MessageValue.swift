import SteppieCore

/// A typed argument of a catalog message: the written form goes on screen, the spoken form is what
/// the voice says (``SpokenForms``). Speech never has to guess from text what a number means.
public enum MessageValue: Sendable, Hashable {
    /// Text inserted as it is (a routine title, a name).
    case text(String)
    /// A count; in Korean the counter word after the placeholder decides how it is said (세 개, 오 분).
    case count(Int)
    /// A time of day.
    case time(LocalTime)
    /// A calendar date; `year` may be left out ("March eighth", "삼월 팔 일").
    case date(year: Int?, month: Int, day: Int)

    /// The form shown on screen and used by the written catalog rules (`07:30`, `3`, `2026-03-08`).
    public var written: String {
        switch self {
        case .text(let text): text
        case .count(let n): String(n)
        case .time(let time): time.description
        case .date(let year, let month, let day):
            (year.map { String($0) + "-" } ?? "") + Self.twoDigits(month) + "-" + Self.twoDigits(day)
        }
    }

    /// The value of an argument given as text: a count when it is an integer, a time for `HH:mm`,
    /// a date for `YYYY-MM-DD`; anything else stays text. Used where values arrive typed as text
    /// (`steppie l10n render --arg`, `l10n format`).
    public init(parsing text: String) {
        if let n = Int(text), text.first != "+" { self = .count(n); return }
        if let time = LocalTime(text) { self = .time(time); return }
        if let day = LocalDay(text) { self = .date(year: day.year, month: day.month, day: day.day); return }
        self = .text(text)
    }

    static func twoDigits(_ n: Int) -> String { (n < 10 ? "0" : "") + String(n) }
}

extension Dictionary where Key == String, Value == MessageValue {
    /// The written form of every value, for the written catalog rules (particles, plurals).
    public var written: [String: String] { mapValues(\.written) }
}
