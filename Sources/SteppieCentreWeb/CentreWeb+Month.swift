import SteppieCentre
import SteppieCore
import SteppieHTML
import SteppieHTTP

/// A child's month: done / total per day by the guardian history's rules (`MonthCalendar`, see
/// `CentreOverview.month`), a table every reader can follow, with the months before and after.
extension CentreWeb {
    func monthPage(_ r: CentreRequest, _ session: CentreStore.StaffSession, child: String) -> HTTPResponse {
        let calendar: MonthCalendar, name: String
        let month = r.http.query["month"].flatMap(YearMonth.init) ?? YearMonth(r.today)
        do {
            guard let found = try config.store.childName(child) else { return r.refused(404) }
            name = found
            let days = month.firstDay.description...month.lastDay.description
            calendar = CentreOverview.month(replica: try config.store.replica(children: [child], dates: days), child: child, month: month,
                                            reference: r.today, timeZone: config.timeZone)
        } catch {
            return r.failure(error)
        }
        let previous = YearMonth(month.firstDay.adding(days: -1)), next = YearMonth(month.lastDay.adding(days: 1))
        var body: HTML = "<nav class=\"months\" aria-label=\"\(r.t("staff.month.months"))\">"
        body += "<a href=\"/staff/child/\(child)?month=\(previous.description)\" rel=\"prev\">← \(r.monthName(previous))</a> "
        body += "<span aria-current=\"page\">\(r.monthName(month))</span> "
        body += "<a href=\"/staff/child/\(child)?month=\(next.description)\" rel=\"next\">\(r.monthName(next)) →</a></nav>"
        body += "<table class=\"month-table\" data-month=\"\(month.description)\"><caption>\(r.t("staff.month.caption", ["month": r.monthName(month)]))</caption>"
        body += "<thead><tr><th scope=\"col\">\(r.t("staff.month.date"))</th><th scope=\"col\">\(r.t("staff.month.done"))</th>"
        body += "<th scope=\"col\">\(r.t("staff.month.total"))</th></tr></thead><tbody>"
        let shown = calendar.days.filter { !$0.isFuture && $0.total > 0 }
        for day in shown {
            body += "<tr data-day=\"\(day.day.description)\" data-completed=\"\(day.completed)\" data-total=\"\(day.total)\">"
            body += "<th scope=\"row\">\(day.day.description)</th><td>\(day.completed)</td><td>\(day.total)</td></tr>"
        }
        body += "</tbody></table>"
        if shown.isEmpty { body += "<p>\(r.t("staff.month.nothing"))</p>" }
        body += "<p><a href=\"/staff/\">\(r.t("staff.nav.overview"))</a></p>"
        return r.page(screen: "month", title: r.t("staff.month.title", ["name": name]), body: body)
    }
}
