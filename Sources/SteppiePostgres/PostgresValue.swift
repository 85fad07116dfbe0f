import Glibc

/// A statement's parameter: always sent apart from the SQL (`$1`, `$2`, …), never spliced into it.
package enum PostgresValue: Equatable, Sendable {
    case null
    /// Sent as text of an unspecified type, so the server reads it as its column's type (text,
    /// jsonb, timestamptz); it may not contain NUL.
    case text(String)
    case integer(Int64)
    case bool(Bool)
    /// Sent in binary, as `bytea`.
    case bytes([UInt8])

    package static func int(_ value: Int) -> PostgresValue { .integer(Int64(value)) }

    /// A list of strings as a `text[]` literal, for `column = ANY($n::text[])`: every element
    /// quoted (so an empty string, `NULL`, a comma or a brace stays an element of its own), its
    /// `"` and `\` escaped. Unlike a `jsonb` list unnested in a subquery, whose length the planner
    /// guesses (100 rows) and which it met with a hash join over a sequential scan of the whole
    /// table, the planner reads this literal's elements and their statistics, and takes the
    /// column's index for a few of them.
    package static func textArray(_ items: some Sequence<String>) -> PostgresValue {
        var literal = "{"
        for (k, item) in items.enumerated() {
            if k > 0 { literal += "," }
            literal += "\""
            for scalar in item.unicodeScalars {
                if scalar == "\"" || scalar == "\\" { literal.unicodeScalars.append("\\") }
                literal.unicodeScalars.append(scalar)
            }
            literal += "\""
        }
        return .text(literal + "}")
    }

    /// Whether `text` holds a NUL character (PostgreSQL's text cannot), found by `memchr`: a push's
    /// feed rows are kilobytes, and the generic `contains` read them a byte at a time.
    static func holdsNUL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { $0.count > 0 && memchr($0.baseAddress!, 0, $0.count) != nil }
    }

    /// The type the value is sent as (0: the server decides from the statement).
    var typeOid: UInt32 {
        switch self {
        case .null, .text: 0
        case .integer: 20   // int8
        case .bool: 16      // bool
        case .bytes: 17     // bytea
        }
    }
}
