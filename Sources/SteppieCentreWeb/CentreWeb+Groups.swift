import SteppieCentre
import SteppieHTML
import SteppieHTTP

/// The groups page (`/staff/groups`): every group with its children and how many devices have
/// it, for every role; the forms — make a group, remove one, put a child in or take one out — only
/// for the roles that may (`StaffAction.manageGroups`), and each act checked on the server as the
/// admin page's are (`permitted`, then the store's `authorize` in the act's transaction).
extension CentreWeb {
    func groupsPage(_ r: CentreRequest, _ session: CentreStore.StaffSession, status: Int = 200, error: String? = nil) -> HTTPResponse {
        let groups: [CentreStore.Group], children: [(id: String, name: String)]
        do {
            groups = try config.store.groups()
            children = try config.store.children()
        } catch {
            return r.failure(error)
        }
        let names = Dictionary(children.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let editing = session.staff.role.permits(.manageGroups)
        var body: HTML = ""
        if editing {
            body += "<form method=\"post\" action=\"/staff/group/add\" data-form=\"add-group\">\(r.csrf)"
            body += "<p><label for=\"group-name\">\(r.t("staff.groups.name"))</label><input id=\"group-name\" name=\"group\" required maxlength=\"60\">"
            body += " <button type=\"submit\">\(r.t("staff.groups.add"))</button></p></form>"
        } else {
            body += "<p>\(r.t("staff.groups.onlyEditors"))</p>"
        }
        if groups.isEmpty { body += "<p data-empty>\(r.t("staff.groups.none"))</p>" }
        for group in groups {
            let heading = "group-\(group.id)-h"
            body += "<section class=\"group\" data-group=\"\(group.name)\" aria-labelledby=\"\(heading)\"><h2 id=\"\(heading)\">\(group.name)</h2>"
            body += "<p>\(r.t("staff.groups.devices", ["count": String(group.devices.count)]))</p>"
            if group.children.isEmpty { body += "<p>\(r.t("staff.groups.noChildren"))</p>" }
            body += "<ul class=\"members\">"
            for child in group.children {
                let name = names[child] ?? child
                body += "<li data-child-id=\"\(child)\"><span>\(name)</span>"
                if editing {
                    body += " <form method=\"post\" action=\"/staff/group/child/remove\" class=\"inline\" data-form=\"remove-group-child\">\(r.csrf)"
                    body += "<input type=\"hidden\" name=\"group\" value=\"\(group.name)\"><input type=\"hidden\" name=\"child\" value=\"\(child)\">"
                    body += "<button type=\"submit\" class=\"quiet\">\(r.t("staff.groups.takeOut", ["child": name, "group": group.name]))</button></form>"
                }
                body += "</li>"
            }
            body += "</ul>"
            let outside = children.filter { !group.children.contains($0.id) }
            if editing, !outside.isEmpty {
                let select = "group-\(group.id)-child"
                body += "<form method=\"post\" action=\"/staff/group/child/add\" class=\"inline\" data-form=\"add-group-child\">\(r.csrf)"
                body += "<input type=\"hidden\" name=\"group\" value=\"\(group.name)\">"
                body += "<label for=\"\(select)\">\(r.t("staff.groups.child"))</label><select id=\"\(select)\" name=\"child\">"
                for child in outside { body += "<option value=\"\(child.id)\">\(child.name)</option>" }
                body += "</select> <button type=\"submit\">\(r.t("staff.groups.putIn", ["group": group.name]))</button></form>"
            }
            if editing {
                body += "<form method=\"post\" action=\"/staff/group/remove\" data-form=\"remove-group\">\(r.csrf)"
                body += "<input type=\"hidden\" name=\"group\" value=\"\(group.name)\">"
                body += "<p><button type=\"submit\" class=\"quiet\">\(r.t("staff.groups.remove", ["group": group.name]))</button> "
                body += "<span class=\"hint\">\(r.t("staff.groups.removeHint"))</span></p></form>"
            }
            body += "</section>"
        }
        return r.page(screen: "groups", title: r.t("staff.groups.title"), body: body, status: status, error: error)
    }

    func addGroup(_ r: CentreRequest, _ session: CentreStore.StaffSession) -> HTTPResponse {
        groupAct(r, session) { _ = try config.store.addGroup(name: r.http.form["group"] ?? "", actor: session.staff) }
    }

    func removeGroup(_ r: CentreRequest, _ session: CentreStore.StaffSession) -> HTTPResponse {
        groupAct(r, session) { try config.store.removeGroup(name: r.http.form["group"] ?? "", actor: session.staff) }
    }

    func addGroupChild(_ r: CentreRequest, _ session: CentreStore.StaffSession) -> HTTPResponse {
        groupAct(r, session) {
            try config.store.addGroupChild(group: r.http.form["group"] ?? "", child: r.http.form["child"] ?? "", actor: session.staff)
        }
    }

    func removeGroupChild(_ r: CentreRequest, _ session: CentreStore.StaffSession) -> HTTPResponse {
        groupAct(r, session) {
            try config.store.removeGroupChild(group: r.http.form["group"] ?? "", child: r.http.form["child"] ?? "", actor: session.staff)
        }
    }

    /// One change to the groups: refused before anything is read for a role that may not, then
    /// the store's act; back to the groups page, or the page again with the store's refusal.
    private func groupAct(_ r: CentreRequest, _ session: CentreStore.StaffSession, _ act: () throws -> Void) -> HTTPResponse {
        if let refused = permitted(r, session, .manageGroups) { return refused }
        do {
            try act()
            return see("/staff/groups")
        } catch {
            return refusal(r, session, error) { status, message in groupsPage(r, session, status: status, error: message) }
        }
    }
}
