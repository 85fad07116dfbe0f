import Foundation
import SteppieCore
import SteppieStore
import SteppieHTML

/// The printable month report of a child (`/guardian/child/<id>/report?month=YYYY-MM&paper=…`),
/// for a therapist or a teacher: the whole days, each routine (days done of the days it was
/// part of, rate, the longest streak in the month, the streak running on the month's last
/// judged day) and the corrections of the month's days with when they were made. The figures
/// are `Store.monthReport`'s, by the same rules as the history page's statistics.
extension GuardianWeb {
    func reportPage(_ r: Request, _ child: Child) -> WebResponse {
        let id = child.id.lowercased
        let paper = PrintPaper(query: r.web.query["paper"])
        let today = r.today
        let month = r.web.query["month"].flatMap(YearMonth.init) ?? YearMonth(today)
        let data: ChildMonthReport
        do { data = try r.store.monthReport(childId: child.id, month: month, reference: today) } catch {
            return r.page(screen: "print-report", titleKey: "web.print.reportTitle", titleArgs: ["name": child.displayName], status: 500,
                          error: r.pageError(error), htmlClass: paper.htmlClass)
        }
        var body = printControls(r, paper: paper, base: "/guardian/child/\(id)/report", query: ["month": month.description],
                                 back: ("/guardian/child/\(id)/history?month=\(month.description)", "web.print.backHistory"),
                                 hint: "web.print.paperHint")
        let previous = YearMonth(month.firstDay.adding(days: -1)), next = YearMonth(month.lastDay.adding(days: 1))
        body += "<nav class=\"months print-controls\" aria-label=\"\(r.t("web.history.months"))\">"
        body += "<a href=\"/guardian/child/\(id)/report?month=\(previous.description)&amp;paper=\(paper.rawValue)\" rel=\"prev\">← \(r.monthName(previous))</a>"
        body += "<span aria-current=\"page\">\(r.monthName(month))</span>"
        body += "<a href=\"/guardian/child/\(id)/report?month=\(next.description)&amp;paper=\(paper.rawValue)\" rel=\"next\">\(r.monthName(next)) →</a></nav>"
        body += "<article class=\"report\" data-month=\"\(month.description)\" data-paper=\"\(paper.rawValue)\">"
        body += "<header class=\"report-head\"><p class=\"who\">\(r.monthName(month))</p>"
        let report = data.report
        guard let through = report.through else {
            return reportFrame(r, child, paper, body + "</header><p data-report=\"not-yet\">\(r.t("web.report.notYet"))</p></article>")
        }
        body += "<p class=\"hint\">\(r.t("web.report.through", ["date": r.mediumDate(through), "today": r.mediumDate(today)]))</p></header>"
        body += reportDays(r, report, through: through)
        body += reportRoutines(r, data, through: through)
        body += reportCorrections(r, data)
        return reportFrame(r, child, paper, body + "</article>")
    }

    private func reportFrame(_ r: Request, _ child: Child, _ paper: PrintPaper, _ body: HTML) -> WebResponse {
        r.page(screen: "print-report", titleKey: "web.print.reportTitle", titleArgs: ["name": child.displayName],
               htmlClass: paper.htmlClass, body: body)
    }

    /// The whole days of the month (every counted routine done), then every routine on every day together.
    private func reportDays(_ r: Request, _ report: MonthReport, through: LocalDay) -> HTML {
        let month = report.inMonth, end = report.atEnd
        var h: HTML = "<section aria-labelledby=\"report-days-h\"><h2 id=\"report-days-h\">\(r.t("web.stats.days"))</h2>"
        h += "<table class=\"report-table\" data-table=\"days\"><tbody>"
        h += "<tr><th scope=\"row\">\(r.t("web.report.daysDone"))</th><td data-stat=\"days\" data-value=\"\(month.days.completedDays)/\(month.days.eligibleDays)\">"
        h += "\(r.t("web.stats.daysOf", ["done": String(month.days.completedDays), "total": String(month.days.eligibleDays)]))</td></tr>"
        h += "<tr><th scope=\"row\">\(r.t("web.stats.rate"))</th><td data-stat=\"dayRate\">\(r.percent(month.days.completionRate))</td></tr>"
        h += "<tr><th scope=\"row\">\(r.t("web.report.longest"))</th><td data-stat=\"longestStreak\" data-value=\"\(month.days.longestStreak)\">"
        h += "\(r.days(month.days.longestStreak)) <span class=\"hint\">\(r.span(month.dayStreaks.longest))</span></td></tr>"
        h += "<tr><th scope=\"row\">\(r.t("web.report.streakOn", ["date": r.mediumDate(through)]))</th>"
        h += "<td data-stat=\"currentStreak\" data-value=\"\(end.days.currentStreak)\">\(r.days(end.days.currentStreak)) "
        h += "<span class=\"hint\">\(r.span(end.dayStreaks.current))</span></td></tr></tbody></table>"
        h += "<p data-stat=\"routineRate\">\(r.t("web.stats.routineRate", ["rate": String(Int((month.routineDayRate * 100).rounded())), "done": String(month.completedRoutineDays), "total": String(month.eligibleRoutineDays)]))</p>"
        return h + "</section>"
    }

