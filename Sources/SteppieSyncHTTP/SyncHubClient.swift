import Foundation
import SteppieSync

/// A device's three requests to its hub, over `SyncHTTPSClient`: the messages as JSON, each
/// answer turned back into the reply or into the hub's refusal (`SyncTransportError.refused`).
package struct SyncHubClient: Sendable {
    package let transport: SyncHTTPSClient
    /// The device's credential (nil before it has joined).
    package let credential: String?

    package init(transport: SyncHTTPSClient, credential: String?) {
        self.transport = transport
        self.credential = credential
    }

    package func push(_ request: PushRequest) throws(SyncTransportError) -> PushReply {
        try exchange(SyncHTTPMapping.pushPath, request, PushReply.self, credential: credential)
    }

    /// The request may be held by the hub up to its `waitMilliseconds`: the whole request has that much more time.
    package func pull(_ request: PullRequest) throws(SyncTransportError) -> PullReply {
        try exchange(SyncHTTPMapping.pullPath, request, PullReply.self, credential: credential, extraMilliseconds: request.waitMilliseconds)
    }

    /// Joins with the guardian's code (no credential yet); the reply's credential is checked to
    /// be one a header can carry.
    package func join(_ request: JoinRequest) throws(SyncTransportError) -> JoinReply {
        let reply = try exchange(SyncHTTPMapping.joinPath, request, JoinReply.self, credential: nil)
        guard SyncHTTPSClient.isToken(reply.credential) else { throw .badResponse(reason: "the credential is not a token") }
        return reply
    }

    /// Whether the hub holds the bytes named `sha256` (`HEAD`).
    package func hasBlob(_ sha256: String) throws(SyncTransportError) -> Bool {
        let response = try transport.send("HEAD", SyncHTTPMapping.blobPath(sha256), body: [], contentType: nil, credential: credential)
        switch response.status {
        case 200: return true
        case 404: return false
        default: _ = try Self.reply(response, PutBlobReply.self); return false
        }
    }

    /// The bytes named `sha256` (`GET`), checked against their name; nil when the hub has none
    /// this device may read. Bytes whose hash is not their name are `badResponse`.
    package func blob(_ sha256: String, hash: (ArraySlice<UInt8>) -> String) throws(SyncTransportError) -> [UInt8]? {
        var transport = transport
        transport.responseLimit = max(transport.responseLimit, SyncRoutes.blobBodyLimit + 1024)
        let response = try transport.send("GET", SyncHTTPMapping.blobPath(sha256), body: [], contentType: nil, credential: credential)
        switch response.status {
        case 200:
            guard hash(response.body[...]) == sha256 else { throw .badResponse(reason: "the bytes do not hash to their name") }
            return response.body
        case 404: return nil
        default: _ = try Self.reply(response, PutBlobReply.self); return nil
        }
    }

    /// A piece of a fresh copy's file (`GET /sync/v1/copy/<name>/<offset>`); nil when the hub no
    /// longer has the file for this device (ask for the copy again).
    package func copyChunk(_ name: String, offset: UInt64) throws(SyncTransportError) -> [UInt8]? {
        var transport = transport
        transport.responseLimit = max(transport.responseLimit, CopyFile.chunkBytes + 1024)
        let response = try transport.send("GET", SyncHTTPMapping.copyPath(name, offset: offset), body: [], contentType: nil,
                                          credential: credential)
        switch response.status {
        case 200:
            guard response.body.count <= CopyFile.chunkBytes else { throw .badResponse(reason: "a copy file's piece is too long") }
            return response.body
        case 404: return nil
        default: _ = try Self.reply(response, PutBlobReply.self); return nil
        }
    }

    /// Sends the bytes named `sha256` (`PUT`); true when the hub stored them now.
    package func putBlob(_ sha256: String, bytes: [UInt8]) throws(SyncTransportError) -> Bool {
        let response = try transport.send("PUT", SyncHTTPMapping.blobPath(sha256), body: bytes, contentType: "application/octet-stream",
                                          credential: credential)
        return try Self.reply(response, PutBlobReply.self).stored
    }

    private func exchange<Reply: Decodable>(_ path: String, _ message: some Encodable, _ type: Reply.Type, credential: String?,
                                            extraMilliseconds: Int = 0) throws(SyncTransportError) -> Reply {
        guard let body = SyncProtocol.encode(message) else { throw .badResponse(reason: "the request could not be encoded") }
        let response = try transport.post(path, json: Array(body), credential: credential, extraMilliseconds: extraMilliseconds)
        return try Self.reply(response, type)
    }

    /// 200: the reply; 401, 409, 413: the hub's refusal (401 and 413 without a refusal body are
    /// what a server in front of the handler says: an unknown device, a body over its limit).
    static func reply<Reply: Decodable>(_ response: SyncHTTPResponse, _ type: Reply.Type) throws(SyncTransportError) -> Reply {
        let data = Data(response.body)
        switch response.status {
        case 200:
            guard let reply = try? SyncWireReader.decode(Reply.self, from: data) else {
                throw .badResponse(reason: "the body is not a \(String(describing: Reply.self))")
            }
            return reply
        case 401, 409, 413, 503:
            if let body = try? JSONDecoder().decode(SyncHTTPMapping.RefusalBody.self, from: data) { throw .refused(body.refusal) }
            if response.status == 401 { throw .refused(.unknownDevice) }
            if response.status == 413 { throw .refused(.tooLarge) }
            if response.status == 503 { throw .refused(.unavailable) }
            throw .badResponse(reason: "a refusal without its reason")
        default:
            throw .httpStatus(response.status)
        }
    }
}
