import Foundation
import SteppieCore
import SteppieStore

/// A child's month as a calendar heatmap (SVG, with the same numbers in a table beside it) and
/// one day's detail: what was done and what was not, by the statistics' own rules (the counts
/// equal `steppie history --month --json`).
extension GuardianWeb {
    func historyPage(_ r: Request, _ child: Child) -> WebResponse {
        let id = child.id.lowercased
        let today = r.today
        let month = r.web.query["month"].flatMap(YearMonth.init) ?? YearMonth(today)
        let calendar: MonthCalendar
        do { calendar = try r.store.monthCalendar(childId: child.id, month: month, reference: today) } catch {
            return r.page(screen: "history", titleKey: "web.history.title", titleArgs: ["name": child.displayName], status: 500,
                          error: r.pageError(error))
        }
        var body = "<p class=\"child-name\">\(esc(child.displayName))</p>" + childLinks(r, child, current: "history")
        let previous = YearMonth(month.firstDay.adding(days: -1)), next = YearMonth(month.lastDay.adding(days: 1))
        body += "<nav class=\"months\" aria-label=\"\(esc(r.t("web.history.months")))\">"
        body += "<a href=\"/guardian/child/\(id)/history?month=\(previous)\" rel=\"prev\">← \(esc(monthName(r, previous)))</a>"
        body += "<span aria-current=\"page\">\(esc(monthName(r, month)))</span>"
        body += "<a href=\"/guardian/child/\(id)/history?month=\(next)\" rel=\"next\">\(esc(monthName(r, next))) →</a></nav>"
        body += "<div class=\"month\">" + heatmap(r, calendar, childId: id) + monthTable(r, calendar) + "</div>"
        if let raw = r.web.query["date"], let day = LocalDay(raw) {
            body += dayDetail(r, child: child, day: day, today: today)
        }
        return r.page(screen: "history", titleKey: "web.history.title", titleArgs: ["name": child.displayName], body: body)
    }

    func monthName(_ r: Request, _ month: YearMonth) -> String {
        r.t("web.history.monthName", ["year": String(month.year), "month": String(month.month)])
    }

    /// Seven columns from Monday; a cell's shade grows with the share done (none tracked: outlined).
    private func heatmap(_ r: Request, _ calendar: MonthCalendar, childId: String) -> String {
        let cell = 44, gap = 6
        let firstColumn = (calendar.month.firstDay.isoWeekday - 1)
        let rows = (firstColumn + calendar.days.count + 6) / 7
        let width = 7 * (cell + gap), height = rows * (cell + gap) + 24
        var h = "<svg class=\"heatmap\" role=\"img\" aria-labelledby=\"heatmap-title\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\">"
        h += "<title id=\"heatmap-title\">\(esc(r.t("web.history.heatmap", ["month": monthName(r, calendar.month)])))</title>"
        for (i, key) in ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].enumerated() {
            h += "<text x=\(quote(i * (cell + gap) + cell / 2)) y=\"14\" text-anchor=\"middle\" class=\"weekday\">\(esc(r.t("web.weekday.\(key)")))</text>"
        }
        for (i, day) in calendar.days.enumerated() {
            let slot = firstColumn + i
            let x = (slot % 7) * (cell + gap), y = (slot / 7) * (cell + gap) + 24
            let level: Int = day.ratio.map { $0 >= 1 ? 4 : $0 >= 0.66 ? 3 : $0 >= 0.33 ? 2 : $0 > 0 ? 1 : 0 } ?? -1
            let label = r.t("web.history.cell", ["date": day.day.description, "completed": String(day.completed), "total": String(day.total)])
            h += "<a href=\"/guardian/child/\(childId)/history?month=\(calendar.month)&amp;date=\(day.day)\" aria-label=\"\(esc(label))\">"
            h += "<rect x=\(quote(x)) y=\(quote(y)) width=\(quote(cell)) height=\(quote(cell)) rx=\"8\" class=\"level\(level < 0 ? "-none" : String(level))\(day.isFuture ? " future" : "")\""
            h += " data-day=\"\(day.day)\" data-completed=\"\(day.completed)\" data-total=\"\(day.total)\"></rect>"
            h += "<text x=\(quote(x + cell / 2)) y=\(quote(y + cell / 2 + 5)) text-anchor=\"middle\" class=\"daynum\(level >= 3 ? " on-dark" : "")\">\(day.day.day)</text></a>"
        }
        return h + "</svg>"
    }

    private func quote(_ n: Int) -> String { "\"\(n)\"" }

    private func monthTable(_ r: Request, _ calendar: MonthCalendar) -> String {
        var h = "<table class=\"month-table\"><caption>\(esc(r.t("web.history.table", ["month": monthName(r, calendar.month)])))</caption>"
        h += "<thead><tr><th scope=\"col\">\(esc(r.t("web.history.date")))</th><th scope=\"col\">\(esc(r.t("web.history.done")))</th>"
        h += "<th scope=\"col\">\(esc(r.t("web.history.total")))</th></tr></thead><tbody>"
        for day in calendar.days where !day.isFuture && day.total > 0 {
            h += "<tr data-day=\"\(day.day)\"><th scope=\"row\">\(day.day)</th><td>\(day.completed)</td><td>\(day.total)</td></tr>"
        }
        return h + "</tbody></table>"
    }

    /// The routines tracked on `day`: done first, then not done.
    private func dayDetail(_ r: Request, child: Child, day: LocalDay, today: LocalDay) -> String {
        let histories = (try? r.store.routineHistories(childId: child.id, completionsFrom: day, through: day)) ?? []
        let tracked = histories.filter { $0.tracked.countsForChild && $0.tracked.isTracked(on: day, reference: today) }
        let done = tracked.filter { $0.tracked.completionDays.contains(day) }
        let notDone = tracked.filter { !$0.tracked.completionDays.contains(day) }
        var h = "<section aria-labelledby=\"day-h\" data-date=\"\(day)\"><h2 id=\"day-h\">\(esc(r.t("web.history.day", ["date": day.description])))</h2>"
        if tracked.isEmpty { h += "<p>\(esc(r.t("web.history.nothing")))</p>" }
        for (items, key, state) in [(done, "web.history.doneList", "done"), (notDone, "web.history.notDoneList", "not-done")] where !items.isEmpty {
            h += "<h3>\(esc(r.t(key)))</h3><ul class=\"day-list\" data-state=\"\(state)\">"
            for item in items { h += "<li data-routine-id=\"\(item.routine.id.lowercased)\">\(iconImage(r, item.routine.icon))\(esc(r.title(item.routine.title)))</li>" }
            h += "</ul>"
        }
        return h + "</section>"
    }
}
