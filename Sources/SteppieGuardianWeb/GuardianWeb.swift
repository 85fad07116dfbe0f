import Foundation
import SteppieBackup
import SteppieCore
import SteppieLocalization
import SteppieSecurity
import SteppieStore
import Synchronization
import SteppieHTML

/// The guardian pages (`/guardian/…`, docs/guardian-web.md): sign-in with the PIN, children,
/// feedback tuning with "play on the device", routines with icons and photos, history, backups
/// and the localization review — the same store calls and rules as the command line.
///
/// It keeps its own connection to the database (like another process would) behind a `Mutex`,
/// so the HTTP threads never touch the service's store and a slow page never delays a press; the
/// service sees every change through SQLite's data version within one loop turn. Sounds go to
/// the service's engine through `Config.play`.
public final class GuardianWeb: Sendable {
    public static let cookieName = "steppie_guardian"
    /// A routine photo's largest size: the one limit of the pages, backups and the kiosk's files.
    public static let maxPhotoBytes = PhotoContent.maxBytes
    /// A backup upload's largest size (backups themselves are capped at 2 GiB; uploads from a
    /// browser go to memory, so they are held smaller).
    public static let maxRestoreBytes = 256 << 20

    /// What plays a cue on the device: (child, event, the profile to play it with) → nil when it
    /// played, else why not.
    public typealias Player = @Sendable (_ child: UUID, _ event: String, _ profile: FeedbackProfile) -> String?
    /// What speaks a text on the device: (text, locale) → nil when it played, else why not.
    public typealias Speaker = @Sendable (_ text: String, _ locale: String) -> String?

    public struct Config: Sendable {
        public var databasePath: String
        public var timeZone: TimeZone
        public var localizer: Localizer
        /// The clock of sessions and the PIN backoff (never the routines' clock).
        public var secureClock: any SecureClock
        /// The routines' clock (days, history, "today").
        public var clock: any WallClock
        /// The language when neither the guardian nor the device chose one.
        public var defaultLocale: String
        /// Where routine photos are kept (`<database folder>/assets`).
        public var photosDirectory: URL?
        /// Cookies get `Secure` (the pages are served over HTTPS).
        public var secureCookies: Bool
        public var play: Player
        public var say: Speaker
        /// The guardian pages on the home network (`--guardian-lan`): their address and the
        /// certificate's SHA-256 fingerprint, shown on the home page of the kiosk's pages.
        public var lan: (url: String, fingerprint: String)?
        /// The voice variants installed with espeak-ng, offered on the feedback page (the service
        /// fills it; empty: only the language's own voice).
        public var voiceVariants: [String] = []
        /// On the kiosk, idle seconds after which a guardian page goes back to the child's page
        /// (signed in, the session ends on the way). The service's own idle end is the same 3 minutes.
        public var kioskIdleSeconds = 180
        /// Decodes a recording from the routine page's microphone, and a backup's (the service
        /// hands over libsndfile's, `SoundFile.decodeRecording`; without one every recording is refused).
        public var decodeAudio: AudioDecoder = AudioDecodeFailure.unavailable
        /// The device's large uploads (one ledger for every guardian page server of a service).
        public var uploads = UploadLedger()
        /// Where a failure's whole description goes (the service's log, standard error); the
        /// pages themselves say only its kind.
        public var report: @Sendable (String) -> Void = { line in
            FileHandle.standardError.write(Data(("steppie serve: " + line + "\n").utf8))
        }

        public init(databasePath: String, timeZone: TimeZone, localizer: Localizer, secureClock: any SecureClock,
                    clock: any WallClock, defaultLocale: String, photosDirectory: URL?, secureCookies: Bool = false,
                    say: @escaping Speaker = { _, _ in "not started" }, play: @escaping Player) {
            self.databasePath = databasePath; self.timeZone = timeZone; self.localizer = localizer
            self.secureClock = secureClock; self.clock = clock; self.defaultLocale = defaultLocale
            self.photosDirectory = photosDirectory; self.secureCookies = secureCookies; self.play = play; self.say = say
        }
    }

    final class Inner {
        let store: Store
        var sessions = WebSessions()
        init(store: Store) { self.store = store }
    }

    let config: Config
    let inner: Mutex<Inner>

    public init(config: Config) throws {
        self.config = config
        let store = try Store(path: config.databasePath, timeZone: config.timeZone, mode: .existingOnly)
        let clock = config.clock
        store.setSyncClock { clock.now() }
        inner = Mutex(Inner(store: store))
        // Archives left waiting by a service that was stopped or killed: no session holds them now.
        config.uploads.removeLeftovers(in: uploadFolder)
    }

