import SteppieHTTP
import SteppieSync

/// `HEAD`/`GET`/`PUT /sync/v1/blob/<sha256>` (docs/sync.md, "HTTP mapping"): the bearer
/// credential as for the other routes; a name that is not a SHA-256 is `409 malformed`; a blob
/// the hub does not hold, or may not give this device, is `404` with no body.
enum SyncBlobRoutes {
    static func make(_ blobs: any SyncBlobHandling) -> [HTTPRoute] {
        let pattern = SyncHTTPMapping.blobPath + "/*"
        return [
            HTTPRoute(["GET", "HEAD"], pattern) { request in
                answer(request) { (sha, credential) throws(SyncRefusal) in
                    if request.method == "HEAD" {
                        return try blobs.hasBlob(sha, credential: credential) ? .bytes(200, [], type: "application/octet-stream")
                            : .bytes(404, [], type: "application/octet-stream")
                    }
                    guard let bytes = try blobs.blob(sha, credential: credential) else {
                        return .bytes(404, [], type: "application/octet-stream")
                    }
                    return .bytes(200, bytes, type: "application/octet-stream")
                }
            },
            HTTPRoute(["PUT"], pattern, body: { _ in .raw(limit: SyncRoutes.blobBodyLimit) }) { request in
                answer(request) { (sha, credential) throws(SyncRefusal) in
                    let stored = try blobs.putBlob(sha, bytes: request.body, credential: credential)
                    return SyncRoutes.json(200, PutBlobReply(sha256: sha, stored: stored))
                }
            },
        ]
    }

    /// The credential first, then the name; a refusal as the other routes give it.
    static func answer(_ request: HTTPRequest, _ handle: (String, String) throws(SyncRefusal) -> HTTPResponse) -> HTTPResponse {
        guard let credential = SyncRoutes.bearer(request.header("Authorization")) else { return SyncRoutes.refusal(.unknownDevice) }
        guard let sha = request.path.last, SyncBlob.isHash(sha) else {
            return SyncRoutes.refusal(.malformed(reason: "a blob is named by the SHA-256 of its bytes (64 lowercase hex digits)"))
        }
        do throws(SyncRefusal) {
            return try handle(sha, credential)
        } catch {
            return SyncRoutes.refusal(error)
        }
    }
}

/// The answer to a `PUT` of a blob: its name, and whether the hub stored it now (false: it had it).
package struct PutBlobReply: Hashable, Sendable, Codable {
    package let sha256: String
    package let stored: Bool
    package init(sha256: String, stored: Bool) { self.sha256 = sha256; self.stored = stored }
}
