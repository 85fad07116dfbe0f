/// A small recursive-descent JSON parser (RFC 8259) over bytes pulled in chunks, so a document
/// never has to be in memory whole. Depth, string length, unknown fields and the size of the kept
/// tree are limited by `JSONParseOptions`.
///
/// It can also stream one array of the top-level object: each element is handed to a closure
/// as soon as it is parsed and the tree keeps an empty array in its place, so a document whose
/// bulk is one long array never exists as a whole tree.
struct JSONParser {
    /// Receives each element of the streamed array with its index, in document order; may throw
    /// to stop the parse (the error is rethrown as is).
    typealias ElementHandler = (JSONValue, Int) throws -> Void
    /// Fills the buffer with the next bytes of the document; returns how many, 0 at the end.
    typealias Source = (UnsafeMutableRawBufferPointer) throws -> Int

    private let options: JSONParseOptions
    /// The current chunk: `buffer[0..<end]` holds the document's bytes from offset `base`.
    private var buffer: [UInt8]
    private var end: Int
    private var i = 0
    private var base = 0
    private let source: Source?
    private var finished = false
    /// The top-level key whose array value is streamed, and where its elements go.
    private var streamed: (key: String, handle: ElementHandler)?
    /// The error of the source or the handler, thrown in place of `JSONParseError.Kind.forwarded`.
    private var forwarded: (any Error)?
    /// Estimated bytes of the tree kept so far (see `JSONParseOptions.maxStructureBytes`).
    private var spent = 0
    /// While an unknown field is skipped: its name and the offset its value may not pass.
    private var skipping: (field: String, limit: Int)?
    private var scratch: [UInt8] = []

    private static let chunkSize = 1 << 16
    private static let valueCost = 48

    /// Parses one JSON document held in memory; trailing non-space bytes are an error.
    static func parse(_ bytes: [UInt8], options: JSONParseOptions = JSONParseOptions()) throws -> JSONValue {
        var p = JSONParser(bytes: bytes, source: nil, options: options)
        return try p.document()
    }

    /// Parses one JSON document like `parse(_:)`, except that when the top-level object's `key`
    /// holds an array, its elements go to `handle` one by one and the returned tree holds an
    /// empty array there. Syntax, depth and duplicate-key checks are the same as `parse(_:)`'s.
    static func parse(_ bytes: [UInt8], options: JSONParseOptions = JSONParseOptions(), streaming key: String,
                      into handle: @escaping ElementHandler) throws -> JSONValue {
        var p = JSONParser(bytes: bytes, source: nil, options: options)
        p.streamed = (key, handle)
        return try p.document()
    }

    /// Parses a document pulled from `source` chunk by chunk, streaming `key` as above. Errors
    /// of `source` and `handle` are rethrown unchanged.
    static func parse(source: @escaping Source, options: JSONParseOptions, streaming key: String,
                      into handle: @escaping ElementHandler) throws -> JSONValue {
        var p = JSONParser(bytes: [UInt8](repeating: 0, count: chunkSize), source: source, options: options)
        p.end = 0
        p.streamed = (key, handle)
        return try p.document()
    }

    private init(bytes: [UInt8], source: Source?, options: JSONParseOptions) {
        self.buffer = bytes
        self.end = bytes.count
        self.source = source
        self.options = options
    }

    private mutating func document() throws -> JSONValue {
        do {
            try skipSpace()
            let v = try value(depth: 0, open: false)
            try skipSpace()
            guard try peek() == nil else { throw fail("unexpected data after the end of the document") }
            return v
        } catch let error as JSONParseError {
            if error.kind == .forwarded, let forwarded { throw forwarded }
            throw error
        }
    }

    // MARK: Bytes

    private var offset: Int { base + i }

    private func fail(_ reason: String, _ kind: JSONParseError.Kind = .syntax) -> JSONParseError {
        JSONParseError(offset: offset, reason: reason, kind: kind)
    }

    /// Moves to the next chunk (the cursor must be at the end of this one); false at the end of the document.
    private mutating func refill() throws(JSONParseError) -> Bool {
        guard let source, !finished else { return false }
        base += end
        i = 0
        end = 0
        let pulled: Result<Int, any Error> = buffer.withUnsafeMutableBytes { raw in Result { try source(raw) } }
        switch pulled {
        case .success(let n):
            end = n
            if n == 0 { finished = true }
        case .failure(let error):
            forwarded = error
            throw fail("source failed", .forwarded)
        }
        if let skipping, base > skipping.limit { throw unknownTooLarge(skipping.field) }
        return end > 0
    }

    @inline(__always)
    private mutating func peek() throws(JSONParseError) -> UInt8? {
        if i < end { return buffer[i] }
        return try refill() ? buffer[i] : nil
    }

