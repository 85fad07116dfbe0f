import Foundation
import SteppieCore
import SteppieStore

/// `steppie stats`: per routine and for the child, streaks, completed and eligible days, rate (StackDay rules).
enum StatsCommand {
    static func run(_ c: Context) throws -> Int32 {
        let store = try c.store()
        let child = try c.childIncludingArchived()
        let reference = c.today
        let histories = try store.routineHistories(childId: child.id, through: reference)
        let stats = ChildStatistics(routines: histories.map(\.tracked), reference: reference)
        if c.json {
            try c.printJSON(json(histories, stats, child: child, reference: reference, c))
            return 0
        }
        let rows = histories.map { h -> (String, RoutineStatistics) in
            (label(h, c), stats.perRoutine[h.tracked.id] ?? .empty)
        }
        let headers = ["routine", "current", "longest", "done", "eligible", "rate"].map { c.text("cli.stats.column.\($0)") }
        let titleWidth = max(TextWidth.of(headers[0]), rows.map { TextWidth.of($0.0) }.max() ?? 0)
        let widths = headers.dropFirst().map { max(TextWidth.of($0), 4) }
        func line(_ first: String, _ rest: [String]) -> String {
            var s = first + String(repeating: " ", count: titleWidth - TextWidth.of(first))
            for (value, width) in zip(rest, widths) {
                s += "  " + String(repeating: " ", count: max(0, width - TextWidth.of(value))) + value
            }
            return s.trimmingTrailing()
        }
        c.console.print(c.text("cli.stats.header", ["child": child.displayName, "date": reference.description]))
        c.console.print(line(headers[0], Array(headers.dropFirst())))
        for (title, s) in rows {
            c.console.print(line(title, [String(s.currentStreak), String(s.longestStreak), String(s.completedDays),
                                         String(s.eligibleDays), percent(s.completionRate)]))
        }
        let d = stats.days
        c.console.print(c.text("cli.stats.childDays", ["current": String(d.currentStreak), "longest": String(d.longestStreak),
                                                       "completed": String(d.completedDays), "eligible": String(d.eligibleDays),
                                                       "rate": percent(d.completionRate)]))
        c.console.print(c.text("cli.stats.routineDays", ["completed": String(stats.completedRoutineDays),
                                                         "eligible": String(stats.eligibleRoutineDays),
                                                         "rate": percent(stats.routineDayRate)]))
        return 0
    }

    /// The routine's title with markers for deleted, deactivated and other-set routines.
    private static func label(_ h: RoutineHistory, _ c: Context) -> String {
        var s = c.resolve(h.routine.title)
        if h.routine.deletedAt != nil { s += " " + c.text("cli.history.deleted") }
        else if !h.routine.isActive { s += " " + c.text("cli.routines.inactive") }
        if !h.inActiveSet { s += " " + c.text("cli.stats.otherSet") }
        return s
    }

    static func percent(_ rate: Double) -> String { "\(Int((rate * 100).rounded()))%" }

    private static func json(_ histories: [RoutineHistory], _ stats: ChildStatistics, child: Child,
                             reference: LocalDay, _ c: Context) -> StatsJSON {
        let routines = histories.map { h in
            StatsJSON.Routine(id: h.routine.id.lowercased, title: c.resolve(h.routine.title), deleted: h.routine.deletedAt != nil,
                              isActive: h.routine.isActive, inActiveSet: h.inActiveSet, countsForChild: h.tracked.countsForChild,
                              figures: .init(stats.perRoutine[h.tracked.id] ?? .empty, stats.perRoutineStreaks[h.tracked.id] ?? .none))
        }
        return StatsJSON(child: .init(id: child.id.lowercased, name: child.displayName), reference: reference.description,
                         routines: routines, days: .init(stats.days, stats.dayStreaks),
                         routineDays: .init(completed: stats.completedRoutineDays, eligible: stats.eligibleRoutineDays,
                                            rate: stats.routineDayRate))
    }

    /// `stats --json`.
    struct StatsJSON: Encodable {
        /// Each streak with its first and last day (null when the streak is 0).
        struct Figures: Encodable {
            let currentStreak: Int
            let longestStreak: Int
            let completedDays: Int
            let eligibleDays: Int
            let completionRate: Double
            @NullIfAbsent var currentStreakStart: String?
            @NullIfAbsent var currentStreakEnd: String?
            @NullIfAbsent var longestStreakStart: String?
            @NullIfAbsent var longestStreakEnd: String?

            init(_ s: RoutineStatistics, _ spans: StreakSpans) {
                currentStreak = s.currentStreak
                longestStreak = s.longestStreak
                completedDays = s.completedDays
                eligibleDays = s.eligibleDays
                completionRate = s.completionRate
                currentStreakStart = spans.current.map { $0.lowerBound.description }
                currentStreakEnd = spans.current.map { $0.upperBound.description }
                longestStreakStart = spans.longest.map { $0.lowerBound.description }
                longestStreakEnd = spans.longest.map { $0.upperBound.description }
            }
        }

        /// A routine's figures with its own keys beside them, in one object.
        struct Routine: Encodable {
            let id: String
            let title: String
            let deleted: Bool
            let isActive: Bool
            let inActiveSet: Bool
            let countsForChild: Bool
            let figures: Figures

            private enum Keys: String, CodingKey { case id, title, deleted, isActive, inActiveSet, countsForChild }

            func encode(to encoder: any Encoder) throws {
                try figures.encode(to: encoder)
                var c = encoder.container(keyedBy: Keys.self)
                try c.encode(id, forKey: .id)
                try c.encode(title, forKey: .title)
                try c.encode(deleted, forKey: .deleted)
                try c.encode(isActive, forKey: .isActive)
                try c.encode(inActiveSet, forKey: .inActiveSet)
                try c.encode(countsForChild, forKey: .countsForChild)
            }
        }

        struct RoutineDays: Encodable {
            let completed: Int
            let eligible: Int
            let rate: Double
        }

        let child: JSONDocuments.ChildRef
        let reference: String
        let routines: [Routine]
        let days: Figures
        let routineDays: RoutineDays
    }
}