    /// Ends the sessions whose time is up, and with them their waiting archives (the service's
    /// loop calls this every few seconds, so an idle session's upload does not wait for the next
    /// sign-in). Skipped when a request holds the pages (a restore can take seconds): the
    /// service's thread never waits here.
    public func sweepSessions() {
        let now = config.secureClock.now()
        _ = inner.withLockIfAvailable { $0.sessions.expire(at: now) }
    }

    /// Signed-in browsers now (tests).
    public var sessionCount: Int { inner.withLock { $0.sessions.count } }

    /// Answers one request; never throws (a failure is a page saying so).
    public func handle(_ request: WebRequest) -> WebResponse {
        inner.withLock { inner in
            var r = Request(web: request, store: inner.store, config: config)
            return route(&r, sessions: &inner.sessions)
        }
    }

    // MARK: Routing

    private func route(_ r: inout Request, sessions: inout WebSessions) -> WebResponse {
        let now = config.secureClock.now()
        let path = Array(r.web.path.dropFirst())
        if r.web.method == "POST", !r.web.sameOrigin { return forbidden(r) }
        if r.web.malformedBody { return r.page(screen: "error", titleKey: "web.error.title", status: 400,
                                               error: PageError(field: nil, message: r.t("web.error.malformed"))) }
        let generation = try? r.store.pinGeneration()
        if r.web.method == "GET", path == ["gate"] {
            // The child's 3-second hold: whatever session this browser had ends here, so the hold
            // always starts at the PIN pad (a guardian who left the pages open on the kiosk).
            sessions.close(r.web.cookies[Self.cookieName] ?? "")
            let lang = r.web.query["lang"].flatMap { Self.locales.contains($0) ? $0 : nil }
            return .seeOther("/guardian/" + (lang.map { "?lang=" + $0 } ?? ""), headers: [("Set-Cookie", clearedCookie)])
        }
        if path.first == "setup", let response = setupBeforePin(&r, path: path, now: now, sessions: &sessions) { return response }
        guard let generation = generation ?? nil else { return noPin(r) }
        let session = sessions.use(r.web.cookies[Self.cookieName], at: now, pinGeneration: generation)
        if var session {
            if let lang = r.web.query["lang"], Self.locales.contains(lang) {
                session.locale = lang
                sessions.update(session)
            }
            r.session = session
            r.locale = session.locale ?? r.deviceLocale
            if let notice = session.notice {
                r.notice = notice
                session.notice = nil
                sessions.update(session)
            }
        } else if let lang = r.web.query["lang"] ?? r.web.form["lang"], Self.locales.contains(lang) {
            r.locale = lang
        }
        switch (r.web.method, path.first) {
        case ("GET", nil): return session == nil ? signInPage(r, now: now) : home(r)
        case ("POST", "sign-in"): return signIn(r, now: now, sessions: &sessions)
        case ("GET", "recover"): return recoverPage(r)
        case ("POST", "recover"): return recover(r, now: now, sessions: &sessions)
        default: break
        }
        guard let current = session else {
            // Signed out (or never in): pages go back to the PIN pad; a form is refused.
            if r.web.method == "GET" { return .seeOther("/guardian/") }
            return signInPage(r, now: now, status: 401, error: PageError(field: nil, message: r.t("web.signIn.expired")))
        }
        if r.web.method == "POST" {
            guard let token = r.web.form["csrf"], Secrets.equalInConstantTime(token, current.csrf) else { return forbidden(r) }
        }
        if let refusal = r.web.uploadRefusal { return uploadRefused(r, refusal, backup: path.first == "backup") }
        let response: WebResponse
        if path.first == "backup" {
            var s = sessions.use(current.token, at: now, pinGeneration: generation) ?? current
            response = backup(&r, path: path, pending: &s.restore)
            sessions.update(s)
            if r.pinReplaced { sessions.rebind(current.token, pinGeneration: (try? r.store.pinGeneration()) ?? nil) }
        } else {
            response = signedIn(&r, path: path)
        }
        // The session as it is now (a backup step may have changed it), not the request's copy.
        if let notice = r.nextNotice, var s = sessions.use(current.token, at: now, pinGeneration: (try? r.store.pinGeneration()) ?? nil) {
            s.notice = notice
            sessions.update(s)
        }
        // Signing out and leaving for the child's screen both end this browser's session: the
        // child must never find the pages open behind their screen.
        if (["sign-out", "child-screen"].contains(path.first) && r.web.method == "POST") || r.endsSession { sessions.close(current.token) }
        if r.clearsSetupCode, var s = sessions.use(current.token, at: now, pinGeneration: generation) {
            s.setupCode = nil   // shown once
            sessions.update(s)
        }
        return response
    }

