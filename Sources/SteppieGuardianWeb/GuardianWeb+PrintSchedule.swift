import Foundation
import SteppieCore
import SteppieStore
import SteppieHTML

/// The printable picture schedule of a set (`/guardian/set/<id>/print?paper=a4|letter`): the
/// set's routines in their order as cards to cut out, `PrintPaper.cardsPerPage` to a sheet, each
/// sheet headed with the child's name and the set's name. The sheets are laid out here (a page
/// break after each), so no card is ever split; the stylesheet gives each paper its `@page` and
/// card sizes. The cards speak the child's language (else the device's); the controls, the
/// guardian's.
extension GuardianWeb {
    func printSchedule(_ r: Request, set: RoutineSet) -> WebResponse {
        guard let child = try? r.store.child(id: set.childId) else { return notFound(r) }
        let paper = PrintPaper(query: r.web.query["paper"])
        let sheetLocale = [child.profile.locale, r.deviceLocale].compactMap { $0 }.first(where: Self.locales.contains) ?? r.locale
        func say(_ key: String, _ args: [String: String] = [:]) -> String { r.localizer.text(key, locale: sheetLocale, args: args) }
        let setName = set.name.resolve(chosen: sheetLocale, system: nil)
        let routines = ((try? r.store.routines(setId: set.id)) ?? []).filter(\.isVisible).sorted { $0.order < $1.order }
        let sid = set.id.lowercased
        var body = printControls(r, paper: paper, base: "/guardian/set/\(sid)/print", query: [:],
                                 back: ("/guardian/child/\(child.id.lowercased)/routines?set=\(sid)", "web.print.backRoutines"),
                                 hint: "web.print.cutHint")
        if routines.isEmpty { return r.page(screen: "print-schedule", titleKey: "web.print.scheduleTitle", titleArgs: ["set": r.title(set.name)],
                                            htmlClass: paper.htmlClass, body: body + "<p>\(r.t("web.routines.none"))</p>") }
        let pages = stride(from: 0, to: routines.count, by: PrintPaper.cardsPerPage).map {
            Array(routines[$0..<min($0 + PrintPaper.cardsPerPage, routines.count)])
        }
        body += "<div class=\"sheets\" lang=\"\(sheetLocale)\" data-paper=\"\(paper.rawValue)\" data-cards-per-page=\"\(PrintPaper.cardsPerPage)\">"
        for (p, cards) in pages.enumerated() {
            let pageLabel = say("web.print.page", ["page": String(p + 1), "pages": String(pages.count)])
            body += "<section class=\"sheet\" data-sheet=\"\(p + 1)\" aria-label=\"\(pageLabel)\">"
            body += "<header class=\"sheet-head\"><span class=\"who\">\(child.displayName)</span><span class=\"set\">\(setName)</span>"
            body += "<span class=\"page-no\">\(pageLabel)</span></header><ol class=\"sched-cards\">"
            for (i, routine) in cards.enumerated() {
                let number = p * PrintPaper.cardsPerPage + i + 1
                body += "<li class=\"sched-card\" data-tone=\"\(CardColor(token: routine.colorToken)?.rawValue ?? "sky")\" data-routine-id=\"\(routine.id.lowercased)\" data-order=\"\(number)\">"
                body += "<span class=\"num\">\(number)</span><span class=\"pic\">\(cardPicture(routine.icon))</span>"
                body += "<span class=\"title\">\(routine.title.resolve(chosen: sheetLocale, system: nil))</span>"
                if let time = routine.scheduledTime { body += "<span class=\"time\">\(time.description)</span>" }
                body += "</li>"
            }
            body += "</ol></section>"
        }
        body += "</div>"
        return r.page(screen: "print-schedule", titleKey: "web.print.scheduleTitle", titleArgs: ["set": r.title(set.name)],
                      htmlClass: paper.htmlClass, body: body)
    }

    /// A card's picture: the builtin icon or the routine's photo (served behind the session). The
    /// title beside it says what it is, so the picture itself is not read out again.
    private func cardPicture(_ icon: IconRef) -> HTML {
        switch icon {
        case .builtin(let name):
            return "<img src=\"/icons/\(BuiltinIcons.contains(name) ? name : "star").svg\" alt=\"\">"
        case .photo(_, let asset):
            return "<img src=\"/guardian/photos/\(asset)\" alt=\"\" class=\"photo\">"
        }
    }

    /// What a printable page shows on the screen only: the way back, the paper (links keeping
    /// `query`), the Print button and a hint.
    func printControls(_ r: Request, paper: PrintPaper, base: String, query: [String: String], back: (href: String, key: String),
                       hint: String) -> HTML {
        func link(_ paper: PrintPaper) -> String {
            base + "?" + (query.merging(["paper": paper.rawValue]) { _, new in new }).sorted { $0.key < $1.key }
                .map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        }
        var h: HTML = "<div class=\"print-controls\"><p><a href=\"\(back.href)\" data-nav=\"print-back\">← \(r.t(back.key))</a></p>"
        h += "<nav class=\"paper\" aria-label=\"\(r.t("web.print.paper"))\"><span aria-hidden=\"true\">\(r.t("web.print.paper")):</span><ul>"
        for choice in PrintPaper.allCases {
            h += "<li><a href=\"\(link(choice))\" data-paper=\"\(choice.rawValue)\"\(choice == paper ? (" aria-current=\"true\"" as HTML) : "")>\(r.t(choice.labelKey))</a></li>"
        }
        h += "</ul></nav><p><button type=\"button\" data-print>\(r.t("web.print.print"))</button>"
        return h + "<span class=\"hint\">\(r.t(hint))</span></p></div>"
    }
}
