import Foundation
import SteppieCore
import SteppieSecurity
import SteppieStore
import SteppieHTML

/// The first run on the touch screen (#26 item 3): on a device with no guardian PIN and no child,
/// the kiosk's pages lead through the language, the PIN typed twice on the pad, the recovery
/// code shown once, the first child with a template, the feedback intensity (▶ to hear it on
/// the speaker), and end on the child's screen.
///
/// Only on the kiosk (loopback, `!config.secureCookies`): never over `--guardian-lan`. The two
/// steps before the PIN exist only while the device has neither a PIN nor a child (checked again
/// in the PIN's own write, so two browsers cannot both set one); from the PIN on, the steps are
/// guardian pages behind the session the PIN step opened.
extension GuardianWeb {
    static let setupSteps = 5

    /// True when the first run may start: the kiosk's pages, no PIN, no child (archived ones too).
    func setupAvailable(_ r: Request) -> Bool {
        guard r.onKiosk, let state = try? r.store.guardianState(), !state.hasPin else { return false }
        return (try? r.store.children(includeArchived: true).isEmpty) ?? false
    }

    /// The steps before the PIN exists; nil for the later ones (signed-in pages).
    func setupBeforePin(_ r: inout Request, path: [String], now: SecureInstant, sessions: inout WebSessions) -> WebResponse? {
        guard r.onKiosk else { return notFound(r) }
        if let lang = r.web.query["lang"] ?? r.web.form["lang"], GuardianWeb.locales.contains(lang) { r.locale = lang }
        switch (r.web.method, path.count > 1 ? path[1] : nil) {
        case ("GET", "available"?):
            return .json("{\"available\":\(setupAvailable(r) ? "true" : "false")}")
        case ("GET", nil):
            guard setupAvailable(r) else { return .seeOther("/guardian/") }
            return setupLanguagePage(r)
        case ("GET", "pin"?):
            guard setupAvailable(r) else { return .seeOther("/guardian/") }
            return setupPinPage(r)
        case ("POST", "pin"?):
            return setupPin(&r, now: now, sessions: &sessions)
        default:
            return nil
        }
    }

    /// The signed-in steps: `code`, `child`, `feedback/ID`.
    func setupSignedIn(_ r: inout Request, path: [String]) -> WebResponse {
        switch (r.web.method, path.count > 1 ? path[1] : nil) {
        case ("GET", "code"?): return setupCodePage(r)
        case ("POST", "code"?): return setupCodeWritten(&r)
        case ("GET", "child"?): return setupChildPage(r)
        case ("POST", "child"?): return setupChild(&r)
        case (_, "feedback"?):
            guard path.count == 3, let id = UUID(uuidString: path[2]), let child = try? r.store.child(id: id) else { return notFound(r) }
            return r.web.method == "POST" ? setupFeedback(&r, child) : setupFeedbackPage(r, child)
        default: return notFound(r)
        }
    }

    private func stepLine(_ r: Request, _ step: Int) -> HTML {
        "<p class=\"step\" data-step=\"\(String(step))\">\(r.t("web.setup.step", ["step": String(step), "total": String(Self.setupSteps)]))</p>"
    }

    // MARK: 1. Language

    private func setupLanguagePage(_ r: Request) -> WebResponse {
        var body = stepLine(r, 1)
        body += "<p>\(r.t("web.setup.language.intro"))</p><ul class=\"choices\" data-list=\"languages\">"
        for tag in GuardianWeb.locales {
            body += "<li><a class=\"choice\" href=\"/guardian/setup/pin?lang=\(tag)\" lang=\"\(tag)\" hreflang=\"\(tag)\" data-lang=\"\(tag)\">"
                + "\(r.localizer.text("web.language.name", locale: tag))</a></li>"
        }
        body += "</ul>"
        return r.page(screen: "setup-language", setup: true, titleKey: "web.setup.title.language", body: body)
    }

    // MARK: 2. The PIN, twice

    private func setupPinPage(_ r: Request, status: Int = 200, error: PageError? = nil) -> WebResponse {
        var body = stepLine(r, 2)
        body += """
        <p>\(r.t("web.setup.pin.intro"))</p>
        <form method="post" action="/guardian/setup/pin" data-form="setup-pin" class="pin-form" data-pad-form>
        <input type="hidden" name="lang" value="\(r.locale)">
        <label for="pin">\(r.t("web.setup.pin.first"))</label>
        <input id="pin" name="pin" type="password" inputmode="numeric" autocomplete="new-password" maxlength="4" required data-pad-field>
        <label for="pin2">\(r.t("web.setup.pin.second"))</label>
        <input id="pin2" name="pin2" type="password" inputmode="numeric" autocomplete="new-password" maxlength="4" required data-pad-field>

        """
        body += pinPad(r, enter: r.t("web.setup.next")) + "\n</form>\n"
        return r.page(screen: "setup-pin", setup: true, titleKey: "web.setup.title.pin", status: status, error: error, body: body)
    }