    private func signedIn(_ r: inout Request, path: [String]) -> WebResponse {
        let id = path.count >= 2 ? UUID(uuidString: path[1]) : nil
        switch (r.web.method, path.count, path.first) {
        case ("POST", 1, "sign-out"):
            // On the kiosk, signing out leaves for the child's page; a phone goes back to the PIN pad.
            return .seeOther(r.onKiosk ? "/" : "/guardian/", headers: [("Set-Cookie", clearedCookie)])
        case ("POST", 1, "child-screen"):
            return .seeOther("/", headers: [("Set-Cookie", clearedCookie)])
        case ("POST", 2, "children") where path[1] == "add": return addChild(&r)
        case ("POST", 1, "kiosk"): return saveKioskSettings(&r)
        case (_, _, "setup"): return setupSignedIn(&r, path: path)
        case ("GET", 1, "l10n"): return l10nPage(r)
        case (_, _, "sync"): return syncAction(&r, path: path)
        case ("GET", 2, "photos"): return photo(r, name: path[1])
        case ("POST", 2, "l10n") where path[1] == "play": return l10nPlay(r)
        case (_, 3, "child"):
            guard let id, let child = try? r.store.child(id: id) else { return notFound(r) }
            return childPage(&r, child: child, page: path[2])
        case ("GET", 3, "set") where path[2] == "print":
            guard let id, let set = try? r.store.set(id: id) else { return notFound(r) }
            return printSchedule(r, set: set)
        case ("POST", 3, "set"):
            guard let id, let set = try? r.store.set(id: id) else { return notFound(r) }
            return setAction(&r, set: set, action: path[2])
        case (_, 2, "routine"), ("POST", 3, "routine"), ("GET", 3, "routine"):
            guard let id, let routine = try? r.store.routine(id: id) else { return notFound(r) }
            return routineAction(&r, routine: routine, action: path.count == 3 ? path[2] : "show")
        default:
            return notFound(r)
        }
    }

    private func backup(_ r: inout Request, path: [String], pending: inout PendingRestore?) -> WebResponse {
        switch (r.web.method, path.count > 1 ? path[1] : nil) {
        case ("GET", nil): return backupPage(r, pending: pending)
        case ("POST", "create"): return createBackup(r)
        case ("POST", "phone"): return exportForPhone(r)
        case ("POST", "restore"): return uploadBackup(r, pending: &pending)
        case ("POST", "confirm"): return confirmRestore(&r, pending: &pending)
        case ("POST", "cancel"):
            discard(&pending)
            return .seeOther("/guardian/backup")
        default: return notFound(r)
        }
    }

    private func childPage(_ r: inout Request, child: Child, page: String) -> WebResponse {
        switch (r.web.method, page) {
        case ("POST", "rename"): return renameChild(&r, child)
        case ("POST", "archive"), ("POST", "unarchive"): return archiveChild(&r, child, archive: page == "archive")
        case ("GET", "picture") where child.archivedAt == nil: return picturePage(r, child)
        case ("POST", "picture") where child.archivedAt == nil: return savePicture(&r, child)
        case ("GET", "feedback"): return feedbackPage(r, child)
        case ("POST", "feedback"): return saveFeedback(&r, child)
        case ("POST", "play"): return play(&r, child)
        case ("GET", "routines"): return routinesPage(r, child)
        case ("POST", "sets"): return createSet(&r, child)
        case ("POST", "schedule"): return saveSchedule(&r, child)
        case ("GET", "history"): return historyPage(r, child)
        case ("POST", "correct"): return correctDay(&r, child)
        case ("GET", "report"): return reportPage(r, child)
        default: return notFound(r)
        }
    }

    // MARK: Sign-in

    static let locales = ["ko", "en"]
    static let pinLength = 4...12

    private func noPin(_ r: Request) -> WebResponse {
        // A new device on the kiosk: the first run on the touch screen instead of a terminal.
        if setupAvailable(r) && r.web.method == "GET" { return .seeOther("/guardian/setup" + "?lang=" + r.locale) }
        return r.page(screen: "no-pin", titleKey: "web.noPin.title", status: 403,
               body: "<p>\(r.t("web.noPin.body"))</p><p><code>steppie guardian set-pin</code></p>" + r.backToChild)
    }

