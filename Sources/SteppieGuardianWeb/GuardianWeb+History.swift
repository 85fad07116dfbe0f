import Foundation
import SteppieCore
import SteppieStore
import SteppieHTML

/// A child's month as a calendar heatmap (SVG, with the same numbers in a table beside it) and
/// one day's detail: what was done and what was not, by the statistics' own rules (the counts
/// equal `steppie history --month --json`).
extension GuardianWeb {
    func historyPage(_ r: Request, _ child: Child, status: Int = 200, error: PageError? = nil) -> WebResponse {
        let id = child.id.lowercased
        let today = r.today
        let month = r.web.query["month"].flatMap(YearMonth.init) ?? YearMonth(today)
        let calendar: MonthCalendar
        do { calendar = try r.store.monthCalendar(childId: child.id, month: month, reference: today) } catch {
            return r.page(screen: "history", titleKey: "web.history.title", titleArgs: ["name": child.displayName], status: 500,
                          error: r.pageError(error))
        }
        var body = childLinks(r, child, current: "history")
        let previous = YearMonth(month.firstDay.adding(days: -1)), next = YearMonth(month.lastDay.adding(days: 1))
        body += "<nav class=\"months\" aria-label=\"\(r.t("web.history.months"))\">"
        body += "<a href=\"/guardian/child/\(id)/history?month=\(previous.description)\" rel=\"prev\">← \(r.monthName(previous))</a>"
        body += "<span aria-current=\"page\">\(r.monthName(month))</span>"
        body += "<a href=\"/guardian/child/\(id)/history?month=\(next.description)\" rel=\"next\">\(r.monthName(next)) →</a></nav>"
        body += "<p><a href=\"/guardian/child/\(id)/report?month=\(month.description)\" data-link=\"print-report\">\(r.t("web.print.report", ["month": r.monthName(month)]))</a></p>"
        body += "<div class=\"month\">" + heatmap(r, calendar, childId: id) + monthTable(r, calendar) + "</div>"
        if let raw = r.web.query["date"], let day = LocalDay(raw) {
            body += dayDetail(r, child: child, day: day, today: today)
        }
        if let routine = r.web.query["routine"].flatMap(UUID.init(uuidString:)) {
            body += routineMonth(r, child: child, routineId: routine, month: month, today: today)
        }
        body += statistics(r, child: child, today: today, month: month)
        return r.page(screen: "history", titleKey: "web.history.title", titleArgs: ["name": child.displayName], status: status,
                      error: error, body: body)
    }

