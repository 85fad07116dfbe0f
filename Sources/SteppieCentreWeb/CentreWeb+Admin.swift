import SteppieCentre
import SteppieCore
import SteppieHTML
import SteppieHTTP
import SteppieSecurity
import SteppieSync

/// The centre's devices and staff, and the admin's acts on them: a joining code (shown with the
/// hub's fingerprint), removing a device, adding or removing a member; a device's group and
/// children are `CentreWeb+Grants.swift`'s. Every role sees the lists; the forms
/// are shown to the roles that may use them, and every act is checked on the server twice: the
/// session's role here (`StaffRole.permits`), then the role the database holds now, in the act's
/// own transaction (`CentreStore.authorize`).
extension CentreWeb {
    /// A joining code is valid this long (a household hub's `SyncInvitation.validMinutes`).
    static let inviteMinutes = 10

    func adminPage(_ r: CentreRequest, _ session: CentreStore.StaffSession, status: Int = 200, error: String? = nil,
                   notice: String? = nil, extra: HTML = "") -> HTTPResponse {
        let role = session.staff.role
        let devices: [CentreStore.Device], staff: [Staff], children: [(id: String, name: String)], groups: [CentreStore.Group]
        do {
            devices = try config.store.devices()
            staff = try config.store.staff()
            children = try config.store.children()
            groups = try config.store.groups()
        } catch {
            return r.failure(error)
        }
        var body = extra
        body += "<section aria-labelledby=\"invite-h\"><h2 id=\"invite-h\">\(r.t("staff.admin.invite"))</h2>"
        if role.permits(.makeJoiningCodes) {
            body += "<form method=\"post\" action=\"/staff/invite\" data-form=\"invite\">\(r.csrf)<fieldset><legend>\(r.t("staff.admin.inviteChildren"))</legend>"
            for child in children {
                body += "<span class=\"check\"><input type=\"checkbox\" id=\"c-\(child.id)\" name=\"child-\(child.id)\" value=\"on\">"
                body += "<label for=\"c-\(child.id)\">\(child.name)</label></span>"
            }
            body += "</fieldset><button type=\"submit\">\(r.t("staff.admin.makeCode"))</button></form>"
        } else {
            body += "<p>\(r.t("staff.admin.onlyAdmins"))</p>"
        }
        body += "</section><section aria-labelledby=\"devices-h\"><h2 id=\"devices-h\">\(r.t("staff.overview.devices"))</h2><ul class=\"devices\">"
        for device in devices {
            body += deviceItem(r, role, device, groups: groups, children: children)
        }
        body += "</ul>"
        if devices.isEmpty { body += "<p>\(r.t("staff.admin.noDevices"))</p>" }
        body += "</section><section aria-labelledby=\"staff-h\"><h2 id=\"staff-h\">\(r.t("staff.admin.staff"))</h2><ul>"
        for member in staff {
            body += "<li data-staff=\"\(member.name)\"><span>\(member.name) · \(r.t("hub.staff.role." + member.role.rawValue))</span>"
            if role.permits(.manageStaff) {
                body += " <form method=\"post\" action=\"/staff/staff/remove\" class=\"inline\" data-form=\"remove-staff\">\(r.csrf)"
                body += "<input type=\"hidden\" name=\"name\" value=\"\(member.name)\">"
                body += "<button type=\"submit\" class=\"quiet\">\(r.t("staff.admin.removeStaff", ["name": member.name]))</button></form>"
            }
            body += "</li>"
        }
        body += "</ul>"
        if role.permits(.manageStaff) {
            body += "<form method=\"post\" action=\"/staff/staff/add\" data-form=\"add-staff\">\(r.csrf)"
            body += "<p><label for=\"staff-name\">\(r.t("staff.signIn.name"))</label><input id=\"staff-name\" name=\"name\" required maxlength=\"60\"></p>"
            body += "<p><label for=\"staff-password\">\(r.t("staff.signIn.password"))</label>"
            body += "<input id=\"staff-password\" name=\"password\" type=\"password\" autocomplete=\"new-password\" required minlength=\"\(String(CentreStore.minimumPasswordLength))\"></p>"
            body += "<p><label for=\"staff-role\">\(r.t("staff.admin.role"))</label><select id=\"staff-role\" name=\"role\">"
            for option in StaffRole.allCases { body += "<option value=\"\(option.rawValue)\">\(r.t("hub.staff.role." + option.rawValue))</option>" }
            body += "</select></p><button type=\"submit\">\(r.t("staff.admin.addStaff"))</button></form>"
        }
        body += "</section>"
        return r.page(screen: "admin", title: r.t("staff.admin.title"), body: body, status: status, error: error, notice: notice)
    }

