/// The paper a printable page is laid out for (`?paper=a4|letter`): the page's `<html>` class
/// selects the stylesheet's named `@page` (size and margins) and the cards' fixed sizes.
enum PrintPaper: String, CaseIterable, Sendable {
    case a4
    case letter

    /// Picture cards on one sheet of the schedule (2 columns × 3 rows): the stylesheet's card
    /// sizes for each paper are computed so that exactly this many fit one page.
    static let cardsPerPage = 6

    /// The paper of `?paper=`, A4 when none or another value is asked for.
    init(query: String?) { self = query.flatMap(PrintPaper.init(rawValue:)) ?? .a4 }

    /// The `<html>` class choosing the named `@page` of `guardian.css`.
    var htmlClass: String { "paper-\(rawValue)" }

    /// Its name on the page switch (a catalog key).
    var labelKey: String { "web.print.paper.\(rawValue)" }
}
