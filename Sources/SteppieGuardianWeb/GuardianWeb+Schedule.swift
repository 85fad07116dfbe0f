import Foundation
import SteppieCore
import SteppieStore
import SteppieHTML

/// The weekly schedule of a child's sets, on the routines page.
extension GuardianWeb {
    /// The weekly schedule of the child's sets: each slot with a remove button, and a form to add
    /// one (weekdays, a start time, a set). The service switches sets at those times, screen or not.
    func scheduleSection(_ r: Request, child: Child, sets: [RoutineSet]) -> HTML {
        let id = child.id.lowercased
        let schedule = (try? r.store.schedule(childId: child.id)) ?? WeeklySchedule()
        let names = Dictionary(sets.map { ($0.id, r.title($0.name)) }, uniquingKeysWith: { a, _ in a })
        var h: HTML = "<section aria-labelledby=\"schedule-h\"><h2 id=\"schedule-h\">\(r.t("web.schedule.title"))</h2>"
        h += "<p class=\"hint\">\(r.t("web.schedule.hint"))</p>"
        if schedule.isEmpty {
            h += "<p>\(r.t("web.schedule.none"))</p>"
        } else {
            h += "<table class=\"schedule\"><thead><tr><th scope=\"col\">\(r.t("web.schedule.day"))</th>"
            h += "<th scope=\"col\">\(r.t("web.schedule.from"))</th><th scope=\"col\">\(r.t("web.schedule.set"))</th><th scope=\"col\"></th></tr></thead><tbody>"
            for slot in schedule.slots {
                let day = r.t("web.weekdayLong.\(slot.weekday.code)")
                h += "<tr data-weekday=\"\(slot.weekday.code)\"><th scope=\"row\">\(day)</th><td>\(slot.start.description)</td>"
                h += "<td>\(names[slot.routineSetId] ?? "?")</td><td>"
                h += "<form method=\"post\" action=\"/guardian/child/\(id)/schedule\" class=\"inline\">\(r.csrf)"
                h += "<input type=\"hidden\" name=\"remove\" value=\"\(slot.weekday.code)\">"
                h += "<button type=\"submit\" class=\"quiet\" aria-label=\"\(r.t("web.schedule.removeLabel", ["day": day]))\">\(r.t("web.schedule.remove"))</button></form></td></tr>"
            }
            h += "</tbody></table>"
        }
        h += "<form method=\"post\" action=\"/guardian/child/\(id)/schedule\" data-form=\"schedule\">\(r.csrf)"
        h += "<fieldset class=\"days\"><legend>\(r.t("web.schedule.days"))</legend>"
        for day in Weekday.allCases {
            h += "<span class=\"check\"><input type=\"checkbox\" id=\"day-\(day.code)\" name=\"day-\(day.code)\" value=\"on\">"
            h += "<label for=\"day-\(day.code)\">\(r.t("web.weekday.\(day.code)"))</label></span>"
        }
        h += "</fieldset><p><label for=\"schedule-from\">\(r.t("web.schedule.from"))</label>"
        h += "<input id=\"schedule-from\" name=\"from\" type=\"text\" inputmode=\"numeric\" pattern=\"([01][0-9]|2[0-3]):[0-5][0-9]\" maxlength=\"5\" placeholder=\"07:30\" autocomplete=\"off\" required>"
        h += "<label for=\"schedule-set\">\(r.t("web.schedule.set"))</label><select id=\"schedule-set\" name=\"set\">"
        for set in sets { h += "<option value=\"\(set.id.lowercased)\">\(r.title(set.name))</option>" }
        h += "</select> <button type=\"submit\">\(r.t("web.schedule.add"))</button></p></form></section>"
        return h
    }

    func saveSchedule(_ r: inout Request, _ child: Child) -> WebResponse {
        do {
            if let code = r.web.form["remove"] {
                guard let day = Weekday(code: code) else { throw FormError(field: "remove", key: "web.error.choice") }
                _ = try r.store.clearSchedule(childId: child.id, weekdays: [day], at: r.now)
            } else {
                let days = Set(Weekday.allCases.filter { r.web.form["day-\($0.code)"] == "on" })
                guard !days.isEmpty else { throw FormError(field: "days", key: "web.error.noDays") }
                let start = try Validator.parseTime(r.web.form["from"] ?? "", field: "from")
                guard let setId = r.web.form["set"].flatMap(UUID.init(uuidString:)),
                      let set = try? r.store.set(id: setId), set.childId == child.id, set.deletedAt == nil else {
                    throw FormError(field: "set", key: "web.error.choice")
                }
                _ = try r.store.setScheduleEntry(childId: child.id, ScheduleEntry(weekdays: days, start: start, routineSetId: set.id), at: r.now)
            }
            r.nextNotice = r.t("web.saved")
            return .seeOther("/guardian/child/\(child.id.lowercased)/routines#schedule-h")
        } catch {
            return routinesPage(r, child, status: 400, error: r.pageError(error))
        }
    }
}
