import Foundation
import SteppieCentre
import SteppieCore
import SteppieHTML
import SteppieHTTP
import SteppieLocalization

/// One request to the staff pages as the handlers see it: the HTTP request, the session (if a
/// live one came with it), the page's language, and the helpers every page uses.
struct CentreRequest {
    let http: HTTPRequest
    let web: CentreWeb
    var session: CentreStore.StaffSession?
    /// The session's cookie token (only when the session is live).
    var token: String?
    var locale: String

    init(http: HTTPRequest, web: CentreWeb) {
        self.http = http
        self.web = web
        locale = Self.preferred(http.header("Accept-Language")) ?? "ko"
    }

    /// The first of the pages' languages the browser names in `Accept-Language`, by its weights.
    static func preferred(_ header: String?) -> String? {
        guard let header else { return nil }
        let ranked = header.split(separator: ",").enumerated().compactMap { index, part -> (tag: String, q: Double, index: Int)? in
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first?.lowercased(), !tag.isEmpty else { return nil }
            let q = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return (String(tag.split(separator: "-").first ?? ""), q, index)
        }
        return ranked.filter { $0.q > 0 && CentreWeb.locales.contains($0.tag) }
            .sorted { ($0.q, -$0.index) > ($1.q, -$1.index) }.first?.tag
    }

    var localizer: Localizer { web.config.localizer }
    var now: Date { web.config.clock.now() }
    var today: LocalDay { LocalDay(now, in: web.config.timeZone) }

    func t(_ key: String, _ args: [String: String] = [:]) -> String { localizer.text(key, locale: locale, args: args) }

    /// A title in the page's language (then the other one).
    func title(_ text: LocalizedText) -> String {
        let resolved = text.resolve(chosen: locale, system: nil)
        return resolved.isEmpty ? t("staff.overview.untitled") : resolved
    }

    /// An error in the page's language: the store's refusals in their own words, the rest as a
    /// kind of failure (the detail goes nowhere a browser sees).
    func message(_ error: any Error) -> String {
        if let refusal = error as? CentreStaffError { return CatalogRenderer(localizer: localizer, locale: locale).say(refusal) }
        return t("staff.error.failed")
    }

    /// The session's CSRF field for a form.
    var csrf: HTML { "<input type=\"hidden\" name=\"csrf\" value=\"\(session?.csrf ?? "")\">" }

    /// A whole page in the frame; `status` and extra headers as given.
    func page(screen: String, title: String, body: HTML, status: Int = 200, error: String? = nil, notice: String? = nil,
              refresh: Int? = nil, headers: [(String, String)] = []) -> HTTPResponse {
        var page = CentrePage(title: title, screen: screen, locale: locale, body: body, error: error, notice: notice, refresh: refresh)
        if let session {
            let path = "/" + http.path.joined(separator: "/") + (http.path.count == 1 ? "/" : "")
            page.nav = CentrePage.Nav(csrf: session.csrf, signedInAs: t("staff.nav.signedInAs", ["name": session.staff.name,
                                                                                                 "role": t("hub.staff.role." + session.staff.role.rawValue)]),
                                      items: [("/staff/", t("staff.nav.overview"), screen == "overview"),
                                              ("/staff/groups", t("staff.nav.groups"), screen == "groups"),
                                              ("/staff/admin", t("staff.nav.admin"), screen == "admin")],
                                      signOut: t("staff.nav.signOut"), languageLabel: t("staff.nav.language"),
                                      otherLanguages: CentreWeb.locales.filter { $0 != locale }.map {
                                          (tag: $0, label: localizer.text("web.language.name", locale: $0), href: sameQuery(path, lang: $0))
                                      })
        } else {
            page.otherLanguages = CentreWeb.locales.filter { $0 != locale }.map {
                (tag: $0, label: localizer.text("web.language.name", locale: $0), href: "/staff/sign-in?lang=\($0)")
            }
            page.languageLabel = t("staff.nav.language")
        }
        return .bytes(status, Array(page.render().markup.utf8), type: "text/html; charset=utf-8", headers: CentreWeb.securityHeaders + headers)
    }

    /// This page in another language: its query kept, `lang` replaced.
    private func sameQuery(_ path: String, lang: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#?")
        let kept = http.query.filter { $0.key != "lang" }.sorted { $0.key < $1.key }.compactMap { key, value -> String? in
            guard let k = key.addingPercentEncoding(withAllowedCharacters: allowed),
                  let v = value.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
            return k + "=" + v
        }
        return path + "?" + (kept + ["lang=" + lang]).joined(separator: "&")
    }

    /// A refusal as a short page: 403 (not allowed, or a form from elsewhere), 404.
    func refused(_ status: Int) -> HTTPResponse {
        let key = status == 403 ? "staff.error.forbidden" : "staff.error.notFound"
        return page(screen: "refused", title: t(key), body: "<p><a href=\"/staff/\">\(t("staff.nav.overview"))</a></p>", status: status)
    }

    /// The database could not answer: 503, the page says to try again.
    func failure(_ error: any Error) -> HTTPResponse {
        page(screen: "failed", title: t("staff.error.unavailable"), body: "<p>\(t("staff.error.tryAgain"))</p>", status: 503)
    }

    /// A local time (`HH:mm`) of an instant a device wrote (ISO 8601 with its offset), in the hub's zone.
    func time(_ iso: String) -> String {
        guard let date = Timestamp.parse(iso) else { return iso }
        return time(date)
    }

    func time(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: locale == "ko" ? "ko_KR" : "en_GB")
        f.timeZone = web.config.timeZone
        f.dateFormat = "HH:mm"
        return f.string(from: date)
    }

    /// A date and time for "not heard from since …": the time alone when it is today.
    func since(_ date: Date) -> String {
        if LocalDay(date, in: web.config.timeZone) == today { return time(date) }
        let f = DateFormatter()
        f.locale = Locale(identifier: locale == "ko" ? "ko_KR" : "en_GB")
        f.timeZone = web.config.timeZone
        f.setLocalizedDateFormatFromTemplate("MMMdHHmm")
        return f.string(from: date)
    }

    func monthName(_ month: YearMonth) -> String {
        t("staff.month.name", ["year": String(month.year), "month": String(month.month)])
    }
}
