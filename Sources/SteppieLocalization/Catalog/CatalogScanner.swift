/// A reader for the one shape catalog files have — a JSON object whose values are strings or
/// objects of strings — straight from the bytes into Swift strings, without building a tree of
/// `Any` first (the general parser took most of a command's start-up).
///
/// It returns `nil` for anything else, including valid JSON of another shape, a key given twice,
/// or bytes that are not UTF-8; the caller then reads the file with Foundation's JSON parser,
/// which gives the precise error (or accepts the unusual file). So the scanner never decides
/// whether a file is valid: it only takes the common path quickly.
enum CatalogScanner {
    typealias Pairs = [(key: String, value: Value)]
    enum Value {
        case text(String)
        case object([(String, String)])
    }

    static func scan(_ bytes: UnsafeRawBufferPointer) -> Pairs? {
        var reader = Reader(bytes: bytes.bindMemory(to: UInt8.self))
        return reader.file()
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func file() -> Pairs? {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var pairs: Pairs = []
            var seen = Set<String>()
            skipSpace()
            if !take(UInt8(ascii: "}")) {
                repeat {
                    skipSpace()
                    guard let key = string(), seen.insert(key).inserted else { return nil }
                    skipSpace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipSpace()
                    guard let value = value() else { return nil }
                    pairs.append((key, value))
                    skipSpace()
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "}")) else { return nil }
            }
            skipSpace()
            return at == bytes.count ? pairs : nil
        }

        private mutating func value() -> Value? {
            if let text = string() { return .text(text) }
            guard take(UInt8(ascii: "{")) else { return nil }
            var forms: [(String, String)] = []
            var seen = Set<String>()
            skipSpace()
            if take(UInt8(ascii: "}")) { return .object(forms) }
            repeat {
                skipSpace()
                guard let name = string(), seen.insert(name).inserted else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                guard let text = string() else { return nil }
                forms.append((name, text))
                skipSpace()
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}")) ? .object(forms) : nil
        }

        /// A JSON string at the cursor, its escapes decoded; nil (cursor unchanged) when there is none.
        private mutating func string() -> String? {
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
            var i = at + 1
            let start = i
            // Fast path: no escape before the closing quote.
            while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\") {
                if bytes[i] < 0x20 { return nil }
                i += 1
            }
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: "\"") {
                guard let text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self) else { return nil }
                at = i + 1
                return text
            }
            var out = Array(bytes[start..<i])
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    guard let text = String(validating: out, as: UTF8.self) else { return nil }
                    at = i + 1
                    return text
                }
                if b < 0x20 { return nil }
                if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
                guard i + 1 < bytes.count else { return nil }
                let e = bytes[i + 1]
                i += 2
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard var unit = hex4(at: i) else { return nil }
                    i += 4
                    if (0xD800..<0xDC00).contains(unit) {
                        // A high surrogate must be followed by an escaped low one.
                        guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u"),
                              let low = hex4(at: i + 2), (0xDC00..<0xE000).contains(low) else { return nil }
                        i += 6
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(unit) {
                        return nil
                    }
                    guard let scalar = Unicode.Scalar(unit) else { return nil }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    return nil
                }
            }
            return nil
        }

        private func hex4(at i: Int) -> UInt32? {
            guard i + 4 <= bytes.count else { return nil }
            var v: UInt32 = 0
            for b in bytes[i..<(i + 4)] {
                let d: UInt8
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
                default: return nil
                }
                v = v << 4 | UInt32(d)
            }
            return v
        }

        private mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[at]) { at += 1 }
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }
    }
}
