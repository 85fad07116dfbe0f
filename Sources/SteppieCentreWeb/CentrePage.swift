import SteppieHTML

/// One staff page: the frame (language, screen name, navigation, sign-out) around a body. Plain
/// HTML that works without scripts; `centre.js` only refreshes the overview in place.
struct CentrePage {
    var title: String
    /// The page's `data-screen` (`sign-in`, `overview`, `month`, `groups`, `admin`): a stable hook for tests.
    var screen: String
    var locale: String
    var body: HTML
    var error: String?
    var notice: String?
    /// Without scripts, the page reloads itself after this many seconds (the overview).
    var refresh: Int?
    /// Present when signed in.
    var nav: Nav?
    /// The language switch when signed out.
    var otherLanguages: [(tag: String, label: String, href: String)] = []
    var languageLabel = ""

    struct Nav {
        var csrf: String
        var signedInAs: String
        var items: [(href: String, label: String, current: Bool)]
        var signOut: String
        var languageLabel: String
        var otherLanguages: [(tag: String, label: String, href: String)]
    }

    init(title: String, screen: String, locale: String, body: HTML, error: String?, notice: String?, refresh: Int?) {
        self.title = title; self.screen = screen; self.locale = locale; self.body = body
        self.error = error; self.notice = notice; self.refresh = refresh
    }

    func render() -> HTML {
        var h: HTML = """
        <!doctype html>
        <html lang="\(locale)" data-screen="\(screen)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        """
        // In <noscript>: with the script on, the page updates in place and never reloads.
        if let refresh { h += "<noscript><meta http-equiv=\"refresh\" content=\"\(refresh)\"></noscript>\n" }
        h += """
        <title>\(title)</title>
        <link rel="stylesheet" href="/staff/static/guardian.css">
        <link rel="stylesheet" href="/staff/static/centre.css">
        <script src="/staff/static/centre.js" defer></script>
        </head>
        <body>
        <header class="top">
        """
        let languages = nav?.otherLanguages ?? otherLanguages
        h += "<nav aria-label=\"\(nav?.languageLabel ?? languageLabel)\" class=\"lang\">"
        for other in languages { h += "<a href=\"\(other.href)\" lang=\"\(other.tag)\" hreflang=\"\(other.tag)\">\(other.label)</a>" }
        h += "</nav>"
        if let nav {
            h += "<nav aria-label=\"Steppie\" class=\"main-nav\"><ul>"
            for item in nav.items {
                h += "<li><a href=\"\(item.href)\"\(item.current ? (" aria-current=\"page\"" as HTML) : "")>\(item.label)</a></li>"
            }
            h += "</ul></nav><p class=\"who\" data-signed-in>\(nav.signedInAs)</p>"
            h += "<form method=\"post\" action=\"/staff/sign-out\" class=\"sign-out\"><input type=\"hidden\" name=\"csrf\" value=\"\(nav.csrf)\">"
            h += "<button type=\"submit\" data-action=\"sign-out\">\(nav.signOut)</button></form>"
        }
        h += "</header>\n<main id=\"main\">\n<h1>\(title)</h1>\n"
        if let notice { h += "<p class=\"notice\" role=\"status\">\(notice)</p>\n" }
        if let error { h += "<div class=\"error\" id=\"form-error\" role=\"alert\"><p>\(error)</p></div>\n" }
        h += body
        h += "\n</main>\n</body>\n</html>\n"
        return h
    }
}
