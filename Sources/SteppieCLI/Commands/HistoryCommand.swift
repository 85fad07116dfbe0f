import Foundation
import SteppieCore
import SteppieStore

/// `steppie history [--date D | --month M]`: what a child did on a day, or a month as a heatmap.
enum HistoryCommand {
    static func run(_ c: Context) throws -> Int32 {
        let inv = c.invocation
        if inv.value("--date") != nil, inv.value("--month") != nil { throw UsageError.conflictingOptions("--date", "--month") }
        let store = try c.store()
        let child = try c.child()
        if let raw = inv.value("--month") {
            guard let month = YearMonth(raw) else {
                throw ContractViolation(field: "month", value: Validator.printable(raw), allowed: "a month YYYY-MM")
            }
            let calendar = try store.monthCalendar(childId: child.id, month: month, reference: c.today)
            if c.json {
                try c.printJSON(["child": child.displayName, "month": raw, "days": calendar.days.map { d -> [String: Any] in
                    ["date": d.day.description, "completed": d.completed, "total": d.total,
                     "state": d.outcome.map { "\($0)" } ?? NSNull()]
                }])
                return 0
            }
            let color = c.env.variables["NO_COLOR"].map(\.isEmpty) ?? true
            c.console.write(MonthHeatmap(calendar: calendar, text: c.text, color: color).render(child: child.displayName))
            return 0
        }
        let day = try inv.value("--date").map { try Validator.parseDay($0, field: "date") } ?? c.today
        let done = try store.history(childId: child.id, from: day, through: day).filter { $0.log?.status == .completed }
        if c.json {
            try c.printJSON(["child": child.displayName, "date": day.description, "completed": done.map { item -> [String: Any] in
                ["routineId": item.routine.id.lowercased, "title": item.routine.title.values, "deleted": item.routine.deletedAt != nil,
                 "completedAt": item.log?.completedAt.map { Timestamp.format($0, in: c.env.timeZone) } ?? NSNull()]
            }])
            return 0
        }
        c.console.print(c.text("cli.history.header", ["child": child.displayName, "date": day.description]))
        if done.isEmpty {
            c.console.print("  " + c.text("cli.history.nothing"))
            return 0
        }
        for item in done {
            let time = item.log?.completedAt.map { TodayCommands.clockTime($0, c) } ?? "--:--"
            var line = "  \(time)  \(c.resolve(item.routine.title))"
            if item.routine.deletedAt != nil { line += "  " + c.text("cli.history.deleted") }
            c.console.print(line)
        }
        c.console.print(c.text("cli.history.total", ["count": String(done.count)]))
        return 0
    }
}