    /// Refused before anything is read when the session's role does not permit `action`.
    func permitted(_ r: CentreRequest, _ session: CentreStore.StaffSession, _ action: StaffAction) -> HTTPResponse? {
        session.staff.role.permits(action) ? nil : r.refused(403)
    }

    /// A store refusal as a page shows it (the admin page unless `page` is given): 403 for a role
    /// that may not, 400 with the store's sentence in the page's language otherwise.
    func refusal(_ r: CentreRequest, _ session: CentreStore.StaffSession, _ error: any Error,
                 page: ((Int, String) -> HTTPResponse)? = nil) -> HTTPResponse {
        switch error {
        case CentreStaffError.notPermitted, CentreStaffError.notStaff: return r.refused(403)
        case is CentreStaffError:
            let message = r.message(error)
            return page?(400, message) ?? adminPage(r, session, status: 400, error: message)
        default: return r.failure(error)
        }
    }

    func invite(_ r: CentreRequest, _ session: CentreStore.StaffSession) -> HTTPResponse {
        if let refused = permitted(r, session, .makeJoiningCodes) { return refused }
        do {
            let known = try config.store.children()
            let chosen = known.filter { r.http.form["child-\($0.id)"] == "on" }
            let digits = Secrets.randomDigits(8)
            let expires = SyncProtocol.milliseconds(r.now) + Int64(Self.inviteMinutes) * 60_000
            // None ticked: every child the hub holds, as `steppie hub invite` without `--child`.
            try config.store.invite(codeHash: PostgresSyncHub.codeHash(digits), children: (chosen.isEmpty ? known : chosen).map(\.id),
                                    expiresAt: expires, actor: session.staff)
            let code = digits.prefix(4) + "-" + digits.suffix(4)
            var shown: HTML = "<section class=\"joining-code\" aria-labelledby=\"code-h\"><h2 id=\"code-h\">\(r.t("staff.admin.codeTitle"))</h2>"
            shown += "<p>\(r.t("staff.admin.code"))<strong data-code>\(String(code))</strong></p>"
            shown += "<p>\(r.t("staff.admin.fingerprint"))<code data-fingerprint>\(config.fingerprint)</code></p>"
            shown += "<p class=\"hint\">\(r.t("staff.admin.codeValid", ["minutes": String(Self.inviteMinutes)]))</p></section>"
            return adminPage(r, session, extra: shown)
        } catch {
            return refusal(r, session, error)
        }
    }

    func removeDevice(_ r: CentreRequest, _ session: CentreStore.StaffSession) -> HTTPResponse {
        if let refused = permitted(r, session, .removeDevices) { return refused }
        guard let device = r.http.form["device"].flatMap(DeviceID.init) else { return r.refused(404) }
        do {
            guard try config.store.remove(device: device, actor: session.staff) else { return r.refused(404) }
            return see("/staff/admin")
        } catch {
            return refusal(r, session, error)
        }
    }

    func addStaff(_ r: CentreRequest, _ session: CentreStore.StaffSession) -> HTTPResponse {
        if let refused = permitted(r, session, .manageStaff) { return refused }
        guard let role = r.http.form["role"].flatMap(StaffRole.init(rawValue:)) else { return r.refused(403) }
        do {
            _ = try config.store.addStaff(name: r.http.form["name"] ?? "", password: r.http.form["password"] ?? "", role: role,
                                          actor: session.staff)
            return see("/staff/admin")
        } catch {
            return refusal(r, session, error)
        }
    }

    /// Removes a member, by an admin: their sessions end at once (the session lookup joins
    /// `staff.removed_at`); the store keeps the last admin (`lastAdmin`, shown as the page's error).
    func removeStaff(_ r: CentreRequest, _ session: CentreStore.StaffSession) -> HTTPResponse {
        if let refused = permitted(r, session, .manageStaff) { return refused }
        do {
            try config.store.removeStaff(name: r.http.form["name"] ?? "", actor: session.staff)
            return see("/staff/admin")
        } catch {
            return refusal(r, session, error)
        }
    }
}
