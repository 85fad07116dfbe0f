import Foundation
import SteppieCentre
import SteppieCore
import SteppieHTTP
import SteppieLocalization
import SteppieSecurity

/// The centre hub's staff pages (docs/centre.md, "The staff pages"), served by `steppie hub` on
/// the sync routes' HTTPS listener: sign-in, the teachers' overview of a group (live through
/// `/staff/overview.json`), a child's month, the groups, and the admin's actions. Every page is built as
/// `HTML`; sessions live in PostgreSQL (`CentreStore.openSession`), so any hub process answers.
package struct CentreWeb: Sendable {
    package struct Config: Sendable {
        package var store: CentreStore
        package var localizer: Localizer
        package var timeZone: TimeZone
        package var clock: any WallClock
        /// `Web/` (the pages' script and style sheets).
        package var webDirectory: URL
        /// The hub's certificate fingerprint, shown beside a joining code.
        package var fingerprint: String
        /// A device silent longer than this is "not heard from since …" on the overview.
        package var silentAfterSeconds: Int = 10 * 60
        package var sessions: CentreStore.SessionPolicy = .standard

        package init(store: CentreStore, localizer: Localizer, timeZone: TimeZone, clock: any WallClock, webDirectory: URL,
                     fingerprint: String) {
            self.store = store; self.localizer = localizer; self.timeZone = timeZone; self.clock = clock
            self.webDirectory = webDirectory; self.fingerprint = fingerprint
        }
    }

    /// The session cookie and the sign-in form's double-submit cookie.
    package static let cookieName = "steppie_staff"
    static let signInCookie = "steppie_staff_signin"
    /// The pages' languages: Korean first (the default), then English.
    package static let locales = ["ko", "en"]
    /// How often the overview's script asks for the group's day (the brief's "every ≤ 1 s").
    static let pollMilliseconds = 1000

    let config: Config

    package init(_ config: Config) { self.config = config }

    /// The staff pages' routes, for the hub's route table beside the sync routes.
    package func routes() -> [HTTPRoute] {
        let forms: @Sendable (HTTPHead) -> HTTPBodyPlan = { _ in HTTPBodyPlan(limit: HTTPBodyPlan.textLimit, forms: true) }
        let web = self
        return [
            HTTPRoute(["GET"], "/staff/static/*") { web.staticFile($0) },
            HTTPRoute(["GET", "POST"], "/staff/**", body: forms) { web.answer($0) },
            HTTPRoute(["GET"], "/") { _ in .redirect("/staff/") },
        ]
    }

    /// The script and style sheets the pages use, from `Web/` (nothing else is served).
    func staticFile(_ r: HTTPRequest) -> HTTPResponse {
        guard let name = r.path.last, ["centre.js", "centre.css", "guardian.css"].contains(name) else { return .notFound }
        var response = HTTPResponse.file(config.webDirectory.appendingPathComponent(name).path, maxBytes: 1 << 20)
        response.headers = Self.securityHeaders
        return response
    }

    /// One request to the pages: the session found, the language chosen, then the page.
    func answer(_ http: HTTPRequest) -> HTTPResponse {
        var r = CentreRequest(http: http, web: self)
        if let token = http.cookie(Self.cookieName) {
            do { r.session = try config.store.session(token: token, policy: config.sessions) } catch {
                return r.failure(error)
            }
            if let session = r.session { r.token = token; r.locale = session.locale ?? r.locale }
        }
        if let lang = http.query["lang"], Self.locales.contains(lang) {
            r.locale = lang
            if let token = r.token { try? config.store.setSessionLocale(token: token, locale: lang) }
        }
        let path = Array(http.path.dropFirst())
        if http.method == "POST" {
            // Every change comes from our own pages: their origin, then (signed in) the session's CSRF token.
            guard http.sameOrigin, !http.malformedBody else { return r.refused(403) }
            switch path {
            case ["sign-in"]: return signIn(r)
            case ["sign-out"]: return signOut(r)
            default: break
            }
            guard let session = r.session else { return .redirect("/staff/sign-in") }
            guard let sent = http.form["csrf"], Secrets.equalInConstantTime(sent, session.csrf) else { return r.refused(403) }
            switch path {
            case ["invite"]: return invite(r, session)
            case ["device", "remove"]: return removeDevice(r, session)
            case ["staff", "add"]: return addStaff(r, session)
            case ["staff", "remove"]: return removeStaff(r, session)
            case ["device", "group"]: return giveGroup(r, session)
            case ["device", "children"]: return grantChildren(r, session)
            case ["group", "add"]: return addGroup(r, session)
            case ["group", "remove"]: return removeGroup(r, session)
            case ["group", "child", "add"]: return addGroupChild(r, session)
            case ["group", "child", "remove"]: return removeGroupChild(r, session)
            default: return r.refused(404)
            }
        }
        switch path {
        case ["sign-in"]: return signInPage(r)
        case []: break
        default: break
        }
        guard let session = r.session else {
            if path == ["overview.json"] { return .error(401, "signed out") }
            return .redirect("/staff/sign-in")
        }
        switch path {
        case []: return overviewPage(r, session)
        case ["overview.json"]: return overviewJSON(r, session)
        case ["admin"]: return adminPage(r, session)
        case ["groups"]: return groupsPage(r, session)
        case let p where p.count == 2 && p[0] == "child": return monthPage(r, session, child: p[1])
        default: return r.refused(404)
        }
    }

    /// The headers every page carries: nothing from elsewhere, no framing, the origin on posts.
    static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
        ("X-Content-Type-Options", "nosniff"),
        // Not no-referrer: with it a browser sends `Origin: null` on form posts, and the origin check needs it.
        ("Referrer-Policy", "same-origin"),
        ("X-Frame-Options", "DENY"),
    ]

    /// The cookie attributes: HTTPS only, never read by scripts, never sent from another site.
    static func cookie(_ name: String, _ value: String, maxAge: Int? = nil) -> (String, String) {
        ("Set-Cookie", "\(name)=\(value); Path=/staff; Secure; HttpOnly; SameSite=Strict" + (maxAge.map { "; Max-Age=\($0)" } ?? ""))
    }
}
