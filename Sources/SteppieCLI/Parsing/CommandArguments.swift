import Foundation
import SteppieCore
import SteppieLocalization

// Values of the command tree whose shape the parser checks before any handler runs (the
// `ExpressibleByArgument` idea): a mistake in one is exit 64 with nothing opened or created.

/// A record's id as `steppie routines` and `steppie sets` print it (a UUID).
struct RecordId: ArgumentValue, Equatable {
    var id: UUID

    static func parse(argument text: String) -> Result<RecordId, ArgumentRefusal> {
        UUID(uuidString: text).map { .success(RecordId(id: $0)) } ?? .failure(.expected(key: "cli.expected.id"))
    }
}

/// `children set-icon`'s ICON: a builtin icon name (`steppie icons`), or `default` for the
/// picture Steppie chooses (siblings differ).
struct ChildIcon: ArgumentValue, Equatable {
    /// nil: the default.
    var name: String?

    static func parse(argument text: String) -> Result<ChildIcon, ArgumentRefusal> {
        if text == "default" { return .success(ChildIcon(name: nil)) }
        return BuiltinIcons.contains(text) ? .success(ChildIcon(name: text)) : .failure(.expected(key: "cli.expected.childIcon"))
    }
}

/// `--days`: `mon,tue,fri`, `weekdays`, `weekend` or `daily`.
struct WeekdayList: ArgumentValue, Equatable {
    var days: Set<Weekday>

    static func parse(argument text: String) -> Result<WeekdayList, ArgumentRefusal> {
        Weekday.parseList(text).map { .success(WeekdayList(days: $0)) } ?? .failure(.expected(key: "cli.schedule.daysExpected"))
    }
}

/// `schedule set --from`: a 24-hour time.
struct StartTime: ArgumentValue, Equatable {
    var time: LocalTime

    static func parse(argument text: String) -> Result<StartTime, ArgumentRefusal> {
        LocalTime(text).map { .success(StartTime(time: $0)) } ?? .failure(.expected(key: "cli.schedule.fromExpected"))
    }
}

/// `--arg NAME=VALUE`: a catalog argument's name (letters, digits, `_`) and its value.
struct NamedArgument: ArgumentValue, Equatable {
    var name: String
    var value: String

    static func parse(argument pair: String) -> Result<NamedArgument, ArgumentRefusal> {
        guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex, MessageTemplate.isValidName(String(pair[..<eq])) else {
            return .failure(.expected(key: "cli.expected.namedArgument"))
        }
        return .success(NamedArgument(name: String(pair[..<eq]), value: String(pair[pair.index(after: eq)...])))
    }
}
