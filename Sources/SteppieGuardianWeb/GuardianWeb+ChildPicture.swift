import Foundation
import SteppieCore
import SteppieStore
import SteppieHTML

/// A child's picture on the kiosk's picker (a builtin icon or a photo, by the routines' photo
/// rule) and the device setting that lets siblings switch from the child's page (docs/kiosk.md).
extension GuardianWeb {
    /// Every child's picture as the picker draws it: chosen, or the default siblings do not share.
    func pictures(_ r: Request) -> [UUID: IconRef] {
        ChildPictures.resolve((try? r.store.children()) ?? [])
    }

    /// `GET /guardian/child/<id>/picture`: the icons, a photo upload and, with a photo, "remove".
    func picturePage(_ r: Request, _ child: Child, status: Int = 200, error: PageError? = nil) -> WebResponse {
        let id = child.id.lowercased
        let shown = pictures(r)[child.id] ?? .fallback
        let chosen: String? = { if case .builtin(let name) = shown { return name }; return nil }()
        let entered = error != nil ? r.web.form["icon"] : nil
        let invalid: (String) -> HTML = { field in error?.field == field ? " aria-invalid=\"true\" aria-describedby=\"form-error\"" : "" }
        var h: HTML = "<p class=\"picture-now\">\(iconImage(r, shown))<span>\(r.t(child.picture == nil ? "web.picture.default" : "web.picture.chosen"))</span></p>"
        h += """
        <form method="post" action="/guardian/child/\(id)/picture" enctype="multipart/form-data" data-form="picture">\(r.csrf)
        <fieldset class="icons"\(invalid("icon"))><legend>\(r.fieldLabel("icon"))</legend>
        """
        for builtin in BuiltinIcons.all {
            let checked = (entered ?? chosen) == builtin.name
            h += "<label class=\"icon-choice\"><input type=\"radio\" name=\"icon\" value=\"\(builtin.name)\"\(checked ? " checked" : "")>"
            h += "<img src=\"/icons/\(builtin.name).svg\" alt=\"\" width=\"40\" height=\"40\"><span>\(r.title(builtin.label))</span></label>"
        }
        h += """
        </fieldset>
        <p><label for="photo">\(r.fieldLabel("photo"))</label>
        <input id="photo" name="photo" type="file" accept="image/jpeg,image/png" aria-describedby="photo-hint"\(invalid("photo"))>
        <span id="photo-hint" class="hint">\(r.t("web.picture.photoHint"))</span></p>
        """
        if child.picture != nil {
            h += "<p class=\"check\"><input type=\"checkbox\" id=\"useDefault\" name=\"useDefault\" value=\"on\"><label for=\"useDefault\">\(r.t("web.picture.useDefault"))</label></p>"
        }
        h += "<p><button type=\"submit\">\(r.t("web.action.save"))</button></p></form>"
        return r.page(screen: "picture", titleKey: "web.picture.title", titleArgs: ["name": child.displayName], status: status, error: error, body: h)
    }

    /// `POST /guardian/child/<id>/picture`: a new photo wins, then "use the default", then the
    /// chosen icon. A photo no longer shown is removed (it would otherwise travel in backups).
    func savePicture(_ r: inout Request, _ child: Child) -> WebResponse {
        var saved: String?
        do {
            let picture: IconRef?
            if let photo = try savePhoto(r) {
                saved = photo.path
                picture = photo.icon
            } else if r.web.form["useDefault"] == "on" {
                picture = nil
            } else if let name = r.web.form["icon"], !name.isEmpty {
                guard BuiltinIcons.contains(name) else { throw FormError(field: "icon", key: "web.error.choice") }
                // The default left as it was stays the default (it follows the siblings).
                let unchanged = child.picture == nil && pictures(r)[child.id] == .builtin(name: name)
                picture = unchanged ? nil : .builtin(name: name)
            } else {
                picture = child.picture
            }
            let old = try r.store.setChildPicture(id: child.id, to: picture, at: r.now)
            if case .photo(_, let asset)? = old, old != picture, let dir = config.photosDirectory, try !r.store.photoInUse(asset) {
                unlink(dir.appendingPathComponent(asset).path)
            }
            r.nextNotice = r.t("web.saved")
            return .seeOther("/guardian/")
        } catch {
            if let saved { unlink(saved) }   // nothing saved: no photo left behind
            return picturePage(r, child, status: 400, error: r.pageError(error))
        }
    }

    /// The device's kiosk setting on the home page: may siblings switch from the child's page.
    func kioskSettings(_ r: Request) -> HTML {
        let on = (try? r.store.siblingsMaySwitch()) ?? false
        return """
        <section aria-labelledby="kiosk-h" data-section="kiosk"><h2 id="kiosk-h">\(r.t("web.kiosk.title"))</h2>
        <form method="post" action="/guardian/kiosk" data-form="kiosk">\(r.csrf)
        <p class="check"><input type="checkbox" id="siblingSwitch" name="siblingSwitch" value="on" aria-describedby="siblingSwitch-hint"\(on ? " checked" : "")>
        <label for="siblingSwitch">\(r.t("web.kiosk.siblingSwitch"))</label></p>
        <p id="siblingSwitch-hint" class="hint">\(r.t("web.kiosk.siblingSwitchHint"))</p>
        <p><button type="submit">\(r.t("web.action.save"))</button></p>
        </form></section>
        """
    }

    /// `POST /guardian/kiosk`: the checkbox's state is the setting (a missing box is off).
    func saveKioskSettings(_ r: inout Request) -> WebResponse {
        do {
            let raw = r.web.form["siblingSwitch"]
            guard raw == nil || raw == "on" else { throw FormError(field: "siblingSwitch", key: "web.error.choice") }
            try r.store.setSiblingsMaySwitch(raw == "on", at: r.now)
            r.nextNotice = r.t("web.saved")
            return .seeOther("/guardian/")
        } catch {
            return home(r, status: 400, error: r.pageError(error))
        }
    }
}