    /// One row per routine counted in the month, in card order.
    private func reportRoutines(_ r: Request, _ data: ChildMonthReport, through: LocalDay) -> HTML {
        let routines = data.routines
        var h: HTML = "<section aria-labelledby=\"report-routines-h\"><h2 id=\"report-routines-h\">\(r.t("web.stats.routines"))</h2>"
        guard !routines.isEmpty else { return h + "<p>\(r.t("web.report.noRoutines"))</p></section>" }
        h += "<table class=\"report-table\" data-table=\"routines\"><thead><tr>"
        for key in ["web.stats.routine", "web.report.daysDoneCol", "web.stats.rate", "web.report.longest"] {
            h += "<th scope=\"col\">\(r.t(key))</th>"
        }
        h += "<th scope=\"col\">\(r.t("web.report.streakOn", ["date": r.mediumDate(through)]))</th><th scope=\"col\">\(r.t("web.report.corrections"))</th></tr></thead><tbody>"
        for history in routines {
            let rid = history.routine.id
            let s = data.report.inMonth.perRoutine[rid] ?? .empty, end = data.report.atEnd.perRoutine[rid] ?? .empty
            let corrections = data.corrections.count { $0.routineId == rid }
            h += "<tr data-routine-id=\"\(rid.lowercased)\"><th scope=\"row\">\(r.title(history.routine.title))</th>"
            h += "<td data-value=\"\(s.completedDays)/\(s.eligibleDays)\">\(r.t("web.stats.daysOf", ["done": String(s.completedDays), "total": String(s.eligibleDays)]))</td>"
            h += "<td>\(r.percent(s.completionRate))</td>"
            h += "<td data-value=\"\(s.longestStreak)\">\(r.days(s.longestStreak)) <span class=\"hint\">\(r.span(data.report.inMonth.perRoutineStreaks[rid]?.longest))</span></td>"
            h += "<td data-value=\"\(end.currentStreak)\">\(r.days(end.currentStreak)) <span class=\"hint\">\(r.span(data.report.atEnd.perRoutineStreaks[rid]?.current))</span></td>"
            h += "<td data-value=\"\(corrections)\">\(corrections)</td></tr>"
        }
        return h + "</tbody></table></section>"
    }

    /// Every correction of the month's days, by routine (card order), then day, then when it was made.
    private func reportCorrections(_ r: Request, _ data: ChildMonthReport) -> HTML {
        var h: HTML = "<section aria-labelledby=\"report-corrections-h\"><h2 id=\"report-corrections-h\">\(r.t("web.report.corrections"))</h2>"
        guard !data.corrections.isEmpty else { return h + "<p data-report=\"no-corrections\">\(r.t("web.report.noCorrections"))</p></section>" }
        let place = Dictionary(data.histories.enumerated().map { ($1.routine.id, ($0, $1.routine)) }, uniquingKeysWith: { a, _ in a })
        let sorted = data.corrections.enumerated().sorted { a, b in
            let pa = place[a.element.routineId]?.0 ?? Int.max, pb = place[b.element.routineId]?.0 ?? Int.max
            if pa != pb { return pa < pb }
            if a.element.date != b.element.date { return a.element.date < b.element.date }
            return a.offset < b.offset
        }.map(\.element)
        h += "<table class=\"report-table\" data-table=\"corrections\"><thead><tr>"
        for key in ["web.stats.routine", "web.history.date", "web.report.change", "web.report.madeAt"] {
            h += "<th scope=\"col\">\(r.t(key))</th>"
        }
        h += "</tr></thead><tbody>"
        for c in sorted {
            let title = place[c.routineId].map { r.title($0.1.title) } ?? "–"
            h += "<tr data-routine-id=\"\(c.routineId.lowercased)\" data-day=\"\(c.date.description)\" data-done=\"\(c.done ? "yes" : "no")\">"
            h += "<th scope=\"row\">\(title)</th><td>\(r.shortDate(c.date))</td>"
            h += "<td>\(r.t(c.done ? "web.report.toDone" : "web.report.toNotDone"))</td><td>\(r.dateTime(c.madeAt))</td></tr>"
        }
        return h + "</tbody></table></section>"
    }
}