    /// The on-screen PIN pad (digits, clear, `enter`), typed into its form's PIN field(s) by `guardian.js`.
    func pinPad(_ r: Request, enter: String) -> HTML {
        var h: HTML = "<div class=\"pad\" role=\"group\" aria-label=\"\(r.t("web.signIn.pad"))\">"
        for d in ["1", "2", "3", "4", "5", "6", "7", "8", "9"] {
            h += "<button type=\"button\" data-digit=\"\(d)\">\(d)</button>"
        }
        h += "<button type=\"button\" data-pad=\"clear\">\(r.t("web.signIn.clear"))</button>"
        h += "<button type=\"button\" data-digit=\"0\">0</button>"
        return h + "<button type=\"submit\" data-pad=\"enter\">\(enter)</button></div>"
    }

    func signInPage(_ r: Request, now: SecureInstant, status: Int = 200, error: PageError? = nil) -> WebResponse {
        let state = try? r.store.guardianState()
        let left = state.map { Int($0.lockRemaining(at: now, origin: r.origin).rounded(.up)) } ?? 0
        var body: HTML = ""
        if left > 0 {
            body += "<p class=\"locked\" role=\"alert\" data-locked-seconds=\"\(left)\">\(r.t("web.signIn.locked", ["seconds": String(left)]))</p>"
        }
        body += """
        <form method="post" action="/guardian/sign-in" data-form="sign-in" class="pin-form">
        <input type="hidden" name="lang" value="\(r.locale)">
        <label for="pin">\(r.t("web.signIn.pin"))</label>
        <input id="pin" name="pin" type="password" inputmode="numeric" autocomplete="current-password" maxlength="12" required>

        """
        body += pinPad(r, enter: r.t("web.signIn.submit")) + "\n</form>\n"
        body += "<p><a href=\"/guardian/recover?lang=\(r.locale)\">\(r.t("web.signIn.forgot"))</a></p>"
        body += r.backToChild
        body += languageLinks(r, base: "/guardian/")
        return r.page(screen: "sign-in", titleKey: "web.signIn.title", status: status, error: error, body: body)
    }

    private func signIn(_ r: Request, now: SecureInstant, sessions: inout WebSessions) -> WebResponse {
        let pin = r.web.form["pin"] ?? ""
        do {
            try Validator.pin(pin)
        } catch {
            return signInPage(r, now: now, status: 400, error: PageError(field: "pin", message: r.t("web.signIn.pinForm")))
        }
        do {
            let hasher = try PasswordHasher()
            let attempt = try r.store.attemptUnlock(at: now, startsSession: false, origin: r.origin) { hasher.verify(pin, against: $0) }
            switch attempt {
            case .accepted:
                let session = sessions.open(at: now, locale: r.web.form["lang"].flatMap { Self.locales.contains($0) ? $0 : nil },
                                            pinGeneration: try r.store.pinGeneration())
                return .seeOther("/guardian/", headers: [("Set-Cookie", cookie(session.token))])
            case .rejected(let failures, let lock):
                let message = lock.map { r.t("web.signIn.wrongLocked", ["count": String(failures), "seconds": String(Int($0.rounded(.up)))]) }
                    ?? r.t("web.signIn.wrong", ["count": String(failures)])
                return signInPage(r, now: now, status: 401, error: PageError(field: "pin", message: message))
            case .lockedOut:
                return signInPage(r, now: now, status: 429)
            case .notSet:
                return noPin(r)
            }
        } catch {
            return signInPage(r, now: now, status: 500, error: r.pageError(error))
        }
    }

    private func recoverPage(_ r: Request, status: Int = 200, error: PageError? = nil) -> WebResponse {
        var body: HTML = """
        <p>\(r.t("web.recover.intro"))</p>
        <form method="post" action="/guardian/recover" data-form="recover">
        <input type="hidden" name="lang" value="\(r.locale)">
        <p><label for="code">\(r.t("web.recover.code"))</label>
        <input id="code" name="code" type="password" inputmode="numeric" maxlength="6" required></p>
        <p><label for="newPin">\(r.t("web.recover.newPin"))</label>
        <input id="newPin" name="newPin" type="password" inputmode="numeric" autocomplete="new-password" maxlength="12" required></p>
        <p><label for="newPin2">\(r.t("web.recover.confirm"))</label>
        <input id="newPin2" name="newPin2" type="password" inputmode="numeric" autocomplete="new-password" maxlength="12" required></p>
        <p><button type="submit">\(r.t("web.recover.submit"))</button></p>
        </form>
        <p><a href="/guardian/?lang=\(r.locale)">\(r.t("web.recover.back"))</a></p>
        """
        body += r.backToChild
        return r.page(screen: "recover", titleKey: "web.recover.title", status: status, error: error, body: body)
    }