    private func setupPin(_ r: inout Request, now: SecureInstant, sessions: inout WebSessions) -> WebResponse {
        if let lang = r.web.form["lang"], GuardianWeb.locales.contains(lang) { r.locale = lang }
        guard setupAvailable(r) else { return .seeOther("/guardian/") }
        let pin = r.web.form["pin"] ?? "", again = r.web.form["pin2"] ?? ""
        guard (try? Validator.pin(pin)) != nil else {
            return setupPinPage(r, status: 400, error: PageError(field: "pin", message: r.t("web.signIn.pinForm")))
        }
        guard pin == again else {
            return setupPinPage(r, status: 400, error: PageError(field: "pin2", message: r.t("web.setup.pin.mismatch")))
        }
        do {
            // Hashing takes a moment: before the write, which then checks again that no one set a PIN meanwhile.
            let hasher = try PasswordHasher()
            let code = Secrets.randomRecoveryCode()
            let pinHash = try hasher.hash(pin), codeHash = try hasher.hash(code)
            var taken = false
            try r.store.ensureDeviceSettings(at: r.now)
            try r.store.transaction {
                guard try !r.store.guardianState().hasPin, try r.store.children(includeArchived: true).isEmpty else {
                    taken = true
                    return
                }
                try r.store.setGuardianSecrets(pinHash: pinHash, recoveryCodeHash: codeHash, at: now)
                try r.store.setDeviceLocale(r.locale, at: r.now)
            }
            if taken { return .seeOther("/guardian/") }
            var session = sessions.open(at: now, locale: r.locale, pinGeneration: try r.store.pinGeneration())
            session.setupCode = code
            sessions.update(session)
            return .seeOther("/guardian/setup/code", headers: [("Set-Cookie", cookie(session.token))])
        } catch {
            return setupPinPage(r, status: 500, error: r.pageError(error))
        }
    }

    // MARK: 3. The recovery code, once

    private func setupCodePage(_ r: Request, status: Int = 200, error: PageError? = nil) -> WebResponse {
        guard let code = r.session?.setupCode else { return .seeOther("/guardian/setup/child") }
        var body = stepLine(r, 3)
        body += """
        <p>\(r.t("web.setup.code.intro"))</p>
        <p class="recovery-code" data-recovery-code="\(code)">\(code)</p>
        <form method="post" action="/guardian/setup/code" data-form="setup-code">\(r.csrf)
        <p class="check"><input id="written" name="written" type="checkbox" value="on" required\(error == nil ? ("" as HTML) : (" aria-invalid=\"true\" aria-describedby=\"form-error\"" as HTML))>
        <label for="written">\(r.t("web.setup.code.written"))</label></p>
        <p><button type="submit" data-step-next>\(r.t("web.setup.next"))</button></p>
        </form>
        """
        return r.page(screen: "setup-code", setup: true, titleKey: "web.setup.title.code", status: status, error: error, body: body)
    }

    private func setupCodeWritten(_ r: inout Request) -> WebResponse {
        guard r.web.form["written"] == "on" else {
            return setupCodePage(r, status: 400, error: PageError(field: "written", message: r.t("web.setup.code.required")))
        }
        r.clearsSetupCode = true
        return .seeOther("/guardian/setup/child")
    }

    // MARK: 4. The first child and a template

    /// The name comes offered ("My child"): a touch screen with no keyboard can go on, and the
    /// name can be changed later from a phone over the home network.
    private func setupChildPage(_ r: Request, status: Int = 200, error: PageError? = nil) -> WebResponse {
        var body = stepLine(r, 4)
        let chosen = r.web.form["template"] ?? Template.morning.rawValue
        let invalid: (String) -> HTML = { field in
            error?.field == field ? " aria-invalid=\"true\" aria-describedby=\"form-error\"" : ""
        }
        body += """
        <form method="post" action="/guardian/setup/child" data-form="setup-child">\(r.csrf)
        <p><label for="name">\(r.t("web.field.child.name"))</label>
        <input id="name" name="name" maxlength="60" required value="\(r.web.form["name"] ?? r.t("web.setup.child.defaultName"))"\(invalid("child.name"))></p>
        """
        body += templateChoices(r, chosen: chosen)
        body += "<p><button type=\"submit\">\(r.t("web.setup.next"))</button></p></form>"
        return r.page(screen: "setup-child", setup: true, titleKey: "web.setup.title.child", status: status, error: error, body: body)
    }

