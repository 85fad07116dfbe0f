import Foundation
import SteppieHTML

/// One guardian page: the shared frame (language, screen name, navigation, sign-out) around a
/// body. Plain HTML that works without scripts; `guardian.js` only adds the PIN pad, drag to
/// reorder and "play" without reloading.
struct HTMLPage {
    var title: String
    /// The page's `data-screen` (`sign-in`, `home`, `feedback`, …): a stable hook for tests.
    var screen: String
    var locale: String
    var body: HTML
    /// Present when signed in: the navigation and the sign-out form.
    var nav: Nav?
    var notice: String?
    var error: PageError?
    /// On the kiosk (the pages on loopback, beside the child's page): where the child's page is,
    /// and after how many idle seconds `guardian.js` goes back there (signed in: through "Child
    /// screen", which ends the session). Nil on the home network.
    var kiosk: Kiosk?
    /// Classes of `<html>` (a printable page's paper: `paper-a4`, `paper-letter`).
    var htmlClass: String?

    struct Kiosk {
        var home: String
        var idleSeconds: Int
    }

    struct Nav {
        var csrf: String
        var items: [(href: String, label: String, current: Bool)]
        /// The label of "Child screen" (nil: none, as on the home network): a form that ends the
        /// session on its way to the child's page.
        var childScreen: String?
        var signOut: String
        var languageLabel: String
        var otherLanguages: [(tag: String, label: String, href: String)]
    }

    func render() -> HTML {
        var h: HTML = """
        <!doctype html>
        <html lang="\(locale)" data-screen="\(screen)"\(htmlClass.map { c -> HTML in " class=\"\(c)\"" } ?? "")>
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title)</title>
        <link rel="stylesheet" href="/static/guardian.css">
        <script src="/static/guardian.js" defer></script>
        </head>
        <body\(kiosk.map { k -> HTML in " data-kiosk-home=\"\(k.home)\" data-idle-seconds=\"\(String(k.idleSeconds))\"" } ?? "")>
        <header class="top">
        """
        if let nav {
            h += "<nav aria-label=\"\(nav.languageLabel)\" class=\"lang\">"
            for other in nav.otherLanguages {
                h += "<a href=\"\(other.href)\" lang=\"\(other.tag)\" hreflang=\"\(other.tag)\">\(other.label)</a>"
            }
            h += "</nav><nav aria-label=\"Steppie\" class=\"main-nav\"><ul>"
            for item in nav.items {
                h += "<li><a href=\"\(item.href)\"\(item.current ? (" aria-current=\"page\"" as HTML) : ("" as HTML))>\(item.label)</a></li>"
            }
            if let label = nav.childScreen {
                h += "<li><form method=\"post\" action=\"/guardian/child-screen\" class=\"leave\">\(csrfField(nav.csrf))"
                h += "<button type=\"submit\" class=\"link\" data-nav=\"child-screen\">\(label)</button></form></li>"
            }
            h += "</ul></nav>"
            h += "<form method=\"post\" action=\"/guardian/sign-out\" class=\"sign-out\">\(csrfField(nav.csrf))"
            h += "<button type=\"submit\">\(nav.signOut)</button></form>"
        }
        h += "</header>\n<main id=\"main\">\n<h1>\(title)</h1>\n"
        if let notice { h += "<p class=\"notice\" role=\"status\">\(notice)</p>\n" }
        if let error {
            h += "<div class=\"error\" id=\"form-error\" role=\"alert\" data-error-field=\"\(error.field ?? "")\"><p>\(error.message)</p></div>\n"
        }
        h += body
        h += "\n</main>\n</body>\n</html>\n"
        return h
    }
}

/// A refusal shown on the page: which form field (if one) and why, in the page's language.
struct PageError: Equatable {
    var field: String?
    var message: String
}

/// The hidden field every changing form carries.
func csrfField(_ token: String) -> HTML {
    "<input type=\"hidden\" name=\"csrf\" value=\"\(token)\">"
}
