import SteppieSync

/// How the protocol's messages travel over HTTP (docs/sync.md, "HTTP mapping"), for both sides.
package enum SyncHTTPMapping {
    package static let pushPath = "/sync/v1/push"
    package static let pullPath = "/sync/v1/pull"
    package static let joinPath = "/sync/v1/join"

    /// A refusal's status: 401 for a device the hub does not know, 413 for a batch too large,
    /// 503 when the hub cannot take anything now (ask again later), 409 for every other refusal. Its body is `{"refusal": <SyncRefusal>}`.
    package static func status(of refusal: SyncRefusal) -> Int {
        switch refusal {
        case .unknownDevice: 401
        case .tooLarge: 413
        case .unavailable: 503
        default: 409
        }
    }

    /// The body of a refusal.
    package struct RefusalBody: Hashable, Sendable, Codable {
        package let refusal: SyncRefusal
        package init(_ refusal: SyncRefusal) { self.refusal = refusal }
    }

    /// Only the version of a request, read before the rest: a device of another version is told
    /// so even when the rest of its message has another shape.
    struct VersionProbe: Decodable {
        let protocolVersion: Int?
    }
}

extension SyncHTTPMapping {
    /// `HEAD`/`GET`/`PUT /sync/v1/blob/<sha256>`: a photo's or a recording's bytes, by their hash.
    package static let blobPath = "/sync/v1/blob"

    package static func blobPath(_ sha256: String) -> String { "\(blobPath)/\(sha256)" }
}

extension SyncHTTPMapping {
    /// `GET /sync/v1/copy/<name>/<offset>`: a piece of a fresh copy's file.
    package static let copyPath = "/sync/v1/copy"

    package static func copyPath(_ name: String, offset: UInt64) -> String { "\(copyPath)/\(name)/\(offset)" }
}
