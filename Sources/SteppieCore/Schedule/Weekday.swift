import Foundation

/// A day of the week, numbered as ISO 8601 does (Monday = 1 … Sunday = 7, `LocalDay.isoWeekday`).
public enum Weekday: Int, CaseIterable, Comparable, Hashable, Sendable, Codable {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The three-letter code the command line and JSON use (`mon` … `sun`).
    public var code: String {
        switch self {
        case .monday: "mon"
        case .tuesday: "tue"
        case .wednesday: "wed"
        case .thursday: "thu"
        case .friday: "fri"
        case .saturday: "sat"
        case .sunday: "sun"
        }
    }

    /// The weekday of a local day.
    public init(_ day: LocalDay) {
        // isoWeekday is always 1…7.
        self = Weekday(rawValue: day.isoWeekday) ?? .monday
    }

    public init?(code: String) {
        guard let found = Weekday.allCases.first(where: { $0.code == code.lowercased() }) else { return nil }
        self = found
    }

    public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }

    /// Monday to Friday.
    public static let workdays: Set<Weekday> = [.monday, .tuesday, .wednesday, .thursday, .friday]
    /// Saturday and Sunday.
    public static let weekend: Set<Weekday> = [.saturday, .sunday]

    /// Parses a comma-separated list of codes (`mon,tue`), or `weekdays`, `weekend`, `daily`;
    /// nil when any item is unknown or the list is empty.
    public static func parseList(_ text: String) -> Set<Weekday>? {
        var days: Set<Weekday> = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let word = item.trimmingCharacters(in: .whitespaces).lowercased()
            switch word {
            case "weekdays": days.formUnion(workdays)
            case "weekend": days.formUnion(weekend)
            case "daily": days.formUnion(Weekday.allCases)
            default:
                guard let day = Weekday(code: word) else { return nil }
                days.insert(day)
            }
        }
        return days.isEmpty ? nil : days
    }

    /// The codes of `days` in week order, comma-separated (`mon,tue,fri`).
    public static func list(_ days: Set<Weekday>) -> String {
        days.sorted().map(\.code).joined(separator: ",")
    }
}
