import Foundation
import SteppieCore
import SteppieStore
import SteppieHTML

/// Feedback tuning per child: the profile's fields in one form (`form[data-form="feedback"]`),
/// checked by the contract's `Validator` like `steppie profile set`, and beside every event and
/// intensity a button that plays that cue on the device's speaker, the same path as a press.
extension GuardianWeb {
    /// The events a guardian can listen to, in the order a routine meets them.
    static let playableEvents = ["announce", "completed", "undone", "next", "allDone", "reminder"]

    func feedbackPage(_ r: Request, _ child: Child, profile shown: FeedbackProfile? = nil, status: Int = 200,
                      error: PageError? = nil) -> WebResponse {
        let p = shown ?? child.profile
        let id = child.id.lowercased
        func invalid(_ field: String) -> HTML {
            error?.field == field ? " aria-invalid=\"true\" aria-describedby=\"form-error\"" : ""
        }
        func number(_ name: String, _ value: String, min: String, max: String, step: String) -> HTML {
            // The hint says what the numbers mean; a refused value is also described by the error.
            let wrong = error?.field == name
            return """
            <p><label for="\(name)">\(r.fieldLabel(name))</label>
            <input id="\(name)" name="\(name)" type="number" inputmode="decimal" min="\(min)" max="\(max)" step="\(step)" value="\(value)" aria-describedby="\(name)-hint\(wrong ? " form-error" : "")"\(wrong ? (" aria-invalid=\"true\"" as HTML) : ("" as HTML))>
            <span id="\(name)-hint" class="hint">\(r.t("web.feedback.hint.\(name)"))</span></p>
            """
        }
        func toggle(_ name: String, _ on: Bool) -> HTML {
            "<p class=\"check\"><input id=\"\(name)\" name=\"\(name)\" type=\"checkbox\" value=\"on\"\(on ? " checked" : "")>"
                + "<label for=\"\(name)\">\(r.fieldLabel(name))</label></p>"
        }
        let leadsWrong = error?.field == "notificationLeadTimes"
        var body = childLinks(r, child, current: "feedback")
        body += "<form method=\"post\" action=\"/guardian/child/\(id)/feedback\" data-form=\"feedback\">\(r.csrf)"
        body += "<fieldset\(invalid("intensity"))><legend>\(r.fieldLabel("intensity"))</legend>"
        for intensity in FeedbackIntensity.allCases {
            body += "<p class=\"check\"><input type=\"radio\" id=\"intensity-\(intensity.rawValue)\" name=\"intensity\" value=\"\(intensity.rawValue)\""
                + "\(p.intensity == intensity ? " checked" : "")><label for=\"intensity-\(intensity.rawValue)\">\(r.t("web.intensity.\(intensity.rawValue)"))</label></p>"
        }
        body += "</fieldset><fieldset><legend>\(r.t("web.feedback.outputs"))</legend>"
        body += toggle("soundEnabled", p.soundEnabled) + toggle("ttsEnabled", p.ttsEnabled) + toggle("hapticEnabled", p.hapticEnabled)
        body += "</fieldset><fieldset><legend>\(r.t("web.feedback.voice"))</legend>"
        body += number("ttsRate", Self.decimal(p.ttsRate), min: "0.5", max: "1.5", step: "0.05")
        body += number("ttsVolume", Self.decimal(p.ttsVolume), min: "0", max: "1", step: "0.05")
        body += number("volumeCap", Self.decimal(p.volumeCap), min: "0", max: "1", step: "0.05")
        body += number("pitch", String(p.pitch), min: "0", max: "99", step: "1")
        body += """
        <p><label for="voiceVariant">\(r.fieldLabel("voiceVariant"))</label>
        \(voiceSelect(r, selected: p.voiceVariant, invalid: invalid("voiceVariant")))</p>
        </fieldset><fieldset><legend>\(r.t("web.feedback.timing"))</legend>
        <p><label for="undoDurationSeconds">\(r.fieldLabel("undoDurationSeconds"))</label>
        <select id="undoDurationSeconds" name="undoDurationSeconds"\(invalid("undoDurationSeconds"))>
        """
        for seconds in Validator.undoDurations {
            body += "<option value=\"\(seconds)\"\(p.undoDurationSeconds == seconds ? " selected" : "")>\(r.t("web.feedback.seconds", ["count": String(seconds)]))</option>"
        }
        body += """
        </select></p>
        <p><label for="notificationLeadTimes">\(r.fieldLabel("notificationLeadTimes"))</label>
        <input id="notificationLeadTimes" name="notificationLeadTimes" value="\(p.notificationLeadTimes.map(String.init).joined(separator: ", "))" maxlength="40" aria-describedby="lead-hint\(leadsWrong ? " form-error" : "")"\(leadsWrong ? (" aria-invalid=\"true\"" as HTML) : ("" as HTML))>
        <span id="lead-hint" class="hint">\(r.t("web.feedback.leadHint"))</span></p>
        <p><label for="quietHoursStart">\(r.fieldLabel("quietHoursStart"))</label>
        <input id="quietHoursStart" name="quietHoursStart" type="text" inputmode="numeric" pattern="([01][0-9]|2[0-3]):[0-5][0-9]" maxlength="5" placeholder="07:30" autocomplete="off" value="\(p.quietHoursStart?.description ?? "")"\(invalid("quietHours"))></p>
        <p><label for="quietHoursEnd">\(r.fieldLabel("quietHoursEnd"))</label>
        <input id="quietHoursEnd" name="quietHoursEnd" type="text" inputmode="numeric" pattern="([01][0-9]|2[0-3]):[0-5][0-9]" maxlength="5" placeholder="07:30" autocomplete="off" value="\(p.quietHoursEnd?.description ?? "")"\(invalid("quietHours"))></p>
        </fieldset>
        <p><button type="submit">\(r.t("web.action.save"))</button></p>
        </form>
        """
        body += "<section aria-labelledby=\"listen-h\"><h2 id=\"listen-h\">\(r.t("web.feedback.listen"))</h2>"
        body += "<p>\(r.t("web.feedback.listenHint"))</p><table class=\"listen\"><thead><tr><th scope=\"col\">\(r.t("web.feedback.event"))</th>"
        for intensity in FeedbackIntensity.allCases { body += "<th scope=\"col\">\(r.t("web.intensity.\(intensity.rawValue)"))</th>" }
        body += "</tr></thead><tbody>"
        for event in Self.playableEvents {
            let eventName = r.t("web.event.\(event)")
            body += "<tr><th scope=\"row\">\(eventName)</th>"
            for intensity in FeedbackIntensity.allCases {
                let label = r.t("web.feedback.playLabel", ["event": eventName, "intensity": r.t("web.intensity.\(intensity.rawValue)")])
                body += """
                <td><form method="post" action="/guardian/child/\(id)/play" data-form="play">\(r.csrf)
                <input type="hidden" name="event" value="\(event)"><input type="hidden" name="intensity" value="\(intensity.rawValue)">
                <button type="submit" data-play="\(event)" data-intensity="\(intensity.rawValue)" aria-label="\(label)">▶</button></form></td>
                """
            }
            body += "</tr>"
        }
        body += "</tbody></table><p class=\"play-status\" role=\"status\" aria-live=\"polite\"></p></section>"
        return r.page(screen: "feedback", titleKey: "web.feedback.title", titleArgs: ["name": child.displayName], status: status,
                      error: error, body: body)
    }

