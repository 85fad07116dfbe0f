import Foundation
import SteppieCore
import SteppieLocalization
import SteppieStore
import SteppieHTML

/// The localization review for testers: every spoken prompt in Korean and English, filled with
/// one of the device's real routine titles, the text shown beside a button that speaks it on the
/// device (the same voice the child hears); the pseudo-locale as a switch.
extension GuardianWeb {
    /// The routines a review can fill prompts with: every active set's, by child.
    private func reviewRoutines(_ r: Request) -> [(child: Child, routine: Routine)] {
        let children = (try? r.store.children()) ?? []
        return children.flatMap { child -> [(child: Child, routine: Routine)] in
            guard let set = try? r.store.activeSet(childId: child.id) else { return [] }
            let routines = ((try? r.store.routines(setId: set.id)) ?? []).filter(\.isVisible).sorted { $0.order < $1.order }
            return routines.map { (child, $0) }
        }
    }

    private func promptValues(_ r: Request, locale: String, routine: Routine?) -> [String: MessageValue] {
        var values = SampleArguments.typedValues(locale: locale)
        if let routine { values["routineTitle"] = .text(routine.title.resolve(chosen: locale, system: nil)) }
        return values
    }

    func l10nPage(_ r: Request) -> WebResponse {
        let routines = reviewRoutines(r)
        let chosenId = r.web.query["routine"].flatMap(UUID.init(uuidString:))
        let chosen = routines.first { $0.routine.id == chosenId }?.routine ?? routines.first?.routine
        let pseudo = r.web.query["pseudo"] == "on"
        let keys = config.localizer.catalogs.allKeys.filter { $0.hasPrefix("tts.") }
        var body: HTML = "<form method=\"get\" action=\"/guardian/l10n\" class=\"inline\" data-form=\"l10n-options\">"
        body += "<label for=\"routine\">\(r.fieldLabel("routine"))</label><select id=\"routine\" name=\"routine\">"
        for (child, routine) in routines {
            let selected = routine.id == chosen?.id ? " selected" : ""
            body += "<option value=\"\(routine.id.lowercased)\"\(selected)>\(child.displayName): \(r.title(routine.title))</option>"
        }
        body += "</select><span class=\"check\"><input type=\"checkbox\" id=\"pseudo\" name=\"pseudo\" value=\"on\"\(pseudo ? " checked" : "")>"
        body += "<label for=\"pseudo\">\(r.t("web.l10n.pseudo"))</label></span>"
        body += "<button type=\"submit\">\(r.t("web.l10n.show"))</button></form>"
        body += "<p class=\"play-status\" role=\"status\" aria-live=\"polite\"></p>"
        body += "<table class=\"l10n\"><caption>\(r.t("web.l10n.caption", ["count": String(keys.count)]))</caption><thead><tr>"
        body += "<th scope=\"col\">\(r.t("web.l10n.key"))</th><th scope=\"col\" lang=\"ko\">한국어</th><th scope=\"col\" lang=\"en\">English</th>"
        if pseudo { body += "<th scope=\"col\">\(r.t("web.l10n.pseudoColumn"))</th>" }
        body += "</tr></thead><tbody>"
        for key in keys {
            body += "<tr data-key=\"\(key)\"><th scope=\"row\"><code>\(key)</code></th>"
            for locale in Self.locales {
                let text = config.localizer.text(key, locale: locale, values: promptValues(r, locale: locale, routine: chosen))
                let spoken = config.localizer.spoken(key, locale: locale, values: promptValues(r, locale: locale, routine: chosen))
                body += "<td lang=\"\(locale)\"><span class=\"prompt\">\(text)</span>"
                if spoken != text { body += "<span class=\"hint\">\(r.t("web.l10n.heard", ["text": spoken]))</span>" }
                body += "<form method=\"post\" action=\"/guardian/l10n/play\" data-form=\"play\" class=\"inline\">\(r.csrf)"
                body += "<input type=\"hidden\" name=\"key\" value=\"\(key)\"><input type=\"hidden\" name=\"locale\" value=\"\(locale)\">"
                body += "<input type=\"hidden\" name=\"routine\" value=\"\(chosen?.id.lowercased ?? "")\">"
                body += "<button type=\"submit\" data-play-key=\"\(key)\" data-locale=\"\(locale)\" aria-label=\"\(r.t("web.l10n.playLabel", ["key": key, "language": r.t("web.locale.\(locale)")]))\">▶</button></form></td>"
            }
            if pseudo {
                body += "<td>\(config.localizer.text(key, locale: "qps", values: promptValues(r, locale: "en", routine: chosen)))</td>"
            }
            body += "</tr>"
        }
        body += "</tbody></table>"
        return r.page(screen: "l10n", titleKey: "web.l10n.title", body: body)
    }

    /// Speaks one prompt on the device, as the child would hear it.
    func l10nPlay(_ r: Request) -> WebResponse {
        let key = r.web.form["key"] ?? "", locale = r.web.form["locale"] ?? ""
        guard key.hasPrefix("tts."), config.localizer.catalogs.allKeys.contains(key), Self.locales.contains(locale) else {
            return r.web.wantsJSON ? .json("{\"ok\":false}", status: 400) : notFound(r)
        }
        let routine = r.web.form["routine"].flatMap(UUID.init(uuidString:)).flatMap { try? r.store.routine(id: $0) }
        let spoken = config.localizer.spoken(key, locale: locale, values: promptValues(r, locale: locale, routine: routine))
        let failure = config.say(spoken, locale)
        let message = failure.map { r.t("web.feedback.playFailed", ["reason": $0]) } ?? r.t("web.feedback.played")
        if r.web.wantsJSON { return .json("{\"ok\":\(failure == nil),\"message\":\(Self.jsonString(message))}", status: failure == nil ? 200 : 409) }
        return .seeOther("/guardian/l10n")
    }
}
