import Foundation
import SteppieCore
import SteppieHTTP
import SteppieSync

/// The hub's side of the protocol as routes for SteppieHTTP's table: each decodes its message,
/// asks the hub (`SyncHubHandling`) and answers 200 with the reply, or the refusal's status with
/// `{"refusal": …}`. The server runs each request on its connection's own thread (libmicrohttpd,
/// one thread per connection), so a long poll held by the hub waits there alone.
package enum SyncRoutes {
    /// A push's body limit: a full batch of 2,000 realistic entries (titles in two languages,
    /// presses with what the child saw) measures about 780 kB (`SyncRoutesLimitTests`); about
    /// twice that, so a full batch with longer titles still fits.
    package static let pushBodyLimit = 1536 * 1024
    /// A pull or join request is a few hundred bytes.
    package static let smallBodyLimit = 8 * 1024

    /// A blob's body limit: the largest recording (a photo's 5 MiB is checked by the hub).
    package static let blobBodyLimit = RecordingCheck.maximumBytes

    package static func make(handler: any SyncHubHandling, blobs: (any SyncBlobHandling)? = nil,
                             copies: (any SyncCopyHandling)? = nil) -> [HTTPRoute] {
        var routes = messageRoutes(handler: handler)
        if let blobs { routes += SyncBlobRoutes.make(blobs) }
        if let copies { routes.append(copyRoute(copies)) }
        return routes
    }

    /// `GET /sync/v1/copy/<name>/<offset>`: the credential first, then the name and the offset
    /// (`409 malformed` when either cannot be read); a file that is not the device's is `404`.
    static func copyRoute(_ copies: any SyncCopyHandling) -> HTTPRoute {
        HTTPRoute(["GET"], SyncHTTPMapping.copyPath + "/*/*") { request in
            guard let credential = bearer(request.header("Authorization")) else { return refusal(.unknownDevice) }
            let parts = request.path.suffix(2)
            guard parts.count == 2, let name = parts.first, CopyFile.isName(name), let text = parts.last,
                  text.utf8.count <= 19, text.utf8.allSatisfy({ (48...57).contains($0) }), let offset = UInt64(text) else {
                return refusal(.malformed(reason: "a copy file's piece is named by the file and an offset"))
            }
            do throws(SyncRefusal) {
                guard let bytes = try copies.copyChunk(name, offset: offset, credential: credential) else {
                    return .bytes(404, [], type: "application/octet-stream")
                }
                return .bytes(200, bytes, type: "application/octet-stream")
            } catch {
                return refusal(error)
            }
        }
    }

    static func messageRoutes(handler: any SyncHubHandling) -> [HTTPRoute] {
        [
            .post(SyncHTTPMapping.pushPath, limit: pushBodyLimit) { request in
                answer(request, PushRequest.self, credential: true) { (message, credential) throws(SyncRefusal) in
                    try handler.push(message, credential: credential)
                }
            },
            .post(SyncHTTPMapping.pullPath, limit: smallBodyLimit) { request in
                answer(request, PullRequest.self, credential: true) { (message, credential) throws(SyncRefusal) in
                    try handler.pull(message, credential: credential)
                }
            },
            .post(SyncHTTPMapping.joinPath, limit: smallBodyLimit) { request in
                answer(request, JoinRequest.self, credential: false) { (message, _) throws(SyncRefusal) in
                    try handler.join(message)
                }
            },
        ]
    }

    /// The protocol's version first, then the credential's presence, then the message itself:
    /// the handler is asked only with a whole message of this version.
    static func answer<Message: Decodable, Reply: Encodable>(
        _ request: HTTPRequest, _ type: Message.Type, credential needed: Bool,
        _ handle: (Message, String) throws(SyncRefusal) -> Reply
    ) -> HTTPResponse {
        let body = Data(request.body)
        // The hot message (a push) is read once, by the fast reader; anything else as before.
        let fast = SyncWireReader.read(Message.self, from: request.body)
        let probed = fast == nil ? (try? JSONDecoder().decode(SyncHTTPMapping.VersionProbe.self, from: body))?.protocolVersion : nil
        if let version = (fast as? PushRequest)?.protocolVersion ?? probed, version != SyncProtocol.version {
            return refusal(.protocolVersion(hub: SyncProtocol.version, device: version))
        }
        var credential = ""
        if needed {
            guard let token = bearer(request.header("Authorization")) else { return refusal(.unknownDevice) }
            credential = token
        }
        let message: Message
        do {
            message = try fast ?? JSONDecoder().decode(Message.self, from: body)
        } catch {
            return refusal(.malformed(reason: "the body is not a \(String(describing: Message.self)) (JSON)"))
        }
        do throws(SyncRefusal) {
            return json(200, try handle(message, credential))
        } catch {
            return refusal(error)
        }
    }

    /// The token of `Authorization: Bearer <token>` (nil when there is none).
    static func bearer(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1])
    }

    static func refusal(_ refusal: SyncRefusal) -> HTTPResponse {
        let headers = refusal == .unknownDevice ? [("WWW-Authenticate", "Bearer")] : []
        return json(SyncHTTPMapping.status(of: refusal), SyncHTTPMapping.RefusalBody(refusal), headers: headers)
    }

    static func json(_ status: Int, _ value: some Encodable, headers: [(String, String)] = []) -> HTTPResponse {
        guard let data = SyncProtocol.encode(value) else { return .error(500, "reply not encodable") }
        return .bytes(status, Array(data), type: "application/json; charset=utf-8", headers: headers)
    }
}