    /// The installed voice variants as a list (a free-text box let any word through), the
    /// language's own voice first; a stored name no longer installed stays choosable.
    func voiceSelect(_ r: Request, selected: String?, invalid: HTML) -> HTML {
        var names = config.voiceVariants
        if let selected, !selected.isEmpty, !names.contains(selected) { names.insert(selected, at: 0) }
        var h: HTML = "<select id=\"voiceVariant\" name=\"voiceVariant\"\(invalid)>"
        h += "<option value=\"\"\((selected ?? "").isEmpty ? " selected" : "")>\(r.t("web.feedback.voiceDefault"))</option>"
        for name in names {
            h += "<option value=\"\(name)\"\(name == selected ? " selected" : "")>\(name)</option>"
        }
        return h + "</select>"
    }

    func saveFeedback(_ r: inout Request, _ child: Child) -> WebResponse {
        var patch = ProfilePatch()
        do {
            try readProfile(r.web.form, into: &patch)
            try r.store.updateProfile(childId: child.id, patch, at: r.now)
            r.nextNotice = r.t("web.saved")
            return .seeOther("/guardian/child/\(child.id.lowercased)/feedback")
        } catch {
            // The form again with what was typed, the refused field marked.
            return feedbackPage(r, child, profile: patch.merged(into: child.profile), status: 400, error: r.pageError(error))
        }
    }

