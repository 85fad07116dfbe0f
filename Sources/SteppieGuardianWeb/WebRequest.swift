import Foundation
import Synchronization
import SteppieHTML

/// One HTTP request as the pages' handlers see it: already read, size-checked and decoded by the
/// page server (`GuardianRoutes`, from SteppieHTTP's `HTTPRequest`), with nothing of the C connection.
public struct WebRequest: Sendable {
    public var method: String
    /// The path's parts (`/guardian/child/x` → `["guardian", "child", "x"]`).
    public var path: [String]
    public var query: [String: String]
    /// The cookies the handlers read (only the guardian session's).
    public var cookies: [String: String]
    /// Text fields of a form body (`application/x-www-form-urlencoded` or `multipart/form-data`).
    public var form: [String: String]
    /// File fields of a multipart body.
    public var files: [String: UploadedFile]
    /// True when the body could not be parsed or went over its limit.
    public var malformedBody: Bool
    /// Arrived over HTTPS.
    public var secure: Bool
    /// The page that sent a POST (`Origin`), already checked against this server's own names.
    public var sameOrigin: Bool
    /// The client asked for JSON (`Accept: application/json`): script calls get JSON, forms get pages.
    public var wantsJSON: Bool
    /// A large upload the server refused to take (its bytes were dropped as they arrived).
    public var uploadRefusal: UploadRefusal?

    public init(method: String, path: [String], query: [String: String] = [:], cookies: [String: String] = [:],
                form: [String: String] = [:], files: [String: UploadedFile] = [:], malformedBody: Bool = false,
                secure: Bool = false, sameOrigin: Bool = true, wantsJSON: Bool = false, uploadRefusal: UploadRefusal? = nil) {
        self.method = method; self.path = path; self.query = query; self.cookies = cookies; self.form = form
        self.files = files; self.malformedBody = malformedBody; self.secure = secure; self.sameOrigin = sameOrigin
        self.wantsJSON = wantsJSON; self.uploadRefusal = uploadRefusal
    }
}

/// A file sent in a multipart form: its bytes in memory (photos: forms cap them) or, for a backup
/// archive, spooled to an owner-only file as it arrived (`spool`, with `bytes` empty).
public struct UploadedFile: Sendable, Equatable {
    public var filename: String
    public var contentType: String
    public var bytes: [UInt8]
    public var spool: SpoolFile?
    public init(filename: String, contentType: String, bytes: [UInt8], spool: SpoolFile? = nil) {
        self.filename = filename; self.contentType = contentType; self.bytes = bytes; self.spool = spool
    }

    /// The file's size, in memory or spooled.
    public var size: Int { spool?.size ?? bytes.count }
}

/// A response body read from an open file (a backup download): the server hands the descriptor
/// to libmicrohttpd, which sends from it, so the archive is never held in memory. The file may be
/// unlinked already; the descriptor is closed when the response is sent, or here when it never is.
public final class ResponseFile: Sendable {
    public let size: UInt64
    private let descriptor: Mutex<Int32>

    public init(fd: Int32, size: UInt64) {
        self.size = size
        descriptor = Mutex(fd)
    }

    /// The descriptor, now owned by the caller (nil when taken already).
    package func take() -> Int32? {
        descriptor.withLock { fd in
            defer { fd = -1 }
            return fd >= 0 ? fd : nil
        }
    }

    deinit { if let fd = take() { close(fd) } }

    /// The whole content, read without moving the descriptor's offset (tests; the server never
    /// reads it into memory).
    public func contents() -> [UInt8] {
        descriptor.withLock { fd in
            guard fd >= 0 else { return [] }
            var out = [UInt8](repeating: 0, count: Int(size))
            var done = 0
            while done < out.count {
                let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress.map { $0 + done }, $0.count - done, off_t(done)) }
                if n <= 0 { break }
                done += n
            }
            return Array(out.prefix(done))
        }
    }
}

/// What a page handler answers.
public struct WebResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
    public var headers: [(String, String)]
    /// When set, the body is this file's content instead of `body` (large downloads).
    public var file: ResponseFile?

    public init(status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = [], file: ResponseFile? = nil) {
        self.status = status; self.contentType = contentType; self.body = body; self.headers = headers; self.file = file
    }

    public static func html(_ page: HTML, status: Int = 200, headers: [(String, String)] = []) -> WebResponse {
        WebResponse(status: status, contentType: "text/html; charset=utf-8", body: Array(page.markup.utf8), headers: headers)
    }

    public static func json(_ text: String, status: Int = 200) -> WebResponse {
        WebResponse(status: status, contentType: "application/json; charset=utf-8", body: Array(text.utf8))
    }

    /// 303 See Other: after a form that changed something, the browser loads the page again.
    public static func seeOther(_ location: String, headers: [(String, String)] = []) -> WebResponse {
        WebResponse(status: 303, contentType: "text/plain; charset=utf-8", body: [], headers: [("Location", location)] + headers)
    }

    /// The body as text (tests).
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// A header's value (tests and the server).
    public func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }
}
