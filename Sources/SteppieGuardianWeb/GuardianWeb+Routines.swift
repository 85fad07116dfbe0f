import Foundation
import SteppieCore
import SteppieStore
import SteppieHTML

/// Sets and routines: create a set (from a template or by name), activate it; add, edit, reorder
/// (drag, or the up and down buttons for keyboards and switches), delete and restore routines,
/// with the icon picker, the colour tokens, a time and a photo (JPEG or PNG by content, ≤ 5 MiB).
extension GuardianWeb {
    func routinesPage(_ r: Request, _ child: Child, status: Int = 200, error: PageError? = nil) -> WebResponse {
        let id = child.id.lowercased
        let sets = (try? r.store.sets(childId: child.id)) ?? []
        let chosen = r.web.query["set"].flatMap(UUID.init(uuidString:)).flatMap { wanted in sets.first { $0.id == wanted } }
            ?? sets.first(where: \.isActive) ?? sets.first
        var body = childLinks(r, child, current: "routines")
        body += "<section aria-labelledby=\"sets-h\"><h2 id=\"sets-h\">\(r.t("web.sets.title"))</h2><ul class=\"sets\">"
        for set in sets {
            let count = ((try? r.store.routines(setId: set.id)) ?? []).filter(\.isVisible).count
            body += "<li data-set-id=\"\(set.id.lowercased)\"\(set.isActive ? (" data-active=\"true\"" as HTML) : ("" as HTML))>"
            body += "<a href=\"/guardian/child/\(id)/routines?set=\(set.id.lowercased)\"\(set.id == chosen?.id ? (" aria-current=\"true\"" as HTML) : ("" as HTML))>"
            body += "\(r.title(set.name))</a> <span class=\"count\">\(r.t("web.sets.count", ["count": String(count)]))</span>"
            let sid = set.id.lowercased, name = r.title(set.name)
            if set.isActive {
                body += " <span class=\"badge\">\(r.t("web.sets.active"))</span>"
            } else {
                body += "<form method=\"post\" action=\"/guardian/set/\(sid)/activate\" class=\"inline\">\(r.csrf)"
                body += "<button type=\"submit\" aria-label=\"\(r.t("web.sets.activateLabel", ["name": name]))\">\(r.t("web.sets.activate"))</button></form>"
                body += "<form method=\"post\" action=\"/guardian/set/\(sid)/delete\" class=\"inline\">\(r.csrf)"
                body += "<button type=\"submit\" class=\"quiet\" aria-label=\"\(r.t("web.sets.deleteLabel", ["name": name]))\">\(r.t("web.routines.delete"))</button></form>"
            }
            body += "<form method=\"post\" action=\"/guardian/set/\(sid)/rename\" class=\"inline\" data-form=\"rename-set\">\(r.csrf)"
            body += "<input id=\"rename-\(sid)\" name=\"name\" value=\"\(name)\" maxlength=\"200\" required"
            body += " aria-label=\"\(r.t("web.sets.renameLabel", ["name": name]))\">"
            body += "<button type=\"submit\" class=\"quiet\">\(r.t("web.sets.rename"))</button></form>"
            body += "</li>"
        }
        body += "</ul>"
        body += """
        <form method="post" action="/guardian/child/\(id)/sets" data-form="set" class="inline">\(r.csrf)
        <span class="field"><label for="template">\(r.t("web.sets.template"))</label>
        <select id="template" name="template"><option value="">\(r.t("web.sets.empty"))</option>
        """
        for template in Template.allCases {
            body += "<option value=\"\(template.rawValue)\">\(r.title(template.name))</option>"
        }
        body += """
        </select></span>
        <span class="field"><label for="set-name">\(r.fieldLabel("routineSet.name"))</label>
        <input id="set-name" name="name" maxlength="200"></span>
        <button type="submit">\(r.t("web.sets.create"))</button>
        </form></section>
        """
        if let set = chosen { body += routineList(r, child: child, set: set, error: error) }
        body += scheduleSection(r, child: child, sets: sets)
        return r.page(screen: "routines", titleKey: "web.routines.title", titleArgs: ["name": child.displayName], status: status,
                      error: error, body: body)
    }

    private func routineList(_ r: Request, child: Child, set: RoutineSet, error: PageError?) -> HTML {
        let sid = set.id.lowercased
        let all = (try? r.store.routines(setId: set.id, includeDeleted: true)) ?? []
        let visible = all.filter(\.isVisible).sorted { $0.order < $1.order }
        var h: HTML = "<section aria-labelledby=\"routines-h\"><h2 id=\"routines-h\">\(r.title(set.name))</h2>"
        h += "<p><a href=\"/guardian/set/\(sid)/print\" data-link=\"print-schedule\">\(r.t("web.print.schedule"))</a></p>"
        h += "<p class=\"hint\" id=\"reorder-hint\">\(r.t("web.routines.reorderHint"))</p>"
        h += "<ol class=\"routines\" data-list=\"routines\" data-set-id=\"\(sid)\" data-csrf=\"\(r.session?.csrf ?? "")\" aria-describedby=\"reorder-hint\">"
        for (i, routine) in visible.enumerated() {
            let rid = routine.id.lowercased
            let title = r.title(routine.title)
            h += "<li draggable=\"true\" data-routine-id=\"\(rid)\" class=\"tone-\(CardColor(token: routine.colorToken)?.rawValue ?? "sky")\">"
            h += iconImage(r, routine.icon) + "<span class=\"title\">\(title)</span>"
            if let time = routine.scheduledTime { h += " <span class=\"time\">\(time.description)</span>" }
            h += "<span class=\"actions\">"
            for (direction, key, enabled) in [("up", "web.routines.up", i > 0), ("down", "web.routines.down", i < visible.count - 1)] {
                h += "<form method=\"post\" action=\"/guardian/routine/\(rid)/move\" class=\"inline\">\(r.csrf)"
                h += "<input type=\"hidden\" name=\"direction\" value=\"\(direction)\">"
                h += "<button type=\"submit\" data-move=\"\(direction)\"\(enabled ? "" : " disabled") aria-label=\"\(r.t(key, ["title": title]))\">\(direction == "up" ? "↑" : "↓")</button></form>"
            }
            h += "<a href=\"/guardian/routine/\(rid)\" aria-label=\"\(r.t("web.routines.editLabel", ["title": title]))\">\(r.t("web.routines.edit"))</a>"
            h += "<form method=\"post\" action=\"/guardian/routine/\(rid)/delete\" class=\"inline\">\(r.csrf)"
            h += "<button type=\"submit\" class=\"quiet\" aria-label=\"\(r.t("web.routines.deleteLabel", ["title": title]))\">\(r.t("web.routines.delete"))</button></form>"
            h += "</span></li>"
        }
        h += "</ol>"
        if visible.isEmpty { h += "<p>\(r.t("web.routines.none"))</p>" }
        let deleted = all.filter { $0.deletedAt != nil }
        if !deleted.isEmpty {
            h += "<h3>\(r.t("web.routines.deleted"))</h3><ul class=\"deleted\">"
            for routine in deleted {
                h += "<li data-routine-id=\"\(routine.id.lowercased)\">\(r.title(routine.title))"
                h += "<form method=\"post\" action=\"/guardian/routine/\(routine.id.lowercased)/restore\" class=\"inline\">\(r.csrf)"
                h += "<button type=\"submit\">\(r.t("web.routines.restore"))</button></form></li>"
            }
            h += "</ul>"
        }
        h += "<h3 id=\"add-routine-h\">\(r.t("web.routines.add"))</h3>"
        h += routineForm(r, action: "/guardian/set/\(sid)/add", routine: nil, labelledBy: "add-routine-h", error: error)
        return h + "</section>"
    }

    /// The routine form (add and edit): titles, icon, colour, time, photo. After a refused routine
    /// form (`error`, and the request carries that form's fields) it shows what the guardian
    /// entered, not the stored values, and marks the refused field; only the photo must be chosen again.
    func routineForm(_ r: Request, action: String, routine: Routine?, labelledBy: String, error: PageError? = nil) -> HTML {
        let entered: [String: String]? = error != nil && (r.web.form["titleKo"] != nil || r.web.form["titleEn"] != nil) ? r.web.form : nil
        func value(_ field: String, _ stored: String?) -> HTML { HTML(escaping: entered.map { $0[field] ?? "" } ?? stored ?? "") }
        func invalid(_ field: String) -> HTML {
            entered != nil && error?.field == field ? " aria-invalid=\"true\" aria-describedby=\"form-error\"" : ""
        }
        let storedIcon: String? = { if case .builtin(let name)? = routine?.icon { return name }; return nil }()
        let icon = entered?["icon"] ?? storedIcon
        var h: HTML = """
        <form method="post" action="\(action)" enctype="multipart/form-data" data-form="routine" aria-labelledby="\(labelledBy)">\(r.csrf)
        <p><label for="titleKo">\(r.fieldLabel("titleKo"))</label>
        <input id="titleKo" name="titleKo" lang="ko" maxlength="200" value="\(value("titleKo", routine?.title.value(for: "ko")))"\(invalid("titleKo"))></p>
        <p><label for="titleEn">\(r.fieldLabel("titleEn"))</label>
        <input id="titleEn" name="titleEn" lang="en" maxlength="200" value="\(value("titleEn", routine?.title.value(for: "en")))"\(invalid("titleEn"))></p>
        <p><label for="scheduledTime">\(r.fieldLabel("scheduledTime"))</label>
        <input id="scheduledTime" name="scheduledTime" type="text" inputmode="numeric" pattern="([01][0-9]|2[0-3]):[0-5][0-9]" maxlength="5" placeholder="07:30" autocomplete="off" value="\(value("scheduledTime", routine?.scheduledTime?.description))"\(invalid("scheduledTime"))></p>
        <fieldset class="icons"\(invalid("icon"))><legend>\(r.fieldLabel("icon"))</legend>
        """
        for builtin in BuiltinIcons.all {
            let checked = (icon ?? (routine == nil ? "star" : nil)) == builtin.name
            h += "<label class=\"icon-choice\"><input type=\"radio\" name=\"icon\" value=\"\(builtin.name)\"\(checked ? " checked" : "")>"
            h += "<img src=\"/icons/\(builtin.name).svg\" alt=\"\" width=\"40\" height=\"40\"><span>\(r.title(builtin.label))</span></label>"
        }
        h += "</fieldset><fieldset class=\"colors\"\(invalid("colorToken"))><legend>\(r.fieldLabel("colorToken"))</legend>"
        let color = entered?["colorToken"] ?? routine?.colorToken ?? CardColor.sky.token
        for c in CardColor.allCases {
            h += "<label class=\"color-choice tone-\(c.rawValue)\"><input type=\"radio\" name=\"colorToken\" value=\"\(c.token)\"\(color == c.token ? " checked" : "")>"
            h += "<span>\(r.t("web.color.\(c.rawValue)"))</span></label>"
        }
        h += """
        </fieldset>
        <p><label for="photo">\(r.fieldLabel("photo"))</label>
        <input id="photo" name="photo" type="file" accept="image/jpeg,image/png" aria-describedby="photo-hint">
        <span id="photo-hint" class="hint">\(r.t("web.routines.photoHint"))</span></p>
        """
        if case .photo(_, let asset)? = routine?.icon {
            h += "<p><img src=\"/guardian/photos/\(asset)\" alt=\"\(r.t("web.routines.currentPhoto"))\" class=\"photo\" width=\"120\" height=\"120\"></p>"
            h += "<p class=\"check\"><input type=\"checkbox\" id=\"removePhoto\" name=\"removePhoto\" value=\"on\"><label for=\"removePhoto\">\(r.t("web.routines.removePhoto"))</label></p>"
        }
        h += "<p><button type=\"submit\">\(r.t(routine == nil ? "web.routines.addButton" : "web.action.save"))</button></p></form>"
        return h
    }

    func iconImage(_ r: Request, _ icon: IconRef) -> HTML {
        switch icon {
        case .builtin(let name):
            let label = BuiltinIcons.label(of: name).map(r.title) ?? name
            return "<img src=\"/icons/\(BuiltinIcons.contains(name) ? name : "star").svg\" alt=\"\(label)\" width=\"48\" height=\"48\" class=\"icon\">"
        case .photo(_, let asset):
            return "<img src=\"/guardian/photos/\(asset)\" alt=\"\(r.t("web.routines.photo"))\" width=\"48\" height=\"48\" class=\"icon photo\">"
        }
    }

    func createSet(_ r: inout Request, _ child: Child) -> WebResponse {
        do {
            let template = try (r.web.form["template"]).flatMap { raw -> Template? in
                if raw.isEmpty { return nil }
                guard let t = Template(rawValue: raw) else { throw FormError(field: "template", key: "web.error.choice") }
                return t
            }
            let name = (r.web.form["name"] ?? "").trimmingCharacters(in: .whitespaces)
            let set = try r.store.createSet(childId: child.id, name: name.isEmpty ? nil : LocalizedText([r.locale: name]),
                                            template: template, at: r.now)
            r.nextNotice = r.t("web.saved")
            return .seeOther("/guardian/child/\(child.id.lowercased)/routines?set=\(set.id.lowercased)")
        } catch {
            return routinesPage(r, child, status: 400, error: r.pageError(error))
        }
    }

    func setAction(_ r: inout Request, set: RoutineSet, action: String) -> WebResponse {
        guard let child = try? r.store.child(id: set.childId) else { return notFound(r) }
        let back = "/guardian/child/\(child.id.lowercased)/routines?set=\(set.id.lowercased)"
        do {
            switch action {
            case "activate": try r.store.activateSet(set.id, at: r.now)
            case "rename":
                let name = (r.web.form["name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                var names = set.name.values
                names[r.locale] = name
                _ = try r.store.renameSet(id: set.id, to: names, at: r.now)
            case "delete":
                _ = try r.store.deleteSet(id: set.id, at: r.now)
                r.nextNotice = r.t("web.saved")
                return .seeOther("/guardian/child/\(child.id.lowercased)/routines")
            case "add": try addRoutine(&r, set: set)
            case "reorder":
                let ids = try (r.web.form["order"] ?? "").split(separator: ",").map { part -> UUID in
                    guard let id = UUID(uuidString: String(part)) else { throw FormError(field: "order", key: "web.error.form") }
                    return id
                }
                try r.store.reorder(setId: set.id, ids: ids, at: r.now)
            default: return notFound(r)
            }
            r.nextNotice = r.t("web.saved")
            if r.web.wantsJSON { return .json("{\"ok\":true}") }
            return .seeOther(back)
        } catch {
            if r.web.wantsJSON { return .json("{\"ok\":false,\"error\":\(Self.jsonString(r.pageError(error).message))}", status: 400) }
            var copy = r
            copy.web.query["set"] = set.id.lowercased
            return routinesPage(copy, child, status: 400, error: r.pageError(error))
        }
    }

    /// The routine form's fields: titles (at least one), icon, colour, time.
    private func readRoutine(_ r: Request, into routine: inout Routine) throws {
        var values: [String: String] = [:]
        for (tag, field) in [("ko", "titleKo"), ("en", "titleEn")] {
            let text = (r.web.form[field] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { values[tag] = text }
        }
        guard !values.isEmpty else { throw FormError(field: "titleKo", key: "web.error.titleMissing") }
        routine.title = LocalizedText(values)
        try Validator.title(routine.title)
        if let icon = r.web.form["icon"] {
            guard BuiltinIcons.contains(icon) else { throw FormError(field: "icon", key: "web.error.choice") }
            routine.icon = .builtin(name: icon)
        }
        if let color = r.web.form["colorToken"] {
            try Validator.colorToken(color)
            routine.colorToken = color
        }
        let time = (r.web.form["scheduledTime"] ?? "").trimmingCharacters(in: .whitespaces)
        routine.scheduledTime = time.isEmpty ? nil : try Validator.parseTime(time, field: "scheduledTime")
    }

    private func addRoutine(_ r: inout Request, set: RoutineSet) throws {
        var draft = Routine(id: UUID(), routineSetId: set.id, title: LocalizedText([:]), order: 0, createdAt: r.now)
        try readRoutine(r, into: &draft)
        let photo = try savePhoto(r)
        do {
            _ = try r.store.addRoutine(setId: set.id, title: draft.title, icon: photo?.icon ?? draft.icon, colorToken: draft.colorToken,
                                       position: nil, scheduledTime: draft.scheduledTime, at: r.now)
        } catch {
            if let photo { unlink(photo.path) }   // nothing saved: no photo left behind
            throw error
        }
        recordPhotoHash(r, photo)
    }

    func routineAction(_ r: inout Request, routine: Routine, action: String) -> WebResponse {
        guard let set = try? r.store.set(id: routine.routineSetId) else { return notFound(r) }
        let back = "/guardian/child/\(set.childId.lowercased)/routines?set=\(set.id.lowercased)"
        if r.web.method == "GET" { return action == "recording" ? recordingFile(r, routine) : action == "show" ? routinePage(r, routine) : notFound(r) }
        if action == "record" { return keepRecording(&r, routine) }
        if action == "unrecord" { return removeRecording(&r, routine) }
        do {
            switch action {
            case "edit":
                var edited = routine
                try readRoutine(r, into: &edited)
                let photo = try savePhoto(r)
                // A new photo wins; a chosen icon replaces the photo; "remove" alone shows the star.
                if let photo { edited.icon = photo.icon } else if r.web.form["removePhoto"] == "on", case .photo = edited.icon {
                    edited.icon = .fallback
                }
                do { try r.store.updateRoutine(edited, at: r.now) } catch {
                    if let photo { unlink(photo.path) }
                    throw error
                }
                recordPhotoHash(r, photo)
                // Replaced: the old photo goes (it would travel in backups), unless history shows it:
                // a completion keeps the picture the child saw (docs/data-contract.md).
                if case .photo(_, let old) = routine.icon, edited.icon != routine.icon, let dir = config.photosDirectory,
                   try !r.store.photoInUse(old) {
                    unlink(dir.appendingPathComponent(old).path)
                }
            case "move":
                let visible = try r.store.routines(setId: set.id).filter(\.isVisible).sorted { $0.order < $1.order }
                guard let index = visible.firstIndex(where: { $0.id == routine.id }) else { throw FormError(field: "routine", key: "web.error.form") }
                let target = r.web.form["direction"] == "up" ? index - 1 : index + 1
                guard ["up", "down"].contains(r.web.form["direction"] ?? "") else { throw FormError(field: "direction", key: "web.error.choice") }
                if (0..<visible.count).contains(target) { try r.store.moveRoutine(id: routine.id, to: target, at: r.now) }
            case "delete": _ = try r.store.deleteRoutine(id: routine.id, at: r.now)
            case "restore": _ = try r.store.restoreRoutine(id: routine.id, at: r.now)
            default: return notFound(r)
            }
            r.nextNotice = r.t("web.saved")
            return .seeOther(back)
        } catch {
            if action == "edit" { return routinePage(r, routine, status: 400, error: r.pageError(error)) }
            guard let child = try? r.store.child(id: set.childId) else { return notFound(r) }
            var copy = r
            copy.web.query["set"] = set.id.lowercased
            return routinesPage(copy, child, status: 400, error: r.pageError(error))
        }
    }

    func routinePage(_ r: Request, _ routine: Routine, status: Int = 200, error: PageError? = nil) -> WebResponse {
        guard let set = try? r.store.set(id: routine.routineSetId) else { return notFound(r) }
        var body: HTML = "<p><a href=\"/guardian/child/\(set.childId.lowercased)/routines?set=\(set.id.lowercased)\">\(r.t("web.routines.back"))</a></p>"
        body += "<h2 id=\"edit-h\">\(r.title(routine.title))</h2>"
        body += routineForm(r, action: "/guardian/routine/\(routine.id.lowercased)/edit", routine: routine, labelledBy: "edit-h", error: error)
        body += recordingsSection(r, routine)
        return r.page(screen: "routine", titleKey: "web.routine.title", titleArgs: ["title": r.title(routine.title)], status: status,
                      error: error, body: body)
    }
}