    /// Seven columns from Monday; a cell's shade grows with the share done (none tracked: outlined).
    /// The picture is a named group, not an image: each day is a link a screen reader can reach.
    private func heatmap(_ r: Request, _ calendar: MonthCalendar, childId: String) -> HTML {
        let cell = 44, gap = 6
        let firstColumn = (calendar.month.firstDay.isoWeekday - 1)
        let rows = (firstColumn + calendar.days.count + 6) / 7
        let width = 7 * (cell + gap), height = rows * (cell + gap) + 24
        var h: HTML = "<svg class=\"heatmap\" role=\"group\" aria-labelledby=\"heatmap-title\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\">"
        h += "<title id=\"heatmap-title\">\(r.t("web.history.heatmap", ["month": r.monthName(calendar.month)]))</title>"
        for (i, key) in ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].enumerated() {
            h += "<text x=\(quote(i * (cell + gap) + cell / 2)) y=\"14\" text-anchor=\"middle\" class=\"weekday\">\(r.t("web.weekday.\(key)"))</text>"
        }
        for (i, day) in calendar.days.enumerated() {
            let slot = firstColumn + i
            let x = (slot % 7) * (cell + gap), y = (slot / 7) * (cell + gap) + 24
            let level: Int = day.ratio.map { $0 >= 1 ? 4 : $0 >= 0.66 ? 3 : $0 >= 0.33 ? 2 : $0 > 0 ? 1 : 0 } ?? -1
            let label = r.t("web.history.cell", ["date": r.longDate(day.day), "completed": String(day.completed), "total": String(day.total)])
            h += "<a href=\"/guardian/child/\(childId)/history?month=\(calendar.month.description)&amp;date=\(day.day.description)\" aria-label=\"\(label)\">"
            h += "<rect x=\(quote(x)) y=\(quote(y)) width=\(quote(cell)) height=\(quote(cell)) rx=\"8\" class=\"level\(level < 0 ? "-none" : String(level))\(day.isFuture ? " future" : "")\""
            h += " data-day=\"\(day.day.description)\" data-completed=\"\(day.completed)\" data-total=\"\(day.total)\"></rect>"
            h += "<text x=\(quote(x + cell / 2)) y=\(quote(y + cell / 2 + 5)) text-anchor=\"middle\" class=\"daynum\(level >= 3 ? " on-dark" : "")\">\(day.day.day)</text></a>"
        }
        return h + "</svg>"
    }

    private func quote(_ n: Int) -> HTML { "\"\(n)\"" }

    private func monthTable(_ r: Request, _ calendar: MonthCalendar) -> HTML {
        var h: HTML = "<table class=\"month-table\"><caption>\(r.t("web.history.table", ["month": r.monthName(calendar.month)]))</caption>"
        h += "<thead><tr><th scope=\"col\">\(r.t("web.history.date"))</th><th scope=\"col\">\(r.t("web.history.done"))</th>"
        h += "<th scope=\"col\">\(r.t("web.history.total"))</th></tr></thead><tbody>"
        for day in calendar.days where !day.isFuture && day.total > 0 {
            h += "<tr data-day=\"\(day.day.description)\"><th scope=\"row\">\(r.shortDate(day.day))</th><td>\(day.completed)</td><td>\(day.total)</td></tr>"
        }
        return h + "</tbody></table>"
    }

    /// The routines of `day`: done first, then not done, each with a correction button (a
    /// guardian marks it done or not done; the change is kept with when it was made).
    private func dayDetail(_ r: Request, child: Child, day: LocalDay, today: LocalDay) -> HTML {
        let entries = ((try? r.store.dayEntries(childId: child.id, day: day, reference: today)) ?? []).filter(\.countsForChild)
        let id = child.id.lowercased
        var h: HTML = "<section aria-labelledby=\"day-h\" data-date=\"\(day.description)\"><h2 id=\"day-h\">\(r.longDate(day))</h2>"
        if entries.isEmpty { h += "<p>\(r.t("web.history.nothing"))</p>" }
        let done = entries.filter { $0.state == .completed }, notDone = entries.filter { $0.state != .completed }
        for (items, key, state) in [(done, "web.history.doneList", "done"), (notDone, "web.history.notDoneList", "not-done")] where !items.isEmpty {
            h += "<h3>\(r.t(key))</h3><ul class=\"day-list\" data-state=\"\(state)\">"
            for entry in items {
                let title = r.title(entry.routine.title)
                h += "<li data-routine-id=\"\(entry.routine.id.lowercased)\">\(iconImage(r, entry.routine.icon))<span>\(title)</span>"
                if let c = entry.correction {
                    h += " <span class=\"hint\">\(r.t("web.history.corrected", ["time": r.dateTime(c.madeAt)]))</span>"
                }
                let markDone = entry.state != .completed
                h += "<form method=\"post\" action=\"/guardian/child/\(id)/correct\" class=\"inline\" data-form=\"correct\">\(r.csrf)"
                h += "<input type=\"hidden\" name=\"date\" value=\"\(day.description)\"><input type=\"hidden\" name=\"routine\" value=\"\(entry.routine.id.lowercased)\">"
                h += "<input type=\"hidden\" name=\"done\" value=\"\(markDone ? "yes" : "no")\">"
                h += "<button type=\"submit\" class=\"quiet\">\(r.t(markDone ? "web.history.markDone" : "web.history.markNotDone", ["title": title]))</button></form></li>"
            }
            h += "</ul>"
        }
        return h + "</section>"
    }

    /// A guardian's correction of a past day (or today): the routine done or not done.
    func correctDay(_ r: inout Request, _ child: Child) -> WebResponse {
        let rawDay = r.web.form["date"] ?? ""
        do {
            let day = try Validator.parseDay(rawDay, field: "date")
            guard let routine = r.web.form["routine"].flatMap(UUID.init(uuidString:)) else { throw FormError(field: "routine", key: "web.error.form") }
            guard let done = ["yes": true, "no": false][r.web.form["done"] ?? ""] else { throw FormError(field: "done", key: "web.error.choice") }
            _ = try r.store.setDayEntry(childId: child.id, routineId: routine, day: day, done: done, at: r.now)
            r.nextNotice = r.t("web.saved")
            return .seeOther("/guardian/child/\(child.id.lowercased)/history?month=\(YearMonth(day))&date=\(day)")
        } catch {
            var copy = r
            copy.web.query["date"] = rawDay
            return historyPage(copy, child, status: 400, error: r.pageError(error))
        }
    }

    /// The child's statistics by StackDay's rules: the day streaks and each routine's, with the
    /// days each streak starts and ends.
    private func statistics(_ r: Request, child: Child, today: LocalDay, month: YearMonth) -> HTML {
        guard let stats = try? r.store.childStatistics(childId: child.id, reference: today) else { return "" }
        let id = child.id.lowercased
        // A streak reads "3 days" / "3일"; `data-value` keeps the bare number for programs.
        let span = r.span, days = r.days
        var h: HTML = "<section aria-labelledby=\"stats-h\"><h2 id=\"stats-h\">\(r.t("web.stats.title"))</h2>"
        h += "<table class=\"stats\"><caption>\(r.t("web.stats.days"))</caption><tbody>"
        h += "<tr><th scope=\"row\">\(r.t("web.stats.current"))</th><td data-stat=\"currentStreak\" data-value=\"\(stats.days.currentStreak)\">\(days(stats.days.currentStreak))</td><td>\(span(stats.dayStreaks.current))</td></tr>"
        h += "<tr><th scope=\"row\">\(r.t("web.stats.longest"))</th><td data-stat=\"longestStreak\" data-value=\"\(stats.days.longestStreak)\">\(days(stats.days.longestStreak))</td><td>\(span(stats.dayStreaks.longest))</td></tr>"
        // The whole days' own rate (it showed the routine-day rate under "whole days"), then the
        // routine-day rate, named as what it is.
        h += "<tr><th scope=\"row\">\(r.t("web.stats.rate"))</th><td data-stat=\"dayRate\">\(r.percent(stats.days.completionRate))</td>"
        h += "<td>\(r.t("web.stats.daysOf", ["done": String(stats.days.completedDays), "total": String(stats.days.eligibleDays)]))</td></tr>"
        h += "</tbody></table>"
        h += "<p data-stat=\"routineRate\">\(r.t("web.stats.routineRate", ["rate": String(Int((stats.routineDayRate * 100).rounded())), "done": String(stats.completedRoutineDays), "total": String(stats.eligibleRoutineDays)]))</p>"
        let histories = (try? r.store.routineHistories(childId: child.id)) ?? []
        h += "<table class=\"stats\"><caption>\(r.t("web.stats.routines"))</caption><thead><tr>"
        for key in ["web.stats.routine", "web.stats.rate", "web.stats.current", "web.stats.longest"] {
            h += "<th scope=\"col\">\(r.t(key))</th>"
        }
        h += "</tr></thead><tbody>"
        for history in histories where history.tracked.countsForChild {
            guard let s = stats.perRoutine[history.routine.id] else { continue }
            let spans = stats.perRoutineStreaks[history.routine.id]
            let rid = history.routine.id.lowercased
            h += "<tr data-routine-id=\"\(rid)\"><th scope=\"row\"><a href=\"/guardian/child/\(id)/history?month=\(month.description)&amp;routine=\(rid)\">\(r.title(history.routine.title))</a></th>"
            h += "<td>\(r.percent(s.completionRate))</td>"
            h += "<td data-value=\"\(s.currentStreak)\">\(days(s.currentStreak)) <span class=\"hint\">\(span(spans?.current))</span></td>"
            h += "<td data-value=\"\(s.longestStreak)\">\(days(s.longestStreak)) <span class=\"hint\">\(span(spans?.longest))</span></td></tr>"
        }
        return h + "</tbody></table></section>"
    }

    /// One routine's month: each day done, missed, away (deleted for a while) or not yet.
    private func routineMonth(_ r: Request, child: Child, routineId: UUID, month: YearMonth, today: LocalDay) -> HTML {
        guard let (history, calendar) = try? r.store.routineMonth(childId: child.id, routineId: routineId, month: month, reference: today) else {
            return ""
        }
        var h: HTML = "<section aria-labelledby=\"routine-month-h\"><h2 id=\"routine-month-h\">"
        h += "\(r.t("web.history.routineMonth", ["title": r.title(history.routine.title), "month": r.monthName(month)]))</h2>"
        h += "<p>\(r.t("web.history.routineCount", ["completed": String(calendar.completedDays), "total": String(calendar.trackedDays)]))</p>"
        h += "<ul class=\"routine-month\">"
        for day in calendar.days where !day.isFuture {
            let state = day.isAbsent ? "away" : day.state?.rawValue ?? "none"
            h += "<li data-day=\"\(day.day.description)\" data-state=\"\(state)\" class=\"rm-\(state)\"><span class=\"d\">\(day.day.day)</span>"
            h += "<span class=\"sr-only\">\(r.t("web.history.state.\(state)"))</span></li>"
        }
        return h + "</ul></section>"
    }
}
