import CLibPQ

/// One row of a result, read by column with the type the caller expects. Valid only inside the
/// closure it is given to (the result is freed afterwards). Results come in PostgreSQL's text
/// format: numbers are parsed, `bytea` is decoded from its hex form.
package struct PostgresRow {
    let result: OpaquePointer
    let row: Int32
    let statement: String

    /// The number of columns.
    package var count: Int { Int(PQnfields(result)) }

    package func isNull(_ column: Int) -> Bool {
        PQgetisnull(result, row, Int32(column)) == 1
    }

    /// The column as text; NULL is an error (`optionalText` reads a nullable column).
    package func text(_ column: Int) throws -> String {
        guard let value = try optionalText(column) else { throw mismatch(column, "text, not NULL") }
        return value
    }

    package func optionalText(_ column: Int) throws -> String? {
        guard column >= 0, column < count else { throw mismatch(column, "a column") }
        guard !isNull(column), let bytes = PQgetvalue(result, row, Int32(column)) else { return nil }
        return String(cString: bytes)
    }

    /// The column as a 64-bit integer (smallint, integer, bigint).
    package func int(_ column: Int) throws -> Int64 {
        guard let value = try optionalInt(column) else { throw mismatch(column, "an integer, not NULL") }
        return value
    }

    package func optionalInt(_ column: Int) throws -> Int64? {
        guard let text = try optionalText(column) else { return nil }
        guard let value = Int64(text) else { throw mismatch(column, "an integer") }
        return value
    }

    /// The column as a boolean (`t` or `f`).
    package func bool(_ column: Int) throws -> Bool {
        switch try optionalText(column) {
        case "t": return true
        case "f": return false
        default: throw mismatch(column, "a boolean")
        }
    }

    /// A `bytea` column's bytes (the server's hex output, `\x0a1b…`).
    package func bytes(_ column: Int) throws -> [UInt8] {
        guard let value = try optionalBytes(column) else { throw mismatch(column, "bytes, not NULL") }
        return value
    }

    package func optionalBytes(_ column: Int) throws -> [UInt8]? {
        guard let text = try optionalText(column) else { return nil }
        let hex = Array(text.utf8)
        guard hex.count >= 2, hex[0] == UInt8(ascii: "\\"), hex[1] == UInt8(ascii: "x"), hex.count % 2 == 0 else {
            throw mismatch(column, "bytea in hex")
        }
        var out: [UInt8] = []
        out.reserveCapacity((hex.count - 2) / 2)
        var i = 2
        while i < hex.count {
            guard let high = Self.nibble(hex[i]), let low = Self.nibble(hex[i + 1]) else { throw mismatch(column, "bytea in hex") }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }

    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private func mismatch(_ column: Int, _ expected: String) -> PostgresError {
        .unexpectedValue(column: column, expected: expected, statement: statement)
    }
}
