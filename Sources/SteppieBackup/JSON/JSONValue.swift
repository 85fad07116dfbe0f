/// A parsed JSON value. Numbers keep their value as `Double` (exact for every integer a backup holds).
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    var isNull: Bool { if case .null = self { true } else { false } }
}

/// A small recursive-descent JSON parser over bytes (RFC 8259), with a depth limit.
///
/// It can also stream one array of the top-level object: each element is handed to a closure
/// as soon as it is parsed and the tree keeps an empty array in its place, so a document whose
/// bulk is one long array never exists as a whole tree.
struct JSONParser {
    /// Receives each element of the streamed array with its index, in document order.
    typealias ElementHandler = (JSONValue, Int) -> Void

    private let bytes: [UInt8]
    private var i = 0
    private let maxDepth = 64
    /// The top-level key whose array value is streamed, and where its elements go.
    private var streamed: (key: String, handle: ElementHandler)?

    /// Parses one JSON document; trailing non-space bytes are an error.
    static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var p = JSONParser(bytes: bytes)
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == bytes.count else { throw p.fail("unexpected data after the end of the document") }
        return v
    }

    /// Parses one JSON document like `parse(_:)`, except that when the top-level object's `key`
    /// holds an array, its elements go to `handle` one by one and the returned tree holds an
    /// empty array there. Syntax, depth and duplicate-key checks are the same as `parse(_:)`'s.
    static func parse(_ bytes: [UInt8], streaming key: String,
                      into handle: @escaping ElementHandler) throws(JSONParseError) -> JSONValue {
        var p = JSONParser(bytes: bytes)
        p.streamed = (key, handle)
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == bytes.count else { throw p.fail("unexpected data after the end of the document") }
        return v
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// The elements of the streamed array (the cursor is on its `[`), each handed over and
    /// dropped; nesting depths are counted exactly as for an array kept in the tree.
    private mutating func streamArray(depth: Int, to handle: ElementHandler) throws(JSONParseError) -> JSONValue {
        guard depth < maxDepth else { throw fail("nested too deeply") }
        i += 1
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array([]) }
        var n = 0
        while true {
            skipSpace()
            handle(try value(depth: depth + 1), n)
            n += 1
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end of data") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            try expect(UInt8(ascii: "]"))
            return .array([])
        }
    }

    private func fail(_ reason: String) -> JSONParseError { JSONParseError(offset: i, reason: reason) }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < maxDepth else { throw fail("nested too deeply") }
        guard i < bytes.count else { throw fail("unexpected end of data") }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            var object: [String: JSONValue] = [:]
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(object) }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                let key = try string()
                skipSpace()
                try expect(UInt8(ascii: ":"))
                skipSpace()
                let member: JSONValue
                if depth == 0, let streamed, streamed.key == key, i < bytes.count, bytes[i] == UInt8(ascii: "[") {
                    member = try streamArray(depth: depth + 1, to: streamed.handle)
                } else {
                    member = try value(depth: depth + 1)
                }
                guard object.updateValue(member, forKey: key) == nil else { throw fail("duplicate key \(key)") }
                skipSpace()
                guard i < bytes.count else { throw fail("unexpected end of data") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                try expect(UInt8(ascii: "}"))
                return .object(object)
            }
        case UInt8(ascii: "["):
            i += 1
            var array: [JSONValue] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(array) }
            while true {
                skipSpace()
                array.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw fail("unexpected end of data") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                try expect(UInt8(ascii: "]"))
                return .array(array)
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func expect(_ b: UInt8) throws(JSONParseError) {
        guard i < bytes.count, bytes[i] == b else { throw fail("expected '\(Character(Unicode.Scalar(b)))'") }
        i += 1
    }

    private mutating func literal(_ word: String) throws(JSONParseError) {
        for b in word.utf8 { try expect(b) }
    }

    private mutating func number() throws(JSONParseError) -> Double {
        let start = i
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        let digits = i
        while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
        guard i > digits else { throw fail("expected a value") }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let f = i
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
            guard i > f else { throw fail("bad number") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            let e = i
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
            guard i > e else { throw fail("bad number") }
        }
        guard let v = Double(String(decoding: bytes[start..<i], as: UTF8.self)), v.isFinite else { throw fail("bad number") }
        return v
    }

    private mutating func string() throws(JSONParseError) -> String {
        i += 1   // opening quote
        let start = i
        // Fast path: no escapes.
        while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 { i += 1 }
        guard i < bytes.count else { throw fail("unterminated string") }
        var out = Array(bytes[start..<i])
        while true {
            guard i < bytes.count else { throw fail("unterminated string") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { i += 1; break }
            guard b >= 0x20 else { throw fail("control character in a string") }
            if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
            i += 1
            guard i < bytes.count else { throw fail("unterminated string") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else { throw fail("lone surrogate") }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw fail("lone surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail("lone surrogate") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw fail("bad escape")
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw fail("invalid UTF-8 in a string") }
        return s
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("bad \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: throw fail("bad \\u escape")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }
}

/// Where and why JSON parsing stopped.
struct JSONParseError: Error, Equatable {
    let offset: Int
    let reason: String
}
