import Foundation

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
    /// Takes one element of the streamed array straight from its bytes, without a tree: called
    /// only for a flat object whose values are all strings or `null`, every key and string printable
    /// ASCII without escapes, within every limit. `members` locate each key and value in `element`.
    /// Returns false to decline; the element is then parsed as usual and goes to the `ElementHandler`
    /// (so errors are always the usual ones). May accept only when every key is a known key.
    typealias FlatHandler = (_ element: UnsafeBufferPointer<UInt8>, _ members: UnsafeBufferPointer<FlatMember>, _ index: Int) -> Bool

    /// Where one member of a flat object is, in bytes from the object's `{`.
    struct FlatMember {
        var keyStart: Int32, keyCount: Int32
        /// The string's bytes without its quotes; `valueCount` is -1 for `null`.
        var valueStart: Int32, valueCount: Int32
    }

    private let options: JSONParseOptions
    /// The current chunk: `buffer[0..<end]` holds the document's bytes from offset `base`.
    private var buffer: [UInt8]
    private var end: Int
    private var i = 0
    private var base = 0
    private let source: Source?
    private var finished = false
    /// The top-level key whose array value is streamed, and where its elements go.
    private var streamed: (key: String, handle: ElementHandler, flat: FlatHandler?)?
    /// The members of the flat element being looked at (see `flatElement`).
    private var members = [FlatMember](repeating: FlatMember(keyStart: 0, keyCount: 0, valueStart: 0, valueCount: 0), count: maxFlatMembers)
    /// The error of the source or the handler, thrown in place of `JSONParseError.Kind.forwarded`.
    private var forwarded: (any Error)?
    /// Estimated bytes of the tree kept so far (see `JSONParseOptions.maxStructureBytes`).
    private var spent = 0
    /// While an unknown field is skipped: its name and the offset its value may not pass.
    private var skipping: (field: String, limit: Int)?
    private var scratch: [UInt8] = []

    private static let chunkSize = 1 << 16
    /// The bytes kept ahead of a streamed element so that a flat one is whole in the buffer
    /// (a daily log is about 330 bytes); a longer element is parsed the usual way.
    private static let flatWindow = 4096
    private static let maxFlatMembers = 16
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
                      flat: FlatHandler? = nil, into handle: @escaping ElementHandler) throws -> JSONValue {
        var p = JSONParser(bytes: bytes, source: nil, options: options)
        p.streamed = (key, handle, flat)
        return try p.document()
    }

    /// Parses a document pulled from `source` chunk by chunk, streaming `key` as above. Errors
    /// of `source` and `handle` are rethrown unchanged.
    static func parse(source: @escaping Source, options: JSONParseOptions, streaming key: String,
                      flat: FlatHandler? = nil, into handle: @escaping ElementHandler) throws -> JSONValue {
        var p = JSONParser(bytes: [UInt8](repeating: 0, count: chunkSize), source: source, options: options)
        p.end = 0
        p.streamed = (key, handle, flat)
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
                        member = try streamArray(depth: depth + 1, to: streamed.handle, flat: streamed.flat)
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
    private mutating func streamArray(depth: Int, to handle: ElementHandler, flat: FlatHandler?) throws(JSONParseError) -> JSONValue {
        guard depth < options.maxDepth else { throw fail("nested too deeply", .tooDeep) }
        i += 1
        try skipSpace()
        if try peek() == UInt8(ascii: "]") { i += 1; return .array([]) }
        let outside = spent
        var n = 0
        while true {
            try skipSpace()
            if let flat, try flatElement(depth: depth + 1, index: n, flat) {
                n += 1
            } else {
                spent = 0
                let element = try value(depth: depth + 1, open: false)
                do { try handle(element, n) } catch {
                    forwarded = error
                    throw fail("handler failed", .forwarded)
                }
                n += 1
            }
            try skipSpace()
            guard let next = try peek() else { throw fail("unexpected end of data") }
            if next == UInt8(ascii: ",") { i += 1; continue }
            try expect(UInt8(ascii: "]"))
            spent = outside
            return .array([])
        }
    }

    /// Offers the element at the cursor to `flat` when it is a flat object of strings and nulls
    /// whose every key and string is printable ASCII without escapes, within the depth, string
    /// and kept-size limits the usual path applies (so the usual path would keep exactly these
    /// members, without an error). Moves past the element only when `flat` accepts it.
    private mutating func flatElement(depth: Int, index: Int, _ flat: FlatHandler) throws(JSONParseError) -> Bool {
        guard depth + 1 < options.maxDepth else { return false }
        try fillWindow(Self.flatWindow)
        let start = i, limit = end
        let maxString = options.maxStringBytes, maxKept = options.maxStructureBytes, cost = Self.valueCost
        var next = -1
        let accepted = buffer.withUnsafeBufferPointer { buf -> Bool in
            members.withUnsafeMutableBufferPointer { members -> Bool in
                guard start < limit, buf[start] == UInt8(ascii: "{") else { return false }
                var p = start + 1
                @inline(__always) func space() {
                    while p < limit, buf[p] == 0x20 || buf[p] == 0x0A || buf[p] == 0x0D || buf[p] == 0x09 { p += 1 }
                }
                // The cursor is on a quote: the string's length up to its closing quote, or -1 when
                // it holds anything but printable ASCII (escapes, controls, UTF-8) or runs past the window.
                @inline(__always) func plainString() -> Int {
                    let from = p + 1
                    var q = from
                    while q < limit {
                        let b = buf[q]
                        if b == UInt8(ascii: "\"") { p = q + 1; return q - from }
                        guard b >= 0x20, b < 0x7F, b != UInt8(ascii: "\\") else { return -1 }
                        q += 1
                    }
                    return -1
                }
                var kept = cost, count = 0
                space()
                while true {
                    guard p < limit, buf[p] == UInt8(ascii: "\""), count < members.count else { return false }
                    let keyStart = p + 1
                    let keyCount = plainString()
                    guard keyCount >= 0, keyCount <= maxString else { return false }
                    space()
                    guard p < limit, buf[p] == UInt8(ascii: ":") else { return false }
                    p += 1
                    space()
                    guard p < limit else { return false }
                    var valueStart = p + 1, valueCount = -1
                    if buf[p] == UInt8(ascii: "\"") {
                        valueCount = plainString()
                        guard valueCount >= 0, valueCount <= maxString else { return false }
                        kept += cost + keyCount + cost + cost + valueCount
                    } else {
                        guard p + 4 <= limit, buf[p] == UInt8(ascii: "n"), buf[p + 1] == UInt8(ascii: "u"),
                              buf[p + 2] == UInt8(ascii: "l"), buf[p + 3] == UInt8(ascii: "l") else { return false }
                        p += 4
                        valueStart = p
                        kept += cost + keyCount + cost
                    }
                    members[count] = FlatMember(keyStart: Int32(keyStart - start), keyCount: Int32(keyCount),
                                                valueStart: Int32(valueStart - start), valueCount: Int32(valueCount))
                    count += 1
                    space()
                    guard p < limit else { return false }
                    if buf[p] == UInt8(ascii: ",") { p += 1; space(); continue }
                    guard buf[p] == UInt8(ascii: "}") else { return false }
                    p += 1
                    break
                }
                guard kept <= maxKept else { return false }
                next = p
                return flat(UnsafeBufferPointer(rebasing: buf[start..<p]), UnsafeBufferPointer(rebasing: members[0..<count]), index)
            }
        }
        if accepted { i = next }
        return accepted
    }

    /// Makes at least `wanted` bytes from the cursor readable in the buffer (fewer at the end of
    /// the document): the unread bytes move to its start and the source fills the rest.
    private mutating func fillWindow(_ wanted: Int) throws(JSONParseError) {
        guard let source, !finished, end - i < wanted else { return }
        let remaining = end - i
        if i > 0 {
            let from = i
            buffer.withUnsafeMutableBytes { raw in
                guard let p = raw.baseAddress else { return }
                memmove(p, p + from, remaining)
            }
            base += from
            i = 0
            end = remaining
        }
        while end < buffer.count {
            let at = end
            let pulled: Result<Int, any Error> = buffer.withUnsafeMutableBytes { raw in
                Result { try source(UnsafeMutableRawBufferPointer(rebasing: raw[at...])) }
            }
            switch pulled {
            case .success(let n):
                if n == 0 { finished = true; return }
                end += n
            case .failure(let error):
                forwarded = error
                throw fail("source failed", .forwarded)
            }
            if end - i >= wanted { return }
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
