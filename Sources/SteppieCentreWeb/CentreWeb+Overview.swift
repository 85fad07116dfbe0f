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

    /// The group asked for (`?group=<id>`, `all`), else the first group, else every child; only
    /// that group is read (the page polls every second).
    private func chosenGroup(_ r: CentreRequest) throws -> CentreStore.Group? {
        switch r.http.query["group"] {
        case nil: return try config.store.firstGroup()
        case "all": return nil
        case let asked?: return try Int64(asked).flatMap { try config.store.group(id: $0) }
        }
    }

    /// The overview of the chosen group: its children's day and the devices that serve them (given
    /// the group, or holding one of its children, their own or through another group).
    func overviewModel(_ r: CentreRequest) throws -> OverviewModel {
        let store = config.store
        let group = try chosenGroup(r)
        let children: [String]
        let served: [CentreStore.Device]
        if let group {
            children = group.children
            served = try store.devices(serving: group.id, children: children)
        } else {
            children = try store.children().map(\.id)
            served = try store.devices()
        }
        let day = r.today.description
        let overview = CentreOverview(replica: try store.replica(children: Set(children), dates: day...day), children: children, day: day)
        let hub = try store.hubDevice()
        // A press may have been made on a device that no longer serves the group (given another
        // group since): its name is read too; a removed device has none.
        var names = Dictionary(served.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let others = Set(overview.children.compactMap { $0.lastPress?.device }).subtracting(names.keys).subtracting([hub])
        names.merge(try store.deviceNames(others)) { kept, _ in kept }
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
        return OverviewModel(group: group.map { String($0.id) } ?? "all", day: day, children: rows, devices: deviceRows)
    }

    func overviewPage(_ r: CentreRequest, _ session: CentreStore.StaffSession) -> HTTPResponse {
        let model: OverviewModel, groups: [(id: Int64, name: String)]
        do { (model, groups) = (try overviewModel(r), try config.store.groupNames()) } catch { return r.failure(error) }
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
            let model = try overviewModel(r)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return .bytes(200, Array(try encoder.encode(model)), type: "application/json; charset=utf-8", headers: Self.securityHeaders)
        } catch {
            return .error(503, "unavailable")
        }
    }
}
