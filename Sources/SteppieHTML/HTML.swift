/// Markup for the guardian pages and the centre hub's staff pages. A string literal is markup as written (it is code); every
/// value interpolated into one is escaped for element content and quoted attribute values
/// (`&`, `<`, `>`, `"`, `'`), unless it is already `HTML`. So text from the database, the
/// catalogs or a form cannot become markup, and no call site can forget to escape it.
public struct HTML: Sendable, Equatable, ExpressibleByStringInterpolation {
    /// The markup as text.
    public private(set) var markup: String

    public init(stringLiteral value: String) { markup = value }

    public init(stringInterpolation: StringInterpolation) { markup = stringInterpolation.markup }

    /// `text` escaped: shown as it is, never read as markup.
    public init(escaping text: some StringProtocol) { markup = Self.escape(text) }

    /// Nothing.
    public static let empty: HTML = ""

    public var isEmpty: Bool { markup.isEmpty }

    public static func += (lhs: inout HTML, rhs: HTML) { lhs.markup += rhs.markup }

    public static func + (lhs: HTML, rhs: HTML) -> HTML {
        var out = lhs
        out += rhs
        return out
    }

    /// The escaped form of `text` for element content and quoted attribute values.
    static func escape(_ text: some StringProtocol) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var markup = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            markup.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        /// The literal parts: markup as written.
        public mutating func appendLiteral(_ literal: String) { markup += literal }

        /// Markup already: passed through.
        public mutating func appendInterpolation(_ html: HTML) { markup += html.markup }

        /// Markup, or nothing.
        public mutating func appendInterpolation(_ html: HTML?) { markup += html?.markup ?? "" }

        /// Text: escaped.
        public mutating func appendInterpolation(_ text: some StringProtocol) { markup += HTML.escape(text) }

        /// A number, as its decimal text (escaped like any text).
        public mutating func appendInterpolation(_ number: some BinaryInteger) { markup += HTML.escape(String(number)) }

        public mutating func appendInterpolation(_ number: Double) { markup += HTML.escape(String(number)) }
    }
}

extension HTML: CustomStringConvertible {
    public var description: String { markup }
}

extension Sequence where Element == HTML {
    /// The pieces one after another, with `separator` between them.
    public func joined(separator: HTML = "") -> HTML {
        var out = HTML.empty
        var first = true
        for piece in self {
            if !first { out += separator }
            out += piece
            first = false
        }
        return out
    }
}
