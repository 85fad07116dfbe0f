import SteppieCentre
import SteppieHTML
import SteppieHTTP
import SteppieSecurity
import SteppieSync

/// Signing in and out. The sign-in form carries its own CSRF token, the same random value as a
/// short-lived cookie (double submit: a page elsewhere can read neither); a wrong name or password
/// counts against the name in the database (`CentreStore.signIn`, the guardian PIN's backoff).
extension CentreWeb {
    func signInPage(_ r: CentreRequest, status: Int = 200, error: String? = nil) -> HTTPResponse {
        if r.session != nil, error == nil { return see("/staff/") }
        let token = Secrets.randomToken()
        var body: HTML = "<form method=\"post\" action=\"/staff/sign-in\" class=\"sign-in\" data-form=\"sign-in\">"
        body += "<input type=\"hidden\" name=\"csrf\" value=\"\(token)\"><input type=\"hidden\" name=\"lang\" value=\"\(r.locale)\">"
        body += "<p><label for=\"name\">\(r.t("staff.signIn.name"))</label>"
        body += "<input id=\"name\" name=\"name\" autocomplete=\"username\" required maxlength=\"60\" value=\"\(r.http.form["name"] ?? "")\"></p>"
        body += "<p><label for=\"password\">\(r.t("staff.signIn.password"))</label>"
        body += "<input id=\"password\" name=\"password\" type=\"password\" autocomplete=\"current-password\" required></p>"
        body += "<p><button type=\"submit\">\(r.t("staff.signIn.submit"))</button></p></form>"
        return r.page(screen: "sign-in", title: r.t("staff.signIn.title"), body: body, status: status, error: error,
                      headers: [Self.cookie(Self.signInCookie, token, maxAge: 30 * 60)])
    }

    func signIn(_ r: CentreRequest) -> HTTPResponse {
        var r = r
        if let lang = r.http.form["lang"], Self.locales.contains(lang) { r.locale = lang }
        guard let sent = r.http.form["csrf"], let cookie = r.http.cookie(Self.signInCookie), cookie.utf8.count == 64,
              Secrets.equalInConstantTime(sent, cookie) else { return r.refused(403) }
        let name = r.http.form["name"] ?? "", password = r.http.form["password"] ?? ""
        do {
            let staff = try config.store.signIn(name: name, password: password, now: SyncProtocol.milliseconds(r.now))
            let (token, _) = try config.store.openSession(staff: staff, locale: r.locale, policy: config.sessions)
            return see("/staff/", [Self.cookie(Self.cookieName, token)])
        } catch CentreStaffError.lockedOut(let seconds) {
            return signInPage(r, status: 429, error: r.t("staff.signIn.locked", ["seconds": String(seconds)]))
        } catch CentreStaffError.signInRefused {
            return signInPage(r, status: 401, error: r.t("staff.signIn.refused"))
        } catch {
            return r.failure(error)
        }
    }

    func signOut(_ r: CentreRequest) -> HTTPResponse {
        guard let session = r.session, let token = r.token else { return see("/staff/sign-in") }
        guard let sent = r.http.form["csrf"], Secrets.equalInConstantTime(sent, session.csrf) else { return r.refused(403) }
        do { try config.store.closeSession(token: token) } catch { return r.failure(error) }
        return see("/staff/sign-in", [Self.cookie(Self.cookieName, "", maxAge: 0)])
    }

    /// 303 See Other: after a form, the browser loads the page again.
    func see(_ location: String, _ headers: [(String, String)] = []) -> HTTPResponse {
        .bytes(303, [], type: "text/plain; charset=utf-8", headers: [("Location", location)] + headers)
    }
}
