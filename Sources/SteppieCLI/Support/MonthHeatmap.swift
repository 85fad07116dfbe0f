import SteppieCore

/// Draws a `MonthCalendar` as a terminal heatmap: weeks as rows (Monday to Sunday), each day a
/// 4-column cell of its number and a shade for the share of routines done, then a legend.
struct MonthHeatmap {
    let calendar: MonthCalendar
    let text: Messages
    /// ANSI colors on the shades (off with `NO_COLOR`).
    let color: Bool

    static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// The shade of a day: blank when nothing was tracked (or in the future), `·` for none done,
    /// then `░ ▒ ▓` by thirds and `█` for all done.
    static func shade(_ day: MonthCalendar.Day) -> Character {
        guard let ratio = day.ratio else { return " " }
        switch ratio {
        case ..<0.000_001: return "·"
        case ..<(1.0 / 3.0 + 0.000_001): return "░"
        case ..<(2.0 / 3.0 + 0.000_001): return "▒"
        case ..<1: return "▓"
        default: return "█"
        }
    }

    func render(child: String) -> String {
        var lines = [text("cli.history.monthHeader", ["child": child, "month": calendar.month.description])]
        lines.append(MonthHeatmap.weekdays.map { pad(text("cli.history.weekday.\($0)"), to: 3) + " " }.joined().trimmingTrailing())
        var row = String(repeating: "    ", count: (calendar.days.first?.day.isoWeekday ?? 1) - 1)
        for day in calendar.days {
            let number = day.day.day < 10 ? "  \(day.day.day)" : " \(day.day.day)"
            row += number + painted(MonthHeatmap.shade(day))
            if day.day.isoWeekday == 7 {
                lines.append(row.trimmingTrailing())
                row = ""
            }
        }
        if !row.isEmpty { lines.append(row.trimmingTrailing()) }
        let judged = calendar.days.filter { $0.outcome != nil && $0.outcome != .pending }
        let full = judged.filter { $0.outcome == .completed }.count
        lines.append("")
        lines.append(text("cli.history.legend", ["none": painted("·"), "low": painted("░"), "mid": painted("▒"),
                                                  "high": painted("▓"), "all": painted("█")]))
        lines.append(text("cli.history.monthSummary", ["completed": String(full), "days": String(judged.count)]))
        return lines.joined(separator: "\n") + "\n"
    }

    private func painted(_ shade: Character) -> String {
        guard color, shade != " " else { return String(shade) }
        let code: String
        switch shade {
        case "·": code = "90"
        case "░", "▒": code = "33"
        default: code = "32"
        }
        return "\u{1B}[\(code)m\(shade)\u{1B}[0m"
    }

    private func pad(_ s: String, to columns: Int) -> String {
        String(repeating: " ", count: max(0, columns - TextWidth.of(s))) + s
    }
}

extension String {
    /// The string without trailing spaces.
    func trimmingTrailing() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
