import Foundation

/// One HTTP request as the pages' handlers see it: already read, size-checked and decoded by the
/// `HTTPServer` (libmicrohttpd's post processor parses forms), with nothing of the C connection.
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

    public init(method: String, path: [String], query: [String: String] = [:], cookies: [String: String] = [:],
                form: [String: String] = [:], files: [String: UploadedFile] = [:], malformedBody: Bool = false,
                secure: Bool = false, sameOrigin: Bool = true, wantsJSON: Bool = false) {
        self.method = method; self.path = path; self.query = query; self.cookies = cookies; self.form = form
        self.files = files; self.malformedBody = malformedBody; self.secure = secure; self.sameOrigin = sameOrigin
        self.wantsJSON = wantsJSON
    }
}

/// A file sent in a multipart form: its bytes in memory (forms cap them) or spooled to a file.
public struct UploadedFile: Sendable, Equatable {
    public var filename: String
    public var contentType: String
    public var bytes: [UInt8]
    public init(filename: String, contentType: String, bytes: [UInt8]) {
        self.filename = filename; self.contentType = contentType; self.bytes = bytes
    }
}

/// What a page handler answers.
public struct WebResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
    public var headers: [(String, String)]

    public init(status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = []) {
        self.status = status; self.contentType = contentType; self.body = body; self.headers = headers
    }

    public static func html(_ text: String, status: Int = 200, headers: [(String, String)] = []) -> WebResponse {
        WebResponse(status: status, contentType: "text/html; charset=utf-8", body: Array(text.utf8), headers: headers)
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
