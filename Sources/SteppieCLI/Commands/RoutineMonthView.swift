import Foundation
import SteppieCore
import SteppieStore

/// `steppie history --routine ID [--month M]`: one routine's month as a calendar of marks.
enum RoutineMonthView {
    struct Day: Encodable {
        let date: String
        /// `completed`, `pending`, `missed`, `absent` (deleted then restored), or nil (not tracked or future).
        let state: String?
    }

    struct Month: Encodable {
        let child: String
        let routineId: String
        let title: String
        let month: String
        let days: [Day]
        let completedDays: Int
        let trackedDays: Int
    }

    static func mark(_ d: RoutineMonth.Day) -> String {
        if d.isAbsent { return "○" }
        switch d.state {
        case .completed?: return "✓"
        case .missed?: return "✗"
        case .pending?: return "·"
        case nil: return " "
        }
    }

    static func run(_ c: Context, store: Store, child: Child, routineId: UUID, month: YearMonth) throws -> Int32 {
        let (history, routineMonth) = try store.routineMonth(childId: child.id, routineId: routineId, month: month, reference: c.today)
        let title = c.resolve(history.routine.title)
        if c.json {
            try c.printEncodable(Month(child: child.displayName, routineId: routineId.lowercased, title: title, month: month.description,
                                       days: routineMonth.days.map { Day(date: $0.day.description,
                                                                         state: $0.isAbsent ? "absent" : $0.state?.rawValue) },
                                       completedDays: routineMonth.completedDays, trackedDays: routineMonth.trackedDays))
            return 0
        }
        var lines = [c.text("cli.history.routineMonth.header", ["title": title, "month": month.description, "child": child.displayName])]
        lines.append(MonthHeatmap.weekdays.map { day in
            let name = c.text("cli.history.weekday.\(day)")
            return String(repeating: " ", count: max(0, 3 - TextWidth.of(name))) + name + " "
        }.joined().trimmingTrailing())
        var row = String(repeating: "    ", count: (routineMonth.days.first?.day.isoWeekday ?? 1) - 1)
        for d in routineMonth.days {
            row += (d.day.day < 10 ? "  \(d.day.day)" : " \(d.day.day)") + mark(d)
            if d.day.isoWeekday == 7 {
                lines.append(row.trimmingTrailing())
                row = ""
            }
        }
        if !row.isEmpty { lines.append(row.trimmingTrailing()) }
        lines.append("")
        lines.append(c.text("cli.history.routineMonth.legend"))
        lines.append(c.text("cli.history.routineMonth.summary", ["completed": String(routineMonth.completedDays),
                                                                  "count": String(routineMonth.trackedDays)]))
        c.console.write(lines.joined(separator: "\n") + "\n")
        return 0
    }
}