    /// The form's fields as a `ProfilePatch` (its rules are checked by the store, as for the
    /// command line). A field that is not a number throws `FormError` naming it, the fields read
    /// before it kept in `patch`. Unchecked boxes are absent from a form: off; an empty number
    /// field leaves its value as it is.
    func readProfile(_ form: [String: String], into patch: inout ProfilePatch) throws {
        func decimal(_ name: String) throws -> Double? {
            guard let text = form[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            guard let v = Double(text), v.isFinite else { throw FormError(field: name, key: "web.error.number") }
            return v
        }
        func whole(_ name: String) throws -> Int? {
            guard let text = form[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            guard let v = Int(text) else { throw FormError(field: name, key: "web.error.whole") }
            return v
        }
        if let raw = form["intensity"] {
            guard let intensity = FeedbackIntensity(rawValue: raw) else { throw FormError(field: "intensity", key: "web.error.choice") }
            patch.intensity = intensity
        }
        patch.soundEnabled = form["soundEnabled"] == "on"
        patch.ttsEnabled = form["ttsEnabled"] == "on"
        patch.hapticEnabled = form["hapticEnabled"] == "on"
        patch.ttsRate = try decimal("ttsRate")
        patch.ttsVolume = try decimal("ttsVolume")
        patch.volumeCap = try decimal("volumeCap")
        patch.pitch = try whole("pitch")
        if let v = form["voiceVariant"]?.trimmingCharacters(in: .whitespaces) { patch.voiceVariant = v.isEmpty ? .clear : .set(v) }
        patch.undoDurationSeconds = try whole("undoDurationSeconds")
        if let text = form["notificationLeadTimes"] {
            let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            patch.notificationLeadTimes = try parts.map { part -> Int in
                guard let m = Int(part) else { throw FormError(field: "notificationLeadTimes", key: "web.error.whole") }
                return m
            }
        }
        let start = form["quietHoursStart"]?.trimmingCharacters(in: .whitespaces) ?? ""
        let end = form["quietHoursEnd"]?.trimmingCharacters(in: .whitespaces) ?? ""
        if start.isEmpty && end.isEmpty {
            patch.quietHours = .clear
        } else {
            patch.quietHours = .set(.init(start: try Validator.parseTime(start, field: "quietHours"),
                                          end: try Validator.parseTime(end, field: "quietHours")))
        }
    }

    /// "Play on the device": the engine plays the cue on the device's speaker (nothing in the browser).
    func play(_ r: inout Request, _ child: Child) -> WebResponse {
        let event = r.web.form["event"] ?? ""
        let intensity = r.web.form["intensity"]
        guard Self.playableEvents.contains(event), intensity.map({ FeedbackIntensity(rawValue: $0) != nil }) ?? true else {
            if r.web.wantsJSON { return .json("{\"ok\":false,\"error\":\"event\"}", status: 400) }
            return feedbackPage(r, child, status: 400, error: PageError(field: "event", message: r.t("web.error.choice", ["field": r.fieldLabel("event")])))
        }
        // ▶ plays what the form shows now (sent along by guardian.js as `preview=form`), not only the
        // saved values; checked by the same rules as a save, and nothing is saved.
        var patch = ProfilePatch()
        let profile: FeedbackProfile
        do {
            if r.web.form["preview"] == "form" { try readProfile(r.web.form, into: &patch) }
            patch.intensity = intensity.flatMap(FeedbackIntensity.init(rawValue:)) ?? patch.intensity
            profile = try patch.applied(to: child.profile)
        } catch {
            let refusal = r.pageError(error)
            if r.web.wantsJSON { return .json("{\"ok\":false,\"message\":\(Self.jsonString(refusal.message))}", status: 400) }
            return feedbackPage(r, child, profile: patch.merged(into: child.profile), status: 400, error: refusal)
        }
        // "Off" (or no sound and no speech) has nothing to play: say so instead of "playing".
        let silent = profile.intensity == .off || (!profile.soundEnabled && !profile.ttsEnabled)
        let failure = silent ? nil : config.play(child.id, event, profile)
        let said = failure.map { r.t("web.feedback.playFailed", ["reason": $0]) } ?? r.t(silent ? "web.feedback.playedSilent" : "web.feedback.played")
        if r.web.wantsJSON {
            return .json("{\"ok\":\(failure == nil),\"message\":\(Self.jsonString(said))}", status: failure == nil ? 200 : 409)
        }
        r.nextNotice = said
        return .seeOther("/guardian/child/\(child.id.lowercased)/feedback")
    }

    func childLinks(_ r: Request, _ child: Child, current: String) -> HTML {
        let id = child.id.lowercased
        var h: HTML = "<nav class=\"child-nav\" aria-label=\"\(child.displayName)\"><ul>"
        for (page, key) in [("routines", "web.nav.routines"), ("feedback", "web.nav.feedback"), ("history", "web.nav.history")] {
            h += "<li><a href=\"/guardian/child/\(id)/\(page)\"\(page == current ? (" aria-current=\"page\"" as HTML) : ("" as HTML))>\(r.t(key))</a></li>"
        }
        return h + "</ul></nav>"
    }

    static func decimal(_ v: Double) -> String {
        let s = String(format: "%.2f", v)
        var t = s
        while t.hasSuffix("0") { t.removeLast() }
        if t.hasSuffix(".") { t.removeLast() }
        return t.isEmpty ? s : t
    }

    static func jsonString(_ s: String) -> String {
        let data = (try? JSONEncoder().encode(s)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
