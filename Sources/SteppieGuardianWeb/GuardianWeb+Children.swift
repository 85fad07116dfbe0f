import Foundation
import SteppieCore
import SteppieStore
import SteppieHTML

/// The first page after sign-in: every child (archived ones too), with add, rename, language and
/// archive; links to each child's feedback, routines and history.
extension GuardianWeb {
    func home(_ r: Request, status: Int = 200, error: PageError? = nil) -> WebResponse {
        let children = (try? r.store.children(includeArchived: true)) ?? []
        let shown = self.pictures(r)
        var body: HTML = "<section aria-labelledby=\"children-h\"><h2 id=\"children-h\">\(r.t("web.children.list"))</h2>"
        if children.isEmpty { body += "<p>\(r.t("web.children.none"))</p>" }
        body += "<ul class=\"cards\">"
        for child in children {
            let id = child.id.lowercased
            let archived = child.archivedAt != nil
            body += "<li class=\"card\" data-child-id=\"\(id)\"\(archived ? (" data-archived=\"true\"" as HTML) : ("" as HTML))>"
            body += "<h3>\(child.displayName)\(archived ? (" <span class=\"badge\">\(r.t("web.children.archived"))</span>" as HTML) : "")</h3>"
            if !archived {
                // The picture the kiosk's picker shows, with the way to change it.
                body += "<p class=\"picture\" data-picture=\"\(child.picture == nil ? "default" : "chosen")\">\(iconImage(r, shown[child.id] ?? .fallback))"
                body += "<a href=\"/guardian/child/\(id)/picture\">\(r.t("web.picture.change"))</a></p>"
                body += "<p class=\"links\"><a href=\"/guardian/child/\(id)/routines\">\(r.t("web.nav.routines"))</a>"
                body += "<a href=\"/guardian/child/\(id)/feedback\">\(r.t("web.nav.feedback"))</a>"
                body += "<a href=\"/guardian/child/\(id)/history\">\(r.t("web.nav.history"))</a></p>"
            } else {
                body += "<p class=\"links\"><a href=\"/guardian/child/\(id)/history\">\(r.t("web.nav.history"))</a></p>"
            }
            body += """
            <form method="post" action="/guardian/child/\(id)/rename" data-form="child" class="inline">\(r.csrf)
            <span class="field"><label for="name-\(id)">\(r.t("web.field.child.name"))</label>
            <input id="name-\(id)" name="name" value="\(child.displayName)" maxlength="60" required></span>
            <span class="field"><label for="locale-\(id)">\(r.t("web.field.locale"))</label>
            \(localeSelect(r, id: "locale-\(id)", selected: child.profile.locale))</span>
            <button type="submit">\(r.t("web.action.save"))</button>
            </form>
            <form method="post" action="/guardian/child/\(id)/\(archived ? "unarchive" : "archive")" class="inline">\(r.csrf)
            <button type="submit" class="quiet">\(r.t(archived ? "web.children.unarchive" : "web.children.archive"))</button>
            </form></li>
            """
        }
        body += "</ul></section>"
        body += """
        <section aria-labelledby="add-h"><h2 id="add-h">\(r.t("web.children.add"))</h2>
        <form method="post" action="/guardian/children/add" data-form="add-child">\(r.csrf)
        <p><label for="new-name">\(r.t("web.field.child.name"))</label>
        <input id="new-name" name="name" maxlength="60" required></p>
        <p><label for="new-locale">\(r.t("web.field.locale"))</label>\(localeSelect(r, id: "new-locale", selected: nil))</p>
        \(templateChoices(r, chosen: nil, allowNone: true))
        <p><button type="submit">\(r.t("web.children.addButton"))</button></p>
        </form></section>
        """
        body += kioskSettings(r)
        if let lan = config.lan, !config.secureCookies {
            body += "<section aria-labelledby=\"lan-h\" data-lan=\"on\"><h2 id=\"lan-h\">\(r.t("web.lan.title"))</h2>"
            body += "<p>\(r.t("web.lan.address"))<br><a href=\"\(lan.url)\">\(lan.url)</a></p>"
            body += "<p>\(r.t("web.lan.fingerprint"))</p><p class=\"fingerprint\" data-fingerprint=\"\(lan.fingerprint)\">\(lan.fingerprint)</p></section>"
        }
        return r.page(screen: "home", titleKey: "web.home.title", status: status, error: error, body: body)
    }

    func localeSelect(_ r: Request, id: String, selected: String?) -> HTML {
        var h: HTML = "<select id=\"\(id)\" name=\"locale\">"
        for (value, key) in [("system", "web.locale.device"), ("ko", "web.locale.ko"), ("en", "web.locale.en")] {
            let isSelected = (selected ?? "system") == value
            h += "<option value=\"\(value)\"\(isSelected ? " selected" : "")>\(r.t(key))</option>"
        }
        return h + "</select>"
    }

    /// The `locale` field: `system` (follow the device), `ko` or `en`.
    func readLocale(_ r: Request) throws -> String? {
        switch r.web.form["locale"] ?? "system" {
        case "system": return nil
        case let tag where GuardianWeb.locales.contains(tag): return tag
        default: throw FormError(field: "locale", key: "web.error.choice")
        }
    }

    func addChild(_ r: inout Request) -> WebResponse {
        do {
            var profile = FeedbackProfile()
            profile.locale = try readLocale(r)
            let raw = r.web.form["template"] ?? ""
            guard raw.isEmpty || Template(rawValue: raw) != nil else { throw FormError(field: "template", key: "web.error.choice") }
            var added: Child?
            // A child and, when one was chosen, a first set from a template (with its pictures), or neither.
            try r.store.transaction {
                added = try r.store.addChild(name: r.web.form["name"] ?? "", profile: profile, at: r.now)
                if let template = Template(rawValue: raw), let added {
                    try r.store.createSet(childId: added.id, template: template, activate: true, at: r.now)
                }
            }
            guard let child = added else { return notFound(r) }
            r.nextNotice = r.t("web.children.added", ["name": child.displayName])
            return .seeOther("/guardian/")
        } catch {
            return home(r, status: 400, error: r.pageError(error))
        }
    }

    func renameChild(_ r: inout Request, _ child: Child) -> WebResponse {
        do {
            let locale = try readLocale(r)
            let name = r.web.form["name"] ?? ""
            try r.store.transaction {
                if name != child.displayName { try r.store.renameChild(id: child.id, to: name, at: r.now) }
                if locale != child.profile.locale {
                    var patch = ProfilePatch()
                    patch.locale = locale.map { .set($0) } ?? .clear
                    try r.store.updateProfile(childId: child.id, patch, at: r.now)
                }
            }
            r.nextNotice = r.t("web.saved")
            return .seeOther("/guardian/")
        } catch {
            return home(r, status: 400, error: r.pageError(error))
        }
    }

    func archiveChild(_ r: inout Request, _ child: Child, archive: Bool) -> WebResponse {
        do {
            if archive { try r.store.archiveChild(id: child.id, at: r.now) } else { _ = try r.store.unarchiveChild(id: child.id, at: r.now) }
            r.nextNotice = r.t("web.saved")
            return .seeOther("/guardian/")
        } catch {
            return home(r, status: 400, error: r.pageError(error))
        }
    }
}
