/// A strict JSON reader into `SyncValue`, for the protocol's hot path (a pull's 2,000 entries):
/// what it returns is what Foundation's `JSONDecoder` decodes `SyncValue` to, and anything it is
/// not sure of — an exponent, a fraction that is a whole number (`1.0`, which `JSONDecoder` reads as
/// an integer), an integer outside Int64, `-0`, a duplicate key, a lone
/// surrogate, bytes that are not UTF-8, a byte-order mark, too deep or too large — it does not
/// decide (nil): the caller asks `JSONDecoder`, whose answer (or refusal) stands.
package struct SyncJSONParser {
    /// Deeper nesting is left to `JSONDecoder` (which refuses past 512).
    package static let maxDepth = 128
    /// Larger input is left to `JSONDecoder` (the protocol's bodies are at most a few MiB).
    package static let maxBytes = 64 << 20

    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The whole input as one value (whitespace around it allowed), or nil (see the type).
    package static func value(_ input: some Collection<UInt8>) -> SyncValue? {
        reading(input) { $0.value(depth: 0) }
    }

    mutating func skipSpace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x0A, 0x0D, 0x09: at += 1
            default: return
            }
        }
    }

    mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard at + count <= bytes.count else { return false }
        for i in 0..<count where bytes[at + i] != word.utf8Start[i] { return false }
        at += count
        return true
    }

    mutating func value(depth: Int) -> SyncValue? {
        guard at < bytes.count, depth < Self.maxDepth else { return nil }
        switch bytes[at] {
        case UInt8(ascii: "{"): return object(depth: depth + 1)
        case UInt8(ascii: "["): return array(depth: depth + 1)
        case UInt8(ascii: "\""): return string().map(SyncValue.string)
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return nil
        }
    }

    /// An object (a key twice: nil), read member by member as the typed readers read theirs.
    private mutating func object(depth: Int) -> SyncValue? {
        var members: [String: SyncValue] = [:]
        let read = self.members { p, key in
            guard let member = p.value(depth: depth) else { return false }
            return members.updateValue(member, forKey: key) == nil
        }
        return read ? .object(members) : nil
    }

    private mutating func array(depth: Int) -> SyncValue? {
        list { $0.value(depth: depth) }.map(SyncValue.array)
    }

    /// An integer (`integer`), or a decimal fraction `-?(0|[1-9][0-9]*)\.[0-9]+` whose value is not
    /// a whole number: `JSONDecoder` reads that as `SyncValue.double` (its `Int64` decoding refuses
    /// it), the nearest double, as `Double(String)` is (both round correctly). A whole value
    /// (`1.0`, or digits past a double's precision that round to one) and any exponent are left to
    /// `JSONDecoder`, which may read them as integers.
    private mutating func number() -> SyncValue? {
        let start = at
        if let whole = integer() { return .int(whole) }
        at = start
        if bytes[at] == UInt8(ascii: "-") { at += 1 }
        guard at < bytes.count, Self.isDigit(bytes[at]) else { return nil }
        if bytes[at] == UInt8(ascii: "0") { at += 1 } else { while at < bytes.count, Self.isDigit(bytes[at]) { at += 1 } }
        guard at < bytes.count, bytes[at] == UInt8(ascii: ".") else { return nil }
        at += 1
        let fraction = at
        while at < bytes.count, Self.isDigit(bytes[at]) { at += 1 }
        guard at > fraction, at - start <= Self.maxFractionLength else { return nil }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") { return nil }
        guard let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)),
              value.isFinite, value.rounded(.towardZero) != value else { return nil }
        return .double(value)
    }

    /// Longer decimal fractions are left to `JSONDecoder` (a device writes at most 17 digits).
    static let maxFractionLength = 40

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// `-?(0|[1-9][0-9]*)` within Int64 and not `-0`; anything else (a fraction, an exponent) is
    /// not an integer here.
    mutating func integer() -> Int64? {
        let start = at
        let negative = bytes[at] == UInt8(ascii: "-")
        if negative { at += 1 }
        guard at < bytes.count, Self.isDigit(bytes[at]) else { return nil }
        if bytes[at] == UInt8(ascii: "0") {
            at += 1
            if negative { return nil }
        } else {
            while at < bytes.count, Self.isDigit(bytes[at]) { at += 1 }
        }
        if at < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[at]) { return nil }
        let digits = at - start
        guard digits <= 20 else { return nil }
        var magnitude: UInt64 = 0
        for i in (negative ? start + 1 : start)..<at {
            let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(UInt64(bytes[i] - UInt8(ascii: "0")))
            if o1 || o2 { return nil }
            magnitude = sum
        }
        if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// A string with every JSON escape; nil for a raw control character, a lone surrogate or
    /// bytes that are not UTF-8.
    mutating func string() -> String? {
        at += 1
        let start = at
        // The common case: no escape, read in place.
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                let text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
                at += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            at += 1
        }
        var out = Array(bytes[start..<at])
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: out, as: UTF8.self)
            case 0..<0x20:
                return nil
            case UInt8(ascii: "\\"):
                guard at < bytes.count else { return nil }
                let escape = bytes[at]
                at += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard var scalar = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard literal("\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        return nil
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { return nil }
                    out.append(contentsOf: UTF8.encode(unicode).map { Array($0) } ?? [])
                default:
                    return nil
                }
            default:
                out.append(byte)
            }
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard at + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[at]
            at += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
