/// An HTTP/1.1 answer as the hub sent it: its status, its headers (names lowercased, the first
/// of each) and its body, unchunked.
package struct SyncHTTPResponse: Hashable, Sendable {
    package var status: Int
    package var headers: [String: String]
    package var body: [UInt8]

    package init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status; self.headers = headers; self.body = body
    }
}

/// Reads an answer as its bytes arrive: the head, then a body framed by `Content-Length`, by
/// chunks (libmicrohttpd chunks an answer of unknown length), or by the end of the connection.
/// A body over `bodyLimit` is refused as soon as it is known to be (a declared length at once,
/// chunks as they come), so a hostile hub cannot fill the device's memory.
package struct HTTPResponseReader {
    /// The most bytes of status line and headers taken.
    package static let headLimit = 64 * 1024
    /// The longest chunk-size or trailer line taken.
    static let lineLimit = 4096

    private enum State: Equatable {
        case head
        case fixed(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkEnd
        case trailers
        case untilClose
        case done
    }

    package let bodyLimit: Int
    private var state = State.head
    private var buffer: [UInt8] = []
    private var status = 0
    private var headers: [String: String] = [:]
    private var body: [UInt8] = []

    /// The answer to a `HEAD` request: its head is all of it, whatever length it declares.
    package let headOnly: Bool

    package init(bodyLimit: Int, headOnly: Bool = false) {
        self.bodyLimit = bodyLimit
        self.headOnly = headOnly
    }

    /// The whole answer, once it has come.
    package var response: SyncHTTPResponse? {
        state == .done ? SyncHTTPResponse(status: status, headers: headers, body: body) : nil
    }

    /// Bytes came after the whole answer (nobody asked for them: the connection is not used again).
    package private(set) var hasBytesAfterAnswer = false

    /// Takes the next bytes; true when the answer is whole (bytes after it are ignored).
    package mutating func take(_ bytes: [UInt8]) throws(SyncTransportError) -> Bool {
        if state == .done {
            if !bytes.isEmpty { hasBytesAfterAnswer = true }
            return true
        }
        buffer += bytes
        var offset = 0
        defer { buffer.removeFirst(offset) }
        while state != .done {
            guard try step(&offset) else { break }
        }
        if state == .done && offset < buffer.count { hasBytesAfterAnswer = true }
        return state == .done
    }

    /// The connection ended: the answer if it is whole (or framed by the end), else why not.
    package mutating func finish() throws(SyncTransportError) -> SyncHTTPResponse {
        if state == .untilClose { state = .done }
        guard let response else { throw .badResponse(reason: "the connection ended before the answer did") }
        return response
    }

    /// One step of reading from `offset`; false when it needs more bytes.
    private mutating func step(_ offset: inout Int) throws(SyncTransportError) -> Bool {
        let available = buffer.count - offset
        switch state {
        case .done:
            return false
        case .head:
            guard let end = Self.find([13, 10, 13, 10], in: buffer, from: offset) else {
                if available > Self.headLimit { throw .badResponse(reason: "head longer than \(Self.headLimit) bytes") }
                return false
            }
            guard end - offset <= Self.headLimit else { throw .badResponse(reason: "head longer than \(Self.headLimit) bytes") }
            try readHead(buffer[offset..<end])
            offset = end + 4
            return true
        case .fixed(let remaining):
            guard available > 0 else { return false }
            let n = min(remaining, available)
            body += buffer[offset..<offset + n]
            offset += n
            state = remaining == n ? .done : .fixed(remaining: remaining - n)
            return true
        case .chunkSize:
            guard let line = try nextLine(&offset) else { return false }
            let hex = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != UInt8(ascii: " ") && $0 != 9 }
            guard !hex.isEmpty, hex.count <= 15, let size = Int(String(decoding: hex, as: UTF8.self), radix: 16), size >= 0 else {
                throw .badResponse(reason: "chunk size")
            }
            if size == 0 {
                state = .trailers
            } else {
                guard size <= bodyLimit - body.count else { throw .responseTooLarge(limit: bodyLimit) }
                state = .chunkData(remaining: size)
            }
            return true
        case .chunkData(let remaining):
            guard available > 0 else { return false }
            let n = min(remaining, available)
            body += buffer[offset..<offset + n]
            offset += n
            state = remaining == n ? .chunkEnd : .chunkData(remaining: remaining - n)
            return true
        case .chunkEnd:
            guard available >= 2 else { return false }
            guard buffer[offset] == 13, buffer[offset + 1] == 10 else { throw .badResponse(reason: "chunk end") }
            offset += 2
            state = .chunkSize
            return true
        case .trailers:
            guard let line = try nextLine(&offset) else { return false }
            if line.isEmpty { state = .done }
            return true
        case .untilClose:
            guard available > 0 else { return false }
            guard available <= bodyLimit - body.count else { throw .responseTooLarge(limit: bodyLimit) }
            body += buffer[offset...]
            offset = buffer.count
            return true
        }
    }

    /// The next line (without its CRLF), or nil until it has come.
    private func nextLine(_ offset: inout Int) throws(SyncTransportError) -> ArraySlice<UInt8>? {
        guard let end = Self.find([13, 10], in: buffer, from: offset) else {
            if buffer.count - offset > Self.lineLimit { throw .badResponse(reason: "line longer than \(Self.lineLimit) bytes") }
            return nil
        }
        guard end - offset <= Self.lineLimit else { throw .badResponse(reason: "line longer than \(Self.lineLimit) bytes") }
        defer { offset = end + 2 }
        return buffer[offset..<end]
    }

    /// The status line and headers; decides how the body is framed.
    private mutating func readHead(_ bytes: ArraySlice<UInt8>) throws(SyncTransportError) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.first.map { $0.split(separator: " ", maxSplits: 2) } ?? []
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), statusLine[1].count == 3,
              let code = Int(statusLine[1]), (100...599).contains(code) else {
            throw .badResponse(reason: "status line")
        }
        status = code
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw .badResponse(reason: "header line") }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmedOfBlanks()
            if headers[name] == nil { headers[name] = value }
        }
        if headOnly {
            state = .done
            return
        }
        if let coding = headers["transfer-encoding"] {
            guard coding.lowercased().split(separator: ",").last?.trimmedOfBlanks() == "chunked" else {
                throw .badResponse(reason: "transfer encoding \(coding)")
            }
            state = .chunkSize
        } else if let length = headers["content-length"] {
            guard !length.isEmpty, length.count <= 18, length.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(length) else {
                throw .badResponse(reason: "content length")
            }
            guard n <= bodyLimit else { throw .responseTooLarge(limit: bodyLimit) }
            state = n == 0 ? .done : .fixed(remaining: n)
        } else {
            state = .untilClose
        }
    }

    /// Where `needle` first starts in `haystack` at or after `from`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard haystack.count - from >= needle.count else { return nil }
        var i = from
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == needle[0] {
                var j = 1
                while j < needle.count, haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}

private extension Substring {
    /// Without spaces and tabs at either end. An ASCII value (every header a hub sends) is
    /// trimmed byte by byte: by characters, through a reversed view, it was a tenth of a simulated
    /// device's CPU in the centre's bench (docs/performance.md, session 53). Any other is trimmed by
    /// characters, so a blank that a combining mark follows stays, as it always did.
    func trimmedOfBlanks() -> String {
        let bytes = utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
            return String(drop(while: blank).reversed().drop(while: blank).reversed())
        }
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, isBlank(bytes[start]) { start = bytes.index(after: start) }
        while end > start, isBlank(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
