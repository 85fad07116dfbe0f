import Foundation
import SteppieCore
import SteppieLocalization
import SteppieStore
import SteppieHTML

extension GuardianWeb {
    /// One request being answered: its store, language, session and what to tell the next page.
    struct Request {
        var web: WebRequest
        let store: Store
        let config: Config
        var locale: String
        var session: WebSessions.Session?
        /// A notice carried from the last form ("saved").
        var notice: String?
        /// A notice for the page after this one (set by a form that succeeded).
        var nextNotice: String?
        /// This request restored a backup (which may bring another PIN): the browser that did it,
        /// with the PIN typed again, stays signed in; every other session ends with the old PIN.
        var pinReplaced = false
        /// This request ends its session (the first run's last step).
        var endsSession = false
        /// The first run's recovery code was written down: it is not shown again.
        var clearsSetupCode = false

        init(web: WebRequest, store: Store, config: Config) {
            self.web = web
            self.store = store
            self.config = config
            // Read once per request: the device's language, else the service's, else Korean.
            let device = (try? store.deviceSettings())?.flatMap(\.locale)
            deviceLocale = [device, config.defaultLocale].compactMap { $0 }.first(where: GuardianWeb.locales.contains) ?? "ko"
            locale = deviceLocale
        }

        var localizer: Localizer { config.localizer }

        /// Whose PIN backoff this request's attempts count against: the home network's pages
        /// (HTTPS) or the device's own.
        var origin: AttemptOrigin { web.secure ? .network : .device }

        /// The device's language (what a new session starts in).
        let deviceLocale: String

        var now: Date { config.clock.now() }
        var today: LocalDay { LocalDay(now, in: config.timeZone) }

        func t(_ key: String, _ args: [String: String] = [:]) -> String {
            localizer.text(key, locale: locale, args: args)
        }

        /// A title in the page's language.
        func title(_ text: LocalizedText) -> String { text.resolve(chosen: locale, system: nil) }

        /// A field's name as the guardian reads it (`web.field.<field>`), else the field itself.
        func fieldLabel(_ field: String) -> String {
            let key = "web.field.\(field)"
            let text = t(key)
            return text == key ? field : text
        }

        /// An error as the page shows it, naming the field when it has one.
        func pageError(_ error: any Error) -> PageError {
            switch error {
            case let v as ContractViolation:
                let say = CatalogRenderer(localizer: localizer, locale: locale)
                return PageError(field: v.field, message: t("web.error.invalid", ["field": fieldLabel(v.field), "value": say.text(v.valueArgument),
                                                                                  "allowed": say.text(v.allowedArgument)]))
            case StoreError.invalid(let v):
                return pageError(v)
            case StoreError.childNameTaken(let name):
                return PageError(field: "child.name", message: t("web.error.nameTaken", ["name": name]))
            case StoreError.routineNotFound, StoreError.setNotFound, StoreError.childNotFound:
                return PageError(field: nil, message: t("web.error.gone"))
            case let e as GuardianEditError:
                switch e {
                case .activeSetCannotBeDeleted: return PageError(field: nil, message: t("web.error.activeSet"))
                case .emptySetCannotBeActivated: return PageError(field: nil, message: t("web.error.emptySet"))
                case .dayInFuture: return PageError(field: "date", message: t("web.error.future"))
                case .dayNotTracked: return PageError(field: "date", message: t("web.error.notTracked"))
                case .lastRoutineOfActiveSet: return PageError(field: nil, message: t("web.error.lastRoutine"))
                default: return PageError(field: nil, message: t("web.error.gone"))
                }
            case let e as FormError:
                return PageError(field: e.field, message: t(e.key, ["field": fieldLabel(e.field)].merging(e.arguments) { a, _ in a }))
            default:
                // The shared sentence, in the page's language (`failureReason`): the error's own
                // words when they show nothing of the server, else the kind of failure; the value
                // itself (paths, SQL) goes to the service's log.
                return PageError(field: nil, message: t("web.error.failed", ["reason": failureReason(error)]))
            }
        }

        /// A whole page in this request's frame.
        /// `setup`: a step of the first run, with neither the navigation (the way on is the step's
        /// own button) nor the kiosk's idle return (there is no child's page yet to go back to).
        func page(screen: String, setup: Bool = false, titleKey: String, titleArgs: [String: String] = [:], status: Int = 200,
                  error: PageError? = nil, htmlClass: String? = nil, body: HTML = "") -> WebResponse {
            var page = HTMLPage(title: t(titleKey, titleArgs), screen: screen, locale: locale, body: body, nav: nil,
                                notice: notice, error: error)
            page.htmlClass = htmlClass
            if onKiosk && !setup { page.kiosk = HTMLPage.Kiosk(home: "/", idleSeconds: config.kioskIdleSeconds) }
            if let session, !setup {
                let items: [(String, String, String)] = [("/guardian/", "web.nav.children", "home"),
                                                         ("/guardian/backup", "web.nav.backup", "backup"),
                                                         ("/guardian/sync", "web.nav.sync", "sync"),
                                                         ("/guardian/l10n", "web.nav.l10n", "l10n")]
                let path = "/" + web.path.joined(separator: "/")
                page.nav = HTMLPage.Nav(
                    csrf: session.csrf,
                    items: items.map { (href: $0.0, label: t($0.1), current: screen == $0.2) },
                    // A form, not a link: going to the child's screen signs this browser out. On the
                    // home network there is no child screen to go back to.
                    childScreen: config.secureCookies ? nil : t("web.nav.childScreen"),
                    signOut: t("web.nav.signOut"), languageLabel: t("web.nav.language"),
                    otherLanguages: GuardianWeb.locales.filter { $0 != locale }.map {
                        (tag: $0, label: localizer.text("web.language.name", locale: $0), href: sameQuery(path, lang: $0))
                    })
            }
            return .html(page.render(), status: status)
        }

        /// This page in another language: its query kept (the month, the day, the paper), `lang` replaced.
        private func sameQuery(_ path: String, lang: String) -> String {
            var allowed = CharacterSet.urlQueryAllowed
            allowed.remove(charactersIn: "&=+#?")
            let kept = web.query.filter { $0.key != "lang" }.sorted { $0.key < $1.key }.compactMap { key, value -> String? in
                guard let k = key.addingPercentEncoding(withAllowedCharacters: allowed),
                      let v = value.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
                return k + "=" + v
            }
            return path + "?" + (kept + ["lang=" + lang]).joined(separator: "&")
        }

        /// These pages are the kiosk's (loopback, beside the child's page), not the home network's.
        var onKiosk: Bool { !config.secureCookies }

        /// On the kiosk, the way back to the child's page from a page with no session (the PIN pad).
        var backToChild: HTML {
            onKiosk ? "<p class=\"back\"><a href=\"/\" data-nav=\"back\">\(t("web.signIn.back"))</a></p>" : ""
        }

        /// The hidden CSRF field of this session's forms.
        var csrf: HTML { session.map { csrfField($0.csrf) } ?? "" }
    }

    /// A form value that could not be read (not a number, a missing choice), naming the field.
    struct FormError: Error, Equatable {
        var field: String
        var key: String = "web.error.form"
        var arguments: [String: String] = [:]
    }
}