    /// The recovery code replaces the PIN (and itself); the new code is shown once.
    private func recover(_ r: Request, now: SecureInstant, sessions: inout WebSessions) -> WebResponse {
        let code = r.web.form["code"] ?? "", pin = r.web.form["newPin"] ?? ""
        do { try Validator.recoveryCode(code) } catch {
            return recoverPage(r, status: 400, error: PageError(field: "code", message: r.pageError(error).message))
        }
        do { try Validator.pin(pin) } catch {
            return recoverPage(r, status: 400, error: PageError(field: "newPin", message: r.pageError(error).message))
        }
        guard pin == r.web.form["newPin2"] else {
            return recoverPage(r, status: 400, error: PageError(field: "newPin2", message: r.t("web.recover.mismatch")))
        }
        do {
            let hasher = try PasswordHasher()
            let next = Secrets.randomRecoveryCode()
            let attempt = try r.store.recover(at: now, startsSession: false, origin: r.origin, newPinHash: try hasher.hash(pin),
                                              newRecoveryCodeHash: try hasher.hash(next)) { hasher.verify(code, against: $0) }
            switch attempt {
            case .accepted:
                sessions.closeAll()
                let session = sessions.open(at: now, locale: r.locale, pinGeneration: try r.store.pinGeneration())
                let body: HTML = """
                <p>\(r.t("web.recover.done"))</p>
                <p class="code" data-recovery-code="\(next)">\(next)</p>
                <p>\(r.t("web.recover.once"))</p>
                <p><a href="/guardian/">\(r.t("web.recover.continue"))</a></p>
                """
                return r.page(screen: "recovered", titleKey: "web.recover.title", body: body).with(cookie: cookie(session.token))
            case .rejected(let failures, let lock):
                let message = lock.map { r.t("web.signIn.wrongLocked", ["count": String(failures), "seconds": String(Int($0.rounded(.up)))]) }
                    ?? r.t("web.recover.wrong", ["count": String(failures)])
                return recoverPage(r, status: 401, error: PageError(field: "code", message: message))
            case .lockedOut(let left):
                return recoverPage(r, status: 429, error: PageError(field: nil, message: r.t("web.signIn.locked", ["seconds": String(Int(left.rounded(.up)))])))
            case .notSet:
                return recoverPage(r, status: 409, error: PageError(field: nil, message: r.t("web.recover.notSet")))
            }
        } catch {
            return recoverPage(r, status: 500, error: r.pageError(error))
        }
    }

    /// A routine photo for these pages (behind the session, so it works on the home network too).
    private func photo(_ r: Request, name: String) -> WebResponse {
        guard (try? Validator.photoAssetName(name)) != nil, let dir = config.photosDirectory,
              let data = FileManager.default.contents(atPath: dir.appendingPathComponent(name).path), data.count <= Self.maxPhotoBytes,
              let kind = PhotoContent.recognise(Array(data)) else { return notFound(r) }
        let type: String = { if case .png = kind { return "image/png" }; return "image/jpeg" }()
        return WebResponse(status: 200, contentType: type, body: Array(data))
    }

    // MARK: Shared answers

    func cookie(_ token: String) -> String {
        "\(Self.cookieName)=\(token); Path=/guardian; HttpOnly; SameSite=Strict" + (config.secureCookies ? "; Secure" : "")
    }

    var clearedCookie: String {
        "\(Self.cookieName)=; Path=/guardian; HttpOnly; SameSite=Strict; Max-Age=0" + (config.secureCookies ? "; Secure" : "")
    }

    func forbidden(_ r: Request) -> WebResponse {
        r.page(screen: "error", titleKey: "web.error.title", status: 403, error: PageError(field: nil, message: r.t("web.error.forbidden")))
    }

    func notFound(_ r: Request) -> WebResponse {
        r.page(screen: "error", titleKey: "web.error.title", status: 404, error: PageError(field: nil, message: r.t("web.error.notFound")))
    }

    func languageLinks(_ r: Request, base: String) -> HTML {
        var h: HTML = "<nav class=\"lang\" aria-label=\"\(r.t("web.nav.language"))\"><ul>"
        for tag in Self.locales where tag != r.locale {
            h += "<li><a href=\"\(base)?lang=\(tag)\" lang=\"\(tag)\" hreflang=\"\(tag)\">\(r.localizer.text("web.language.name", locale: tag))</a></li>"
        }
        return h + "</ul></nav>"
    }
}

extension WebResponse {
    func with(cookie: String) -> WebResponse {
        var copy = self
        copy.headers.append(("Set-Cookie", cookie))
        return copy
    }
}