    private mutating func skipSpace() throws(JSONParseError) {
        while true {
            while i < end {
                let b = buffer[i]
                guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
                i += 1
            }
            guard try refill() else { return }
        }
    }

    private mutating func expect(_ b: UInt8) throws(JSONParseError) {
        guard try peek() == b else { throw fail("expected '\(Character(Unicode.Scalar(b)))'") }
        i += 1
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for b in bytes { try expect(b) }
    }

    private mutating func charge(_ bytes: Int) throws(JSONParseError) {
        spent += JSONParser.valueCost + bytes
        if spent > options.maxStructureBytes { throw fail("the kept data is too large", .structureTooLarge) }
    }

    private func unknownTooLarge(_ field: String) -> JSONParseError {
        fail("the value of \(field) is too large", .unknownTooLarge(field: field))
    }

    // MARK: Values

    /// One value, kept. In an `open` object every key is kept (language tags).
    private mutating func value(depth: Int, open: Bool) throws(JSONParseError) -> JSONValue {
        guard depth < options.maxDepth else { throw fail("nested too deeply", .tooDeep) }
        guard let b = try peek() else { throw fail("unexpected end of data") }
        try charge(0)
        switch b {
        case UInt8(ascii: "{"):
            i += 1
            var object: [String: JSONValue] = [:]
            try skipSpace()
            if try peek() == UInt8(ascii: "}") { i += 1; return .object(object) }
            while true {
                try skipSpace()
                guard try peek() == UInt8(ascii: "\"") else { throw fail("expected a key") }
                let key = try string()
                try skipSpace()
                try expect(UInt8(ascii: ":"))
                try skipSpace()
                if open || options.knownKeys?.contains(key) ?? true {
                    try charge(key.utf8.count)
                    let member: JSONValue
                    if depth == 0, let streamed, streamed.key == key, try peek() == UInt8(ascii: "[") {
                        member = try streamArray(depth: depth + 1, to: streamed.handle)
                    } else {
                        member = try value(depth: depth + 1, open: options.openKeys.contains(key))
                    }
                    guard object.updateValue(member, forKey: key) == nil else { throw fail("duplicate key \(key)") }
                } else {
                    try skipUnknown(key, depth: depth + 1)
                }
                try skipSpace()
                guard let next = try peek() else { throw fail("unexpected end of data") }
                if next == UInt8(ascii: ",") { i += 1; continue }
                try expect(UInt8(ascii: "}"))
                return .object(object)
            }
        case UInt8(ascii: "["):
            i += 1
            var array: [JSONValue] = []
            try skipSpace()
            if try peek() == UInt8(ascii: "]") { i += 1; return .array(array) }
            while true {
                try skipSpace()
                array.append(try value(depth: depth + 1, open: false))
                try skipSpace()
                guard let next = try peek() else { throw fail("unexpected end of data") }
                if next == UInt8(ascii: ",") { i += 1; continue }
                try expect(UInt8(ascii: "]"))
                return .array(array)
            }
        case UInt8(ascii: "\""):
            let s = try string()
            try charge(s.utf8.count)
            return .string(s)
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    /// The elements of the streamed array (the cursor is on its `[`), each handed over and
    /// dropped; nesting depths are counted exactly as for an array kept in the tree, and each
    /// element's kept size on its own.
    private mutating func streamArray(depth: Int, to handle: ElementHandler) throws(JSONParseError) -> JSONValue {
        guard depth < options.maxDepth else { throw fail("nested too deeply", .tooDeep) }
        i += 1
        try skipSpace()
        if try peek() == UInt8(ascii: "]") { i += 1; return .array([]) }
        let outside = spent
        var n = 0
        while true {
            try skipSpace()
            spent = 0
            let element = try value(depth: depth + 1, open: false)
            do { try handle(element, n) } catch {
                forwarded = error
                throw fail("handler failed", .forwarded)
            }
            n += 1
            try skipSpace()
            guard let next = try peek() else { throw fail("unexpected end of data") }
            if next == UInt8(ascii: ",") { i += 1; continue }
            try expect(UInt8(ascii: "]"))
            spent = outside
            return .array([])
        }
    }

    /// Skips the value of the unknown field `key`: syntax, depth and string length are checked,
    /// nothing is kept, and the value may not be longer than `maxUnknownValueBytes`.
    private mutating func skipUnknown(_ key: String, depth: Int) throws(JSONParseError) {
        let start = offset
        let (limit, overflow) = start.addingReportingOverflow(options.maxUnknownValueBytes)
        skipping = (key, overflow ? Int.max : limit)
        try skip(depth: depth)
        if let skipping, offset > skipping.limit { throw unknownTooLarge(key) }
        skipping = nil
    }

    private mutating func checkSkipLimit() throws(JSONParseError) {
        if let skipping, offset > skipping.limit { throw unknownTooLarge(skipping.field) }
    }

    /// One value, checked and dropped.
    private mutating func skip(depth: Int) throws(JSONParseError) {
        guard depth < options.maxDepth else { throw fail("nested too deeply", .tooDeep) }
        guard let b = try peek() else { throw fail("unexpected end of data") }
        switch b {
        case UInt8(ascii: "{"):
            i += 1
            try skipSpace()
            if try peek() == UInt8(ascii: "}") { i += 1; return }
            while true {
                try skipSpace()
                guard try peek() == UInt8(ascii: "\"") else { throw fail("expected a key") }
                try string(keep: false)
                try skipSpace()
                try expect(UInt8(ascii: ":"))
                try skipSpace()
                try skip(depth: depth + 1)
                try checkSkipLimit()
                try skipSpace()
                guard let next = try peek() else { throw fail("unexpected end of data") }
                if next == UInt8(ascii: ",") { i += 1; continue }
                try expect(UInt8(ascii: "}"))
                return
            }
        case UInt8(ascii: "["):
            i += 1
            try skipSpace()
            if try peek() == UInt8(ascii: "]") { i += 1; return }
            while true {
                try skipSpace()
                try skip(depth: depth + 1)
                try checkSkipLimit()
                try skipSpace()
                guard let next = try peek() else { throw fail("unexpected end of data") }
                if next == UInt8(ascii: ",") { i += 1; continue }
                try expect(UInt8(ascii: "]"))
                return
            }
        case UInt8(ascii: "\""): try string(keep: false)
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try number()
        }
    }

    // MARK: Scalars

    private mutating func number() throws(JSONParseError) -> Double {
        scratch.removeAll(keepingCapacity: true)
        func digits(_ p: inout JSONParser) throws(JSONParseError) -> Int {
            var n = 0
            while let b = try p.peek(), (0x30...0x39).contains(b) {
                p.scratch.append(b)
                p.i += 1
                n += 1
                if p.scratch.count > p.options.maxStringBytes { throw p.fail("number too long", .stringTooLong) }
            }
            return n
        }
        if try peek() == UInt8(ascii: "-") { scratch.append(UInt8(ascii: "-")); i += 1 }
        guard try digits(&self) > 0 else { throw fail("expected a value") }
        if try peek() == UInt8(ascii: ".") {
            scratch.append(UInt8(ascii: ".")); i += 1
            guard try digits(&self) > 0 else { throw fail("bad number") }
        }
        if let e = try peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            scratch.append(e); i += 1
            if let sign = try peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { scratch.append(sign); i += 1 }
            guard try digits(&self) > 0 else { throw fail("bad number") }
        }
        guard let v = Double(String(decoding: scratch, as: UTF8.self)), v.isFinite else { throw fail("bad number") }
        return v
    }

    private mutating func string() throws(JSONParseError) -> String {
        try scanString()
        guard let s = String(validating: scratch, as: UTF8.self) else { throw fail("invalid UTF-8 in a string") }
        return s
    }

    private mutating func string(keep: Bool) throws(JSONParseError) {
        try scanString()
        let valid = scratch.withUnsafeBufferPointer { Self.isValidUTF8($0) }
        guard valid else { throw fail("invalid UTF-8 in a string") }
    }

    private static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// Reads a string (the cursor is on its opening quote) into `scratch`, unescaped.
    private mutating func scanString() throws(JSONParseError) {
        i += 1   // opening quote
        scratch.removeAll(keepingCapacity: true)
        let limit = options.maxStringBytes
        while true {
            // Fast path: a run without quotes, escapes or controls.
            let start = i
            while i < end {
                let b = buffer[i]
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 { break }
                i += 1
            }
            if i > start {
                scratch.append(contentsOf: buffer[start..<i])
                if scratch.count > limit { throw fail("string too long", .stringTooLong) }
            }
            if i == end {
                guard try refill() else { throw fail("unterminated string") }
                continue
            }
            let b = buffer[i]
            if b == UInt8(ascii: "\"") { i += 1; return }
            guard b >= 0x20 else { throw fail("control character in a string") }
            i += 1
            guard let e = try peek() else { throw fail("unterminated string") }
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(e)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard try peek() == UInt8(ascii: "\\") else { throw fail("lone surrogate") }
                    i += 1
                    guard try peek() == UInt8(ascii: "u") else { throw fail("lone surrogate") }
                    i += 1
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw fail("lone surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail("lone surrogate") }
                UTF8.encode(u) { scratch.append($0) }
            default: throw fail("bad escape")
            }
            if scratch.count > limit { throw fail("string too long", .stringTooLong) }
        }
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let b = try peek() else { throw fail("bad \\u escape") }
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
