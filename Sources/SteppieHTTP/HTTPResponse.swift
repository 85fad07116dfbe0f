import Glibc
import Synchronization

/// What a route answers: a status, headers and a body that is bytes, a file sent from disk, an
/// open descriptor, or a stream written as events happen.
package struct HTTPResponse: Sendable {
    package enum Body: Sendable {
        case bytes([UInt8])
        /// The file at `path`, sent from disk by libmicrohttpd (never read into memory); not found
        /// (404) when it is missing, not a regular file or larger than `maxBytes`. Its type comes
        /// from its extension.
        case file(path: String, maxBytes: Int)
        /// An open file sent from its start, owned by the response (closed once sent, or here
        /// when it never is).
        case descriptor(HTTPDescriptor)
        /// A long response (Server-Sent Events): `open` is called on the connection's thread with
        /// the peer to wait on; nil answers 503.
        case stream(open: @Sendable (HTTPStreamPeer) -> (any HTTPStreamSource)?)
    }

    package var status: Int
    package var contentType: String
    package var cacheControl: String
    /// Extra headers; they win over the server's own of the same name.
    package var headers: [(String, String)]
    package var body: Body

    package init(status: Int, contentType: String, cacheControl: String = "no-store", headers: [(String, String)] = [], body: Body) {
        self.status = status; self.contentType = contentType; self.cacheControl = cacheControl; self.headers = headers; self.body = body
    }

    package static func bytes(_ status: Int, _ bytes: [UInt8], type: String, cache: String = "no-store",
                              headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, contentType: type, cacheControl: cache, headers: headers, body: .bytes(bytes))
    }

    package static func json(_ status: Int, _ text: String, headers: [(String, String)] = []) -> HTTPResponse {
        bytes(status, Array(text.utf8), type: "application/json; charset=utf-8", headers: headers)
    }

    /// `{"error":"<reason>"}`; `reason` is a fixed word of ours, never user input.
    package static func error(_ status: Int, _ reason: String, headers: [(String, String)] = []) -> HTTPResponse {
        json(status, "{\"error\":\"\(reason)\"}", headers: headers)
    }

    package static let notFound = error(404, "not found")

    /// 302 Found to `location`.
    package static func redirect(_ location: String) -> HTTPResponse {
        bytes(302, [], type: "text/plain", headers: [("Location", location)])
    }

    /// A file from disk (`Cache-Control: no-cache`: the browser asks again, cheaply).
    package static func file(_ path: String, maxBytes: Int) -> HTTPResponse {
        HTTPResponse(status: 200, contentType: contentType(forExtensionOf: path), cacheControl: "no-cache", body: .file(path: path, maxBytes: maxBytes))
    }

    /// The content type of a file, from its name's extension.
    package static func contentType(forExtensionOf path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        switch name[name.index(after: dot)...] {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png", "PNG": return "image/png"
        case "jpg", "jpeg", "JPG", "JPEG": return "image/jpeg"
        default: return "application/octet-stream"
        }
    }
}

/// An open file descriptor a response owns: handed to libmicrohttpd, which sends from it and
/// closes it; closed here when it never was handed over.
package final class HTTPDescriptor: Sendable {
    package let size: UInt64
    /// The descriptor until it is given away (-1 then).
    private let descriptor: Mutex<Int32>

    package init(fd: Int32, size: UInt64) {
        self.size = size
        descriptor = Mutex(fd)
    }

    /// The descriptor, now owned by the caller (nil when taken already).
    func take() -> Int32? {
        descriptor.withLock { fd in
            defer { fd = -1 }
            return fd >= 0 ? fd : nil
        }
    }

    deinit { if let fd = take() { close(fd) } }
}
