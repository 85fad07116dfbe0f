import SteppieCentre
import SteppieHTML
import SteppieHTTP
import SteppieSync

/// What each device gets, on the admin page: its group and its own children, shown to every
/// role; the forms to give it a group (or none) and to choose its own children (checkboxes) only
/// to the roles that may (`StaffAction.grantChildren`), and the remove button only to an admin.
extension CentreWeb {
    /// One device's item in the admin page's list.
    func deviceItem(_ r: CentreRequest, _ role: StaffRole, _ device: CentreStore.Device, groups: [CentreStore.Group],
                    children: [(id: String, name: String)]) -> HTML {
        let names = Dictionary(children.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let group = groups.first { $0.devices.contains(device.id) }
        let own = device.children.sorted()
        let key = device.id.text
        var item: HTML = "<li class=\"device\" data-device-id=\"\(key)\" data-group=\"\(group?.name ?? "")\"><p class=\"grants\"><span class=\"device-name\">\(device.name)</span>"
        item += " <span data-cell=\"group\">\(r.t("staff.admin.deviceGroup", ["group": group?.name ?? r.t("staff.admin.noGroup")]))</span>"
        let ownNames = own.map { names[$0] ?? $0 }.joined(separator: ", ")
        item += " · <span data-cell=\"children\">\(r.t("staff.admin.deviceChildren", ["children": own.isEmpty ? r.t("staff.admin.noChildren") : ownNames]))</span></p>"
        if role.permits(.grantChildren) {
            item += "<form method=\"post\" action=\"/staff/device/group\" class=\"inline\" data-form=\"device-group\">\(r.csrf)"
            item += "<input type=\"hidden\" name=\"device\" value=\"\(key)\">"
            item += "<label for=\"g-\(key)\">\(r.t("staff.admin.groupFor", ["device": device.name]))</label><select id=\"g-\(key)\" name=\"group\">"
            item += "<option value=\"\"\(group == nil ? (" selected" as HTML) : "")>\(r.t("staff.admin.noGroup"))</option>"
            for option in groups {
                item += "<option value=\"\(option.name)\"\(option.id == group?.id ? (" selected" as HTML) : "")>\(option.name)</option>"
            }
            item += "</select> <button type=\"submit\">\(r.t("staff.admin.giveGroup"))</button></form>"
            // Children the hub no longer shows (archived) but the device still has stay choices, ticked.
            let choices = children + own.filter { names[$0] == nil }.map { (id: $0, name: $0) }
            if !choices.isEmpty {
                item += "<form method=\"post\" action=\"/staff/device/children\" data-form=\"device-children\">\(r.csrf)"
                item += "<input type=\"hidden\" name=\"device\" value=\"\(key)\">"
                item += "<fieldset><legend>\(r.t("staff.admin.childrenFor", ["device": device.name]))</legend>"
                for child in choices {
                    let id = "d-\(key)-c-\(child.id)"
                    item += "<span class=\"check\"><input type=\"checkbox\" id=\"\(id)\" name=\"child-\(child.id)\" value=\"on\"\(own.contains(child.id) ? (" checked" as HTML) : "")>"
                    item += "<label for=\"\(id)\">\(child.name)</label></span>"
                }
                item += "</fieldset><button type=\"submit\">\(r.t("staff.admin.giveChildren"))</button></form>"
            }
        }
        if role.permits(.removeDevices) {
            item += "<form method=\"post\" action=\"/staff/device/remove\" class=\"inline\" data-form=\"remove-device\">\(r.csrf)"
            item += "<input type=\"hidden\" name=\"device\" value=\"\(key)\">"
            item += "<button type=\"submit\" class=\"quiet\">\(r.t("staff.admin.removeDevice", ["device": device.name]))</button></form>"
        }
        return item + "</li>"
    }

    /// Gives a device a group, or none (an empty `group`).
    func giveGroup(_ r: CentreRequest, _ session: CentreStore.StaffSession) -> HTTPResponse {
        if let refused = permitted(r, session, .grantChildren) { return refused }
        guard let device = r.http.form["device"].flatMap(DeviceID.init) else { return r.refused(404) }
        let group = r.http.form["group"].flatMap { $0.isEmpty ? nil : $0 }
        do {
            try config.store.giveGroup(device: device, group: group, actor: session.staff)
            return see("/staff/admin")
        } catch {
            return refusal(r, session, error)
        }
    }

    /// Gives a device the ticked children as its own (none ticked: none of its own; its group's it keeps).
    func grantChildren(_ r: CentreRequest, _ session: CentreStore.StaffSession) -> HTTPResponse {
        if let refused = permitted(r, session, .grantChildren) { return refused }
        guard let device = r.http.form["device"].flatMap(DeviceID.init) else { return r.refused(404) }
        do {
            let held = try config.store.devices().first { $0.id == device }?.children ?? []
            // Only children the hub holds, or the device has already: a forged field grants nothing else.
            let known = Set(try config.store.children().map(\.id)).union(held)
            let chosen = known.filter { r.http.form["child-\($0)"] == "on" }.sorted()
            try config.store.grant(device: device, children: chosen, actor: session.staff)
            return see("/staff/admin")
        } catch {
            return refusal(r, session, error)
        }
    }
}
