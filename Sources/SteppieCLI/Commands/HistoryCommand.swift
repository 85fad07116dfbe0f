import Foundation
import SteppieCore
import SteppieStore

/// `steppie history [--date D | --month M] [--routine ID]`: a child's day (what was done and what
/// was not), a month as a heatmap, or one routine's month. Archived children can be read too.
enum HistoryCommand {
    static func run(_ c: Context) throws -> Int32 {
        let inv = c.invocation
        let store = try c.store()
        let child = try c.childIncludingArchived()
        if let raw = inv.value("--routine") {
            let id = try Ids.parse(raw, argument: "--routine")
            let month = inv.value("--month").flatMap(YearMonth.init) ?? YearMonth(c.today)
            return try RoutineMonthView.run(c, store: store, child: child, routineId: id, month: month)
        }
        if let raw = inv.value("--month") {
            guard let month = YearMonth(raw) else {
                throw UsageError.notAllowed(option: "--month", value: raw, allowed: .month)
            }
            let calendar = try store.monthCalendar(childId: child.id, month: month, reference: c.today)
            if c.json {
                try c.printJSON(MonthJSON(child: child.displayName, month: raw, days: calendar.days.map { d in
                    MonthJSON.Day(date: d.day.description, completed: d.completed, total: d.total, state: d.outcome.map { "\($0)" })
                }))
                return 0
            }
            // Colours on a terminal only (not into `| head` or a file), and never with NO_COLOR.
            let color = c.console.outputIsTerminal && (c.env.variables["NO_COLOR"].map(\.isEmpty) ?? true)
            c.console.write(MonthHeatmap(calendar: calendar, text: c.text, color: color).render(child: child.displayName))
            return 0
        }
        let day = inv.value("--date").flatMap(LocalDay.init) ?? c.today
        return try DayView.run(c, store: store, child: child, day: day)
    }
}

/// A child's day: each routine done (with its time) or not done, corrections marked.
enum DayView {
    struct Entry: Encodable {
        let routineId: String
        let title: [String: String]
        let displayTitle: String
        /// The icon the card showed: for a completion, the one shown when it was done (schema v8).
        let icon: JSONDocuments.Icon
        let setId: String
        /// `completed`, `pending` or `missed`.
        let state: String
        let completedAt: String?
        let deleted: Bool
        let countsForChild: Bool
        let correctedAt: String?
    }

    struct Day: Encodable {
        let child: String
        let date: String
        /// Every entry, done and not done.
        let entries: [Entry]
        /// The done entries only (as before entries were listed).
        let completed: [Entry]
        /// Counted routines done, and counted routines of the day (the heatmap's cell).
        let countedCompleted: Int
        let countedTotal: Int
    }

    static func run(_ c: Context, store: Store, child: Child, day: LocalDay) throws -> Int32 {
        let entries = try store.dayEntries(childId: child.id, day: day, reference: c.today)
        let counted = entries.filter(\.countsForChild)
        let doneCount = counted.count { $0.state == .completed }
        if c.json {
            let rows = entries.map { e in
                Entry(routineId: e.routine.id.lowercased, title: e.routine.title.values, displayTitle: c.resolve(e.routine.title),
                      icon: TodayCommands.routineJSON(e.routine, c).icon, setId: e.set.id.lowercased, state: e.state.rawValue,
                      completedAt: e.state == .completed ? e.log?.completedAt.map { Timestamp.format($0, in: c.env.timeZone) } : nil,
                      deleted: e.routine.deletedAt != nil, countsForChild: e.countsForChild,
                      correctedAt: e.correction.map { Timestamp.format($0.madeAt, in: c.env.timeZone) })
            }
            try c.printEncodable(Day(child: child.displayName, date: day.description, entries: rows,
                                     completed: rows.filter { $0.state == "completed" }, countedCompleted: doneCount, countedTotal: counted.count))
            return 0
        }
        c.console.print(c.text("cli.history.header", ["child": child.displayName, "date": day.description]))
        if entries.isEmpty {
            c.console.print("  " + c.text("cli.history.nothing"))
            return 0
        }
        for e in entries {
            let mark: String
            var time = "     "
            switch e.state {
            case .completed:
                mark = "✓"
                time = e.log?.completedAt.map { TodayCommands.clockTime($0, c) } ?? "--:--"
            case .pending: mark = "·"
            case .missed: mark = "✗"
            }
            var line = "  \(mark) \(time)  \(c.resolve(e.routine.title))"
            if e.state == .pending { line += "  " + c.text("cli.history.day.pending") }
            if e.routine.deletedAt != nil { line += "  " + c.text("cli.history.deleted") }
            if !e.countsForChild { line += "  " + c.text("cli.stats.otherSet") }
            if let correction = e.correction { line += "  " + c.text("cli.history.day.corrected", ["time": c.localDateTime(correction.madeAt)]) }
            c.console.print(line)
        }
        if !counted.isEmpty {
            c.console.print(c.text("cli.history.day.summary", ["completed": String(doneCount), "count": String(counted.count)]))
        }
        return 0
    }
}

/// `history --month M --json`.
struct MonthJSON: Encodable {
    struct Day: Encodable {
        let date: String
        let completed: Int
        let total: Int
        /// The day's outcome; null for a day still to come.
        @NullIfAbsent var state: String?
    }

    let child: String
    let month: String
    let days: [Day]
}
