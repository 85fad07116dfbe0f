import Foundation
import SteppieCentre
import SteppieCore
import SteppieHTML
import SteppieHTTP
import SteppieSync

/// The teachers' overview: a group's children today (current activity, done / total, the last
/// press and its device) and the devices that serve them, with those not heard from. Rendered
/// whole by the server (it reloads itself without scripts); `centre.js` polls
/// `/staff/overview.json` every second and fills the same cells in place.
extension CentreWeb {
    /// What the overview shows, in the page's language: the page and the JSON are built from it.
    struct OverviewModel: Encodable {
        struct Row: Encodable {
            let id: String
            let name: String
            let current: String
            let done: Int
            let total: Int
            let progress: String
            let lastPress: String
        }
        struct DeviceRow: Encodable {
            let id: String
            let name: String
            let silent: Bool
            let status: String
        }
        let group: String
        let day: String
        let children: [Row]
        let devices: [DeviceRow]
    }

    /// The group asked for (`?group=<id>`, `all`), else the first group, else every child.
    private func chosenGroup(_ r: CentreRequest, _ groups: [CentreStore.Group]) -> CentreStore.Group? {
        let asked = r.http.query["group"]
        if asked == "all" { return nil }
        return groups.first { String($0.id) == asked } ?? (asked == nil ? groups.first : nil)
    }

    func overviewModel(_ r: CentreRequest) throws -> (OverviewModel, [CentreStore.Group]) {
        let store = config.store
        let groups = try store.groups()
        let group = chosenGroup(r, groups)
        let devices = try store.devices()
        let children: [String]
        let served: [CentreStore.Device]
        if let group {
            children = group.children
            let mine = Set(group.devices)
            served = devices.filter { mine.contains($0.id) || !Set($0.children).isDisjoint(with: children) }
        } else {
            children = try store.children().map(\.id)
            served = devices
        }
        let day = r.today.description
        let overview = CentreOverview(replica: try store.replica(children: Set(children), dates: day...day), children: children, day: day)
        let names = Dictionary(devices.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let hub = try store.hubDevice()
        let rows = overview.children.map { child -> OverviewModel.Row in
            let press = child.lastPress.map { press -> String in
                let device = press.device == hub ? r.t("staff.overview.hub") : names[press.device] ?? r.t("staff.overview.removedDevice")
                return r.t("staff.overview.pressOn", ["time": r.time(press.at), "device": device])
            }
            return OverviewModel.Row(id: child.id, name: child.name,
                                     current: child.current.map { r.title($0.title) }
                                        ?? r.t(child.total == 0 ? "staff.overview.noRoutines" : "staff.overview.allDone"),
                                     done: child.done, total: child.total,
                                     progress: r.t("staff.overview.progress", ["done": String(child.done), "total": String(child.total)]),
                                     lastPress: press ?? r.t("staff.overview.noPress"))
        }
        let nowMs = SyncProtocol.milliseconds(r.now)
        let deviceRows = served.map { device -> OverviewModel.DeviceRow in
            let silent = device.lastContact.map { nowMs - $0 > Int64(config.silentAfterSeconds) * 1000 } ?? true
            let status: String
            if let last = device.lastContact {
                let when = Date(timeIntervalSince1970: Double(last) / 1000)
                status = silent ? r.t("staff.overview.silentSince", ["time": r.since(when)])
                                : r.t("staff.overview.heardAt", ["time": r.time(when)])
            } else {
                status = r.t("staff.overview.neverHeard")
            }
            return OverviewModel.DeviceRow(id: device.id.text, name: device.name, silent: silent, status: status)
        }
        return (OverviewModel(group: group.map { String($0.id) } ?? "all", day: day, children: rows, devices: deviceRows), groups)
    }

    func overviewPage(_ r: CentreRequest, _ session: CentreStore.StaffSession) -> HTTPResponse {
        let model: OverviewModel, groups: [CentreStore.Group]
        do { (model, groups) = try overviewModel(r) } catch { return r.failure(error) }
        var body: HTML = "<form method=\"get\" action=\"/staff/\" class=\"inline\" data-form=\"group\">"
        body += "<label for=\"group\">\(r.t("staff.overview.group"))</label><select id=\"group\" name=\"group\">"
        for group in groups {
            body += "<option value=\"\(String(group.id))\"\(model.group == String(group.id) ? (" selected" as HTML) : "")>\(group.name)</option>"
        }
        body += "<option value=\"all\"\(model.group == "all" ? (" selected" as HTML) : "")>\(r.t("staff.overview.allChildren"))</option>"
        body += "</select><button type=\"submit\">\(r.t("staff.overview.show"))</button></form>"
        let poll = "/staff/overview.json?group=\(model.group)&lang=\(r.locale)"
        body += "<table class=\"overview\" data-overview data-poll=\"\(poll)\" data-poll-ms=\"\(String(Self.pollMilliseconds))\">"
        body += "<caption>\(r.t("staff.overview.caption", ["date": model.day]))</caption><thead><tr>"
        for key in ["staff.overview.child", "staff.overview.now", "staff.overview.done", "staff.overview.lastPress"] {
            body += "<th scope=\"col\">\(r.t(key))</th>"
        }
        body += "</tr></thead><tbody>"
        for row in model.children {
            body += "<tr data-child-id=\"\(row.id)\"><th scope=\"row\"><a href=\"/staff/child/\(row.id)\">\(row.name)</a></th>"
            body += "<td data-cell=\"current\">\(row.current)</td>"
            body += "<td data-cell=\"progress\" data-done=\"\(row.done)\" data-total=\"\(row.total)\">\(row.progress)</td>"
            body += "<td data-cell=\"last-press\">\(row.lastPress)</td></tr>"
        }
        body += "</tbody></table>"
        if model.children.isEmpty { body += "<p data-empty>\(r.t("staff.overview.noChildren"))</p>" }
        body += "<h2 id=\"devices-h\">\(r.t("staff.overview.devices"))</h2><ul class=\"devices\" aria-labelledby=\"devices-h\" data-devices>"
        for device in model.devices {
            body += "<li data-device-id=\"\(device.id)\" data-silent=\"\(device.silent ? "true" : "false")\"><span>\(device.name)</span> "
            body += "<span data-cell=\"status\">\(device.status)</span></li>"
        }
        body += "</ul>"
        if model.devices.isEmpty { body += "<p>\(r.t("staff.overview.noDevices"))</p>" }
        body += "<p class=\"hint\">\(r.t("staff.overview.silentRule", ["minutes": String(config.silentAfterSeconds / 60)]))</p>"
        return r.page(screen: "overview", title: r.t("staff.overview.title"), body: body, refresh: 5)
    }

    func overviewJSON(_ r: CentreRequest, _ session: CentreStore.StaffSession) -> HTTPResponse {
        do {
            let (model, _) = try overviewModel(r)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return .bytes(200, Array(try encoder.encode(model)), type: "application/json; charset=utf-8", headers: Self.securityHeaders)
        } catch {
            return .error(503, "unavailable")
        }
    }
}