    /// The templates as radio choices, each with its routines' pictures (shared with "add a child").
    func templateChoices(_ r: Request, chosen: String?, allowNone: Bool = false) -> HTML {
        var h: HTML = "<fieldset class=\"templates\"><legend>\(r.t("web.setup.child.template"))</legend>"
        if allowNone {
            h += "<p class=\"check\"><input type=\"radio\" id=\"template-none\" name=\"template\" value=\"\"\(chosen == nil || chosen == "" ? " checked" : "")>"
                + "<label for=\"template-none\">\(r.t("web.setup.child.noTemplate"))</label></p>"
        }
        for template in Template.allCases {
            let id = "template-\(template.rawValue)"
            h += "<div class=\"template-choice\"><input type=\"radio\" id=\"\(id)\" name=\"template\" value=\"\(template.rawValue)\"\(chosen == template.rawValue ? " checked" : "")>"
            h += "<label for=\"\(id)\"><span class=\"name\">\(r.title(template.name))</span><span class=\"pictures\">"
            for item in template.items {
                h += "<img src=\"/icons/\(item.icon).svg\" alt=\"\(r.title(item.title))\" title=\"\(r.title(item.title))\" width=\"40\" height=\"40\">"
            }
            h += "</span></label></div>"
        }
        return h + "</fieldset>"
    }

    private func setupChild(_ r: inout Request) -> WebResponse {
        guard let template = Template(rawValue: r.web.form["template"] ?? "") else {
            return setupChildPage(r, status: 400, error: PageError(field: "template", message: r.t("web.error.choice", ["field": r.t("web.setup.child.template")])))
        }
        do {
            var profile = FeedbackProfile()
            profile.locale = r.locale
            var child: Child?
            try r.store.transaction {
                let added = try r.store.addChild(name: r.web.form["name"] ?? "", profile: profile, at: r.now)
                try r.store.createSet(childId: added.id, template: template, activate: true, at: r.now)
                child = added
            }
            guard let child else { return notFound(r) }
            return .seeOther("/guardian/setup/feedback/\(child.id.lowercased)")
        } catch {
            return setupChildPage(r, status: 400, error: r.pageError(error))
        }
    }

    // MARK: 5. The feedback intensity, heard on the speaker

    private func setupFeedbackPage(_ r: Request, _ child: Child) -> WebResponse {
        var body = stepLine(r, 5)
        let id = child.id.lowercased
        body += "<p>\(r.t("web.setup.feedback.intro"))</p>"
        body += "<form method=\"post\" action=\"/guardian/setup/feedback/\(id)\" data-form=\"setup-feedback\" id=\"setup-feedback\">\(r.csrf)</form>"
        body += "<fieldset class=\"intensities\"><legend>\(r.fieldLabel("intensity"))</legend>"
        for intensity in FeedbackIntensity.allCases {
            let name = r.t("web.intensity.\(intensity.rawValue)")
            body += "<div class=\"intensity-choice\"><input form=\"setup-feedback\" type=\"radio\" id=\"intensity-\(intensity.rawValue)\" name=\"intensity\" value=\"\(intensity.rawValue)\"\(child.profile.intensity == intensity ? " checked" : "")>"
            body += "<label for=\"intensity-\(intensity.rawValue)\">\(name)</label>"
            if intensity != .off {
                let label = r.t("web.feedback.playLabel", ["event": r.t("web.event.completed"), "intensity": name])
                body += "<form method=\"post\" action=\"/guardian/child/\(id)/play\" data-form=\"play\">\(r.csrf)"
                body += "<input type=\"hidden\" name=\"event\" value=\"completed\"><input type=\"hidden\" name=\"intensity\" value=\"\(intensity.rawValue)\">"
                body += "<button type=\"submit\" data-play=\"completed\" data-intensity=\"\(intensity.rawValue)\" aria-label=\"\(label)\">▶</button></form>"
            }
            body += "</div>"
        }
        body += "</fieldset><p class=\"play-status\" role=\"status\" aria-live=\"polite\"></p>"
        body += "<p><button type=\"submit\" form=\"setup-feedback\" data-step-finish>\(r.t("web.setup.finish"))</button></p>"
        return r.page(screen: "setup-feedback", setup: true, titleKey: "web.setup.title.feedback", body: body)
    }

    private func setupFeedback(_ r: inout Request, _ child: Child) -> WebResponse {
        guard let intensity = FeedbackIntensity(rawValue: r.web.form["intensity"] ?? "") else {
            return setupFeedbackPage(r, child)
        }
        do {
            var patch = ProfilePatch()
            patch.intensity = intensity
            try r.store.updateProfile(childId: child.id, patch, at: r.now)
        } catch {
            return setupFeedbackPage(r, child)
        }
        // Done: the session ends on the way to the child's screen, as "Child screen" does.
        r.endsSession = true
        return .seeOther("/child/\(child.id.lowercased)", headers: [("Set-Cookie", clearedCookie)])
    }
}
