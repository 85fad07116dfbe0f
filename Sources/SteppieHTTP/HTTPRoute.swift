/// One entry of a server's route table: which requests it answers (method and path), how it
/// takes their body, and what it answers. The server tries the routes in order; the first whose
/// method and path match answers, and a request no route matches is answered 404.
package struct HTTPRoute: Sendable {
    /// One part of a path pattern.
    package enum Segment: Sendable, Equatable {
        case literal(String)
        /// Any one segment (`*`).
        case any
        /// Any number of further segments, none included (`**`, last only).
        case rest
    }

    /// The methods answered (nil: every method).
    package let methods: Set<String>?
    package let pattern: [Segment]
    /// How the body is taken, decided from the head before any byte of it arrives.
    package let body: @Sendable (HTTPHead) -> HTTPBodyPlan
    package let handler: @Sendable (HTTPRequest) -> HTTPResponse

    /// A route for `path`: segments separated by `/`, `*` for any one segment, a final `**` for
    /// any rest (`/guardian/**` matches `/guardian` and everything under it).
    package init(_ methods: Set<String>?, _ path: String,
                 body: @escaping @Sendable (HTTPHead) -> HTTPBodyPlan = { _ in .raw(limit: HTTPBodyPlan.smallLimit) },
                 handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.methods = methods
        pattern = path.split(separator: "/").map { part in
            switch part {
            case "*": .any
            case "**": .rest
            default: .literal(String(part))
            }
        }
        self.body = body
        self.handler = handler
    }

    /// A `GET` route.
    package static func get(_ path: String, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) -> HTTPRoute {
        HTTPRoute(["GET"], path, handler: handler)
    }

    /// A `POST` route whose body is at most `limit` bytes, kept as they came.
    package static func post(_ path: String, limit: Int = HTTPBodyPlan.smallLimit,
                             handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) -> HTTPRoute {
        HTTPRoute(["POST"], path, body: { _ in .raw(limit: limit) }, handler: handler)
    }

    /// Whether this route answers `method` on the path `parts`.
    package func matches(method: String, parts: [String]) -> Bool {
        if let methods, !methods.contains(method) { return false }
        var i = 0
        for segment in pattern {
            switch segment {
            case .rest: return true
            case .any:
                guard i < parts.count else { return false }
            case .literal(let text):
                guard i < parts.count, parts[i] == text else { return false }
            }
            i += 1
        }
        return i == parts.count
    }
}
