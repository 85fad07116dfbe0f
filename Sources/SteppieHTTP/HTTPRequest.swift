/// A request's head as it arrives (before its body): what a route's body plan decides from.
package struct HTTPHead: Sendable {
    package let method: String
    /// The URL's path as sent (`/guardian/child/x`).
    package let url: String
    /// The path's parts (`/guardian/child/x` → `["guardian", "child", "x"]`).
    package let path: [String]
    /// Header values by lowercased name (the first of each name).
    let headers: [String: String]
    let cookies: [String: String]

    package init(method: String, url: String, headers: [String: String] = [:], cookies: [String: String] = [:]) {
        self.method = method
        self.url = url
        path = url.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var lowered: [String: String] = [:]
        for (k, v) in headers where lowered[k.lowercased()] == nil { lowered[k.lowercased()] = v }
        self.headers = lowered
        self.cookies = cookies
    }

    /// A header's value (names compare without case).
    package func header(_ name: String) -> String? { headers[name.lowercased()] }

    package func cookie(_ name: String) -> String? { cookies[name] }
}

/// One request as a route's handler sees it: already read, size-checked and decoded by the server
/// (libmicrohttpd's post processor parses forms), with nothing of the C connection.
package struct HTTPRequest: Sendable {
    package let head: HTTPHead
    /// The query string's arguments (first value of each name; at most 32 names).
    package let query: [String: String]
    /// The body as it came, when it is not a form.
    package let body: [UInt8]
    /// Text fields of a form body (`application/x-www-form-urlencoded` or `multipart/form-data`).
    package let form: [String: String]
    /// File fields of a multipart body.
    package let files: [String: HTTPUploadedFile]
    /// True when the body could not be parsed.
    package let malformedBody: Bool
    /// Why the plan's file fields were not taken (their bytes were dropped as they arrived).
    package let fileRefusal: (any Error & Sendable)?
    /// Arrived over HTTPS.
    package let secure: Bool
    /// The request's `Origin` is this server's own (its scheme and a host it answers to).
    package let sameOrigin: Bool

    package init(head: HTTPHead, query: [String: String] = [:], body: [UInt8] = [], form: [String: String] = [:],
                 files: [String: HTTPUploadedFile] = [:], malformedBody: Bool = false, fileRefusal: (any Error & Sendable)? = nil,
                 secure: Bool = false, sameOrigin: Bool = false) {
        self.head = head; self.query = query; self.body = body; self.form = form; self.files = files
        self.malformedBody = malformedBody; self.fileRefusal = fileRefusal; self.secure = secure; self.sameOrigin = sameOrigin
    }

    package var method: String { head.method }
    package var path: [String] { head.path }
    package func header(_ name: String) -> String? { head.header(name) }
    package func cookie(_ name: String) -> String? { head.cookie(name) }
}

/// Where a file field of a form goes as it arrives, instead of memory (a large archive).
package protocol HTTPUploadSink: AnyObject, Sendable {
    /// Appends a piece; a thrown error drops the file and becomes the request's `fileRefusal`.
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// The last piece came (or the request ended).
    func finishWriting()
}

/// A file sent in a multipart form: its bytes in memory, or written to `sink` as it arrived.
package struct HTTPUploadedFile: Sendable {
    package var filename: String
    package var contentType: String
    package var bytes: [UInt8]
    package var sink: (any HTTPUploadSink)?

    package init(filename: String, contentType: String, bytes: [UInt8], sink: (any HTTPUploadSink)? = nil) {
        self.filename = filename; self.contentType = contentType; self.bytes = bytes; self.sink = sink
    }
}

/// How a route takes a request's body: the byte limit, what happens over it, and whether forms are
/// parsed and where their files go.
package struct HTTPBodyPlan: Sendable {
    /// The body limit of routes that take a little JSON.
    package static let smallLimit = 1024
    /// Most bytes of all text fields of a form together (files count only against `limit`).
    package static let textLimit = 64 * 1024

    /// What a body over the limit (declared or arriving) is answered.
    package enum OverLimit: Sendable {
        /// 413, without calling the handler.
        case refuse
        /// The handler answers as if the request had no body (its bytes are dropped).
        case answerWithoutBody
    }

    /// Where a form's file fields go.
    package enum Files: Sendable {
        case memory
        /// Dropped as they arrive (the text fields are still read); the handler is told why.
        case refused(any Error & Sendable)
        /// The file of `field` is written to the sink `open` makes when its first piece comes; other
        /// file fields are dropped. A failure to open it drops it and becomes the refusal.
        case spooled(field: String, open: @Sendable () throws -> any HTTPUploadSink)
    }

    /// What a route prepares once the declared length is accepted: where files go, and something
    /// held until the request is answered (a place among the uploads arriving).
    package struct Start: Sendable {
        package var files: Files
        package var hold: (any Sendable)?
        package init(files: Files = .memory, hold: (any Sendable)? = nil) { self.files = files; self.hold = hold }
    }

    /// Every byte of the body counts against this.
    package var limit: Int
    package var overLimit: OverLimit
    /// Form bodies (URL-encoded, multipart) are parsed into fields and files; others kept raw.
    package var forms: Bool
    package var start: @Sendable () -> Start

    package init(limit: Int, overLimit: OverLimit = .refuse, forms: Bool = false, start: @escaping @Sendable () -> Start = { Start() }) {
        self.limit = limit; self.overLimit = overLimit; self.forms = forms; self.start = start
    }

    /// At most `limit` bytes kept as they came; more is refused.
    package static func raw(limit: Int) -> HTTPBodyPlan { HTTPBodyPlan(limit: limit) }
}
