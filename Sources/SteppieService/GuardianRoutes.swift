import SteppieCore
import SteppieGuardianWeb
import SteppieHTTP

/// The guardian pages as a route of a page server (`/guardian/…`): a request read into a
/// `WebRequest`, answered by `GuardianWeb`, its `WebResponse` sent back. Large bodies (photos,
/// backup archives) are only taken from a signed-in guardian, within the device's uploads.
enum GuardianRoutes {
    /// The route answering everything under `/guardian` (404 when the pages are not served).
    static func route(_ guardian: GuardianWeb?) -> HTTPRoute {
        HTTPRoute(nil, "/guardian/**", body: { head in plan(guardian, head) }) { request in answer(guardian, request) }
    }

    /// The body limit of a request: a guardian form is small, a photo ≤ 5 MiB (a routine's or a child's picture), a backup upload up
    /// to `GuardianWeb.maxRestoreBytes`.
    static func bodyLimit(path: String) -> Int {
        guard path.hasPrefix("/guardian/") else { return HTTPBodyPlan.smallLimit }
        if path.hasSuffix("/add") || path.hasSuffix("/edit") || path.hasSuffix("/picture") {
            // Twice the photo limit, so a photo a little too big gets a page naming the field.
            return 2 * GuardianWeb.maxPhotoBytes + HTTPBodyPlan.textLimit
        }
        if path.hasSuffix("/backup/restore") { return GuardianWeb.maxRestoreBytes }
        // A recording from the routine page's microphone: the same margin over its limit.
        if path.hasSuffix("/record") { return 2 * RecordingCheck.maximumBytes + HTTPBodyPlan.textLimit }
        return HTTPBodyPlan.textLimit
    }

    /// How a guardian request's body is taken. Photo and backup bodies are read before the session
    /// is checked: only a signed-in guardian may send one that large. Anyone else is held to the
    /// text limit and, over it, answered as signed out (the sign-in page, 401; 403 from another
    /// origin), without the body.
    static func plan(_ guardian: GuardianWeb?, _ head: HTTPHead) -> HTTPBodyPlan {
        let textLimit = HTTPBodyPlan.textLimit
        var limit = bodyLimit(path: head.url)
        let cookie = head.cookie(GuardianWeb.cookieName)
        let signedOut = limit > textLimit && guardian?.isSignedIn(cookie) != true
        if signedOut { limit = textLimit }
        let upload = limit > textLimit && head.method == "POST"
        let archive = head.url.hasSuffix("/backup/restore")
        return HTTPBodyPlan(limit: limit, overLimit: signedOut ? .answerWithoutBody : .refuse,
                            forms: head.method == "POST" && head.url.hasPrefix("/guardian/")) {
            // A large body from a signed-in guardian takes a place among the device's uploads
            // (`UploadLedger`); without one its file bytes are dropped and the page says why.
            guard upload, let guardian else { return HTTPBodyPlan.Start() }
            switch guardian.beginUpload(cookie, archive: archive) {
            case .success(let ticket)?:
                guard let (ledger, folder) = ticket.spoolTo else { return HTTPBodyPlan.Start(hold: ticket.slot) }
                return HTTPBodyPlan.Start(files: .spooled(field: "archive") { SpoolSink(try ledger.spool(in: folder)) }, hold: ticket.slot)
            case .failure(let refusal)?:
                return HTTPBodyPlan.Start(files: .refused(refusal))
            case nil:
                return HTTPBodyPlan.Start()
            }
        }
    }

    static func answer(_ guardian: GuardianWeb?, _ r: HTTPRequest) -> HTTPResponse {
        guard let guardian else { return .notFound }
        guard r.method == "GET" || r.method == "POST" else { return .error(405, "method not allowed") }
        var cookies: [String: String] = [:]
        if let session = r.cookie(GuardianWeb.cookieName) { cookies[GuardianWeb.cookieName] = session }
        let files = r.files.mapValues {
            UploadedFile(filename: $0.filename, contentType: $0.contentType, bytes: $0.bytes, spool: ($0.sink as? SpoolSink)?.file)
        }
        let request = WebRequest(method: r.method, path: r.path, query: r.query, cookies: cookies, form: r.form, files: files,
                                 malformedBody: r.malformedBody, secure: r.secure, sameOrigin: r.method == "GET" || r.sameOrigin,
                                 wantsJSON: r.header("Accept")?.contains("application/json") == true,
                                 uploadRefusal: r.fileRefusal as? UploadRefusal)
        let response = guardian.handle(request)
        if let file = response.file {
            // Sent from the file by libmicrohttpd, never copied to memory.
            guard let fd = file.take() else { return .error(500, "download failed") }
            return HTTPResponse(status: response.status, contentType: response.contentType, headers: response.headers,
                                body: .descriptor(HTTPDescriptor(fd: fd, size: file.size)))
        }
        return HTTPResponse(status: response.status, contentType: response.contentType, headers: response.headers, body: .bytes(response.body))
    }
}

/// A backup archive spooled to its owner-only file as it arrives, as the HTTP server writes files.
final class SpoolSink: HTTPUploadSink {
    let file: SpoolFile
    init(_ file: SpoolFile) { self.file = file }
    func write(_ bytes: UnsafeRawBufferPointer) throws { try file.write(bytes) }
    func finishWriting() { file.finishWriting() }
}
