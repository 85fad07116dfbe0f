import CHTTP
import Foundation
import SteppieCore
import SteppieTLS
import Synchronization

/// The pages' HTTP server inside `steppie serve` (libmicrohttpd, one thread per connection), in
/// one of two modes:
/// - `.kiosk` (loopback, plain HTTP): the child's page, its icons and scripts from `Web/`, the
///   screen as JSON and as Server-Sent Events, the child's three actions (docs/kiosk.md), and the
///   guardian pages behind the PIN;
/// - `.guardianLAN` (the home network, HTTPS only): the guardian pages and their own scripts and
///   icons — never the child's page, its screen or its actions (docs/guardian-web.md).
///
/// The HTTP threads never touch the store or the runtimes: screens are read from the `StateBoard`
/// the service publishes, and presses run on the service's thread through the `ServiceBridge`.
public final class HTTPServer: @unchecked Sendable {
    /// Largest request body (a tap is ~60 bytes).
    static let maxBodyBytes = 1024
    /// A comment line on idle event streams, so proxies and the page know the stream is alive.
    static let keepalive: TimeInterval = 15

    /// What a server offers, and how.
    public enum Mode: Sendable, Equatable {
        /// Loopback, plain HTTP: the child's page and actions, and the guardian pages.
        case kiosk
        /// The home network, HTTPS only: the guardian pages, nothing of the child's page.
        case guardianLAN
    }

    private var daemon: OpaquePointer?
    public let mode: Mode
    /// The certificate and key of `.guardianLAN` (kept as C strings while the daemon runs).
    let identity: TLSIdentity?
    private var tlsStrings: (certificate: UnsafeMutablePointer<CChar>, key: UnsafeMutablePointer<CChar>)?
    /// The names a `.guardianLAN` server answers to (addresses and host names, without the port).
    let hostNames: [String]
    let board: StateBoard
    let bridge: ServiceBridge
    let webDirectory: URL
    /// Routine photos (`<database folder>/assets`, as backups keep them).
    let photosDirectory: URL?
    /// `Host` values accepted (DNS rebinding: a page from another name is refused). Filled once,
    /// before the daemon's first thread runs, and read by every request thread.
    private let hosts = Mutex<Set<String>>([])
    var allowedHosts: Set<String> { hosts.withLock { $0 } }
    /// The guardian pages (nil: not served).
    let guardian: GuardianWeb?
    /// Runs a press on the service's thread: (child id, op, version seen) → (status, JSON).
    let press: @Sendable (String, String, Int?) -> (status: Int, body: String)
    public private(set) var port: UInt16 = 0
    public let address: String

    init(address: String, port: UInt16, webDirectory: URL, photosDirectory: URL?, board: StateBoard, bridge: ServiceBridge,
         guardian: GuardianWeb? = nil, mode: Mode = .kiosk, identity: TLSIdentity? = nil, hostNames: [String] = [],
         press: @escaping @Sendable (String, String, Int?) -> (status: Int, body: String)) {
        self.guardian = guardian
        self.mode = mode
        self.identity = identity
        self.hostNames = hostNames
        self.address = address
        self.port = port
        self.webDirectory = webDirectory
        self.photosDirectory = photosDirectory
        self.board = board
        self.bridge = bridge
        self.press = press
    }

    deinit { stop() }

    /// Binds and starts the threads; throws `ServiceError.system` when the address cannot be used.
    func start() throws {
        let handler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, conCls in
            guard let cls, let connection, let url, let method, let uploadSize, let conCls else { return .NO }
            let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
            return server.handle(connection, url: String(cString: url), method: String(cString: method),
                                 upload: upload, uploadSize: uploadSize, state: conCls)
        }
        let completed: MHD_RequestCompletedCallback = { _, _, state, _ in
            if let state, let body = state.pointee {
                Unmanaged<RequestBody>.fromOpaque(body).release()
                state.pointee = nil
            }
        }
        var certificate: UnsafePointer<CChar>?, key: UnsafePointer<CChar>?
        if mode == .guardianLAN {
            guard let identity, let c = strdup(identity.certificatePEM), let k = strdup(identity.privateKeyPEM) else {
                throw ServiceError.httpUnavailable(address: Self.hostPort(address, port), errno: EINVAL)
            }
            tlsStrings = (c, k)
            certificate = UnsafePointer(c)
            key = UnsafePointer(k)
        }
        // Bound here, not by the daemon: with port 0 the port (part of every accepted `Host`) is
        // known only after binding, and the allow-list must be whole before a thread can answer.
        var bound: UInt16 = 0
        let listening = chttp_listen(address, port, &bound)
        guard listening >= 0 else {
            let code = errno
            freeTLSStrings()
            throw ServiceError.httpUnavailable(address: Self.hostPort(address, port), errno: code)
        }
        defer { close(listening) }
        port = bound
        hosts.withLock { $0 = Self.acceptedHosts(mode: mode, address: address, names: hostNames, port: bound) }
        // 64 connections, 32 per address, 30 s of silence closes one (slow clients), 64 KiB of
        // headers and buffers per connection.
        guard let d = chttp_start(listening, 64, 32, 30, 64 * 1024, handler, Unmanaged.passUnretained(self).toOpaque(),
                                  completed, nil, certificate, key) else {
            let code = errno
            freeTLSStrings()
            throw ServiceError.httpUnavailable(address: Self.hostPort(address, port), errno: code)
        }
        daemon = d
    }

    /// The `Host` values a server on `address`:`port` answers to.
    static func acceptedHosts(mode: Mode, address: String, names: [String], port: UInt16) -> Set<String> {
        switch mode {
        case .kiosk:
            var hosts: Set<String> = ["\(bracketed(address)):\(port)", "localhost:\(port)"]
            if address == "127.0.0.1" || address == "::1" { hosts.formUnion(["127.0.0.1:\(port)", "[::1]:\(port)"]) }
            return hosts
        case .guardianLAN:
            return Set(([address] + names).map { "\(bracketed($0).lowercased()):\(port)" })
        }
    }

    func stop() {
        if mode == .kiosk { board.close() }
        if let d = daemon { MHD_stop_daemon(d) }
        daemon = nil
        freeTLSStrings()
    }

    private func freeTLSStrings() {
        guard let strings = tlsStrings else { return }
        // The key is wiped before it is given back.
        memset(strings.key, 0, strlen(strings.key))
        free(strings.certificate)
        free(strings.key)
        tlsStrings = nil
    }

    static func bracketed(_ address: String) -> String { address.contains(":") ? "[\(address)]" : address }
    static func hostPort(_ address: String, _ port: UInt16) -> String { "\(bracketed(address)):\(port)" }

    /// The guardian pages' address on this server, with `host` (an address or a name it answers to).
    public func guardianURL(host: String) -> String {
        "\(mode == .guardianLAN ? "https" : "http")://\(Self.hostPort(host, port))/guardian/"
    }

    /// The address a browser opens for a child.
    public func pageURL(child: String) -> String {
        let host = address.contains(":") ? "[\(address)]" : address
        return "http://\(host):\(port)/child/\(child)"
    }

    // MARK: Requests

    /// The body limit of a request: a tap is tiny, a guardian form small, a photo ≤ 5 MiB, a
    /// backup upload up to `GuardianWeb.maxRestoreBytes`.
    static func bodyLimit(path: String) -> Int {
        guard path.hasPrefix("/guardian/") else { return maxBodyBytes }
        if path.hasSuffix("/add") || path.hasSuffix("/edit") {
            // Twice the photo limit, so a photo a little too big gets a page naming the field.
            return 2 * GuardianWeb.maxPhotoBytes + RequestBody.textLimit
        }
        if path.hasSuffix("/backup/restore") { return GuardianWeb.maxRestoreBytes }
        return RequestBody.textLimit
    }

    private func handle(_ c: OpaquePointer, url: String, method: String, upload: UnsafePointer<CChar>?,
                        uploadSize: UnsafeMutablePointer<Int>, state: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        // First call: headers only (a declared body over the limit is refused at once). Later
        // calls bring the body in pieces, then an empty call. The request's body lives in its
        // `state` until libmicrohttpd says the request completed.
        guard let pointer = state.pointee else {
            // Photo and backup bodies are held in memory until the request is answered, and bodies
            // are read before the session is checked: only a signed-in guardian may send one that
            // large. Anyone else is held to the text limit and, over it, answered as signed out.
            var limit = Self.bodyLimit(path: url)
            let signedOut = limit > RequestBody.textLimit && guardian?.isSignedIn(cookie(c)) != true
            if signedOut { limit = RequestBody.textLimit }
            let body = RequestBody(limit: limit)
            state.pointee = Unmanaged.passRetained(body).toOpaque()
            if let length = header(c, "Content-Length").flatMap(Int.init), length > body.limit {
                return signedOut ? answerSignedOut(c, url: url, method: method) : reply(c, 413, json: "{\"error\":\"body too large\"}")
            }
            body.signedOut = signedOut
            // A large body from a signed-in guardian takes a place among the device's uploads
            // (`UploadLedger`); without one its file bytes are dropped and the page says why.
            let upload = limit > RequestBody.textLimit && method == "POST"
                ? guardian?.beginUpload(cookie(c), archive: url.hasSuffix("/backup/restore")) : nil
            switch upload {
            case .success(let ticket)?:
                body.slot = ticket.slot
                body.spoolTo = ticket.spoolTo
            case .failure(let refusal)?: body.refusal = refusal
            case nil: break
            }
            let type = header(c, "Content-Type")?.lowercased() ?? ""
            if method == "POST", url.hasPrefix("/guardian/"),
               type.hasPrefix("application/x-www-form-urlencoded") || type.hasPrefix("multipart/form-data") {
                _ = body.expectForm(connection: c)
            }
            return MHD_Result.YES
        }
        let body = Unmanaged<RequestBody>.fromOpaque(pointer).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            if let upload { body.append(UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee)) }
            uploadSize.pointee = 0
            return MHD_Result.YES
        }
        body.finish()
        // Runs once the answer is queued, before libmicrohttpd sends it.
        defer { body.answered() }
        if body.overLimit {
            return body.signedOut ? answerSignedOut(c, url: url, method: method) : reply(c, 413, json: "{\"error\":\"body too large\"}")
        }
        guard let host = header(c, "Host"), allowedHosts.contains(host.lowercased()) else {
            return reply(c, 421, json: "{\"error\":\"unknown host\"}")
        }
        let parts = url.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if parts.first == "guardian" { return guardianPage(c, method: method, parts: parts, body: body) }
        if mode == .guardianLAN { return lanGet(c, method: method, parts) }
        switch method {
        case "GET": return get(c, parts)
        case "POST": return post(c, parts, body: body.raw)
        default: return reply(c, 405, json: "{\"error\":\"method not allowed\"}")
        }
    }

    /// A large form from a browser without a guardian session: answered as the guardian pages answer
    /// any form without one (the sign-in page, 401; 403 from another origin), without its body.
    private func answerSignedOut(_ c: OpaquePointer, url: String, method: String) -> MHD_Result {
        guard let host = header(c, "Host"), allowedHosts.contains(host.lowercased()) else {
            return reply(c, 421, json: "{\"error\":\"unknown host\"}")
        }
        let parts = url.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        return guardianPage(c, method: method, parts: parts, body: RequestBody(limit: 0))
    }

    private func cookie(_ c: OpaquePointer) -> String? {
        MHD_lookup_connection_value(c, .COOKIE_KIND, GuardianWeb.cookieName).map { String(cString: $0) }
    }

    /// A guardian page: the request read into a `WebRequest`, answered by `GuardianWeb`.
    private func guardianPage(_ c: OpaquePointer, method: String, parts: [String], body: RequestBody) -> MHD_Result {
        guard let guardian else { return reply(c, 404, json: "{\"error\":\"not found\"}") }
        guard method == "GET" || method == "POST" else { return reply(c, 405, json: "{\"error\":\"method not allowed\"}") }
        var cookies: [String: String] = [:]
        if let session = cookie(c) { cookies[GuardianWeb.cookieName] = session }
        let form = body.textFields()
        let request = WebRequest(method: method, path: parts, query: arguments(c), cookies: cookies, form: form, files: body.files,
                                 malformedBody: body.malformed, secure: mode == .guardianLAN, sameOrigin: method == "GET" || sameOrigin(c),
                                 wantsJSON: header(c, "Accept")?.contains("application/json") == true, uploadRefusal: body.refusal)
        let response = guardian.handle(request)
        var headers: [String: String] = [:]
        for (k, v) in response.headers { headers[k] = v }
        if let file = response.file {
            // Sent from the file by libmicrohttpd (sendfile on plain HTTP), never copied to memory;
            // it closes the descriptor when the response is destroyed.
            guard let fd = file.take(), let mhd = MHD_create_response_from_fd64(file.size, fd) else {
                return reply(c, 500, json: "{\"error\":\"download failed\"}")
            }
            return queue(c, response.status, mhd, type: response.contentType, cache: "no-store", extra: headers)
        }
        return respond(c, response.status, response.body, type: response.contentType, cache: "no-store", extra: headers)
    }

    /// The query string's arguments (first value of each name; at most 32 names).
    private func arguments(_ c: OpaquePointer) -> [String: String] {
        final class Box { var values: [String: String] = [:] }
        let box = Box()
        let iterator: MHD_KeyValueIterator = { cls, _, key, value in
            guard let cls, let key else { return .NO }
            let box = Unmanaged<Box>.fromOpaque(cls).takeUnretainedValue()
            guard box.values.count < 32 else { return .NO }
            let name = String(cString: key)
            if box.values[name] == nil { box.values[name] = value.map { String(cString: $0) } ?? "" }
            return .YES
        }
        withExtendedLifetime(box) {
            _ = MHD_get_connection_values(c, .GET_ARGUMENT_KIND, iterator, Unmanaged.passUnretained(box).toOpaque())
        }
        return box.values
    }

    /// A POST from a page of this server: the browser names the page's origin on every POST
    /// (`https://` on the home network, `http://` on loopback).
    private func sameOrigin(_ c: OpaquePointer) -> Bool {
        let scheme = mode == .guardianLAN ? "https://" : "http://"
        guard let origin = header(c, "Origin"), origin.hasPrefix(scheme) else { return false }
        let host = String(origin.dropFirst(scheme.count))
        return !host.contains("/") && allowedHosts.contains(host.lowercased())
    }

    /// Outside `/guardian/` the home network gets only what the guardian pages load (their
    /// stylesheet and script, the builtin icons); `/` leads to the guardian pages. The child's
    /// page, its screen, its actions, the child list and the photos (no session reaches them:
    /// the cookie is for `/guardian` only) are not found.
    private func lanGet(_ c: OpaquePointer, method: String, _ parts: [String]) -> MHD_Result {
        guard method == "GET" else { return reply(c, 404, json: "{\"error\":\"not found\"}") }
        switch parts.count {
        case 0:
            return redirect(c, "/guardian/")
        case 2 where parts[0] == "static" && Self.lanStaticFiles.contains(parts[1]):
            return file(c, parts[1])
        case 2 where parts[0] == "icons" && parts[1].hasSuffix(".svg") && BuiltinIcons.contains(String(parts[1].dropLast(4))):
            return file(c, "icons/" + parts[1])
        default:
            return reply(c, 404, json: "{\"error\":\"not found\"}")
        }
    }

    /// The static files the guardian pages load.
    static let lanStaticFiles: Set<String> = ["guardian.css", "guardian.js"]

    private func get(_ c: OpaquePointer, _ parts: [String]) -> MHD_Result {
        switch parts.count {
        case 0:
            let children = board.childList
            if children.count == 1 { return redirect(c, "/child/\(children[0].id)") }
            return file(c, "index.html")
        case 2 where parts[0] == "child":
            return board.screen(parts[1]) == nil ? reply(c, 404, json: "{\"error\":\"no such child\"}") : file(c, "child.html")
        case 2 where parts[0] == "static" && Self.isPlainName(parts[1]):
            return file(c, parts[1])
        case 2 where parts[0] == "icons" && parts[1].hasSuffix(".svg") && BuiltinIcons.contains(String(parts[1].dropLast(4))):
            return file(c, "icons/" + parts[1])
        case 2 where parts[0] == "photos" && Self.isPhotoName(parts[1]):
            guard let dir = photosDirectory else { return reply(c, 404, json: "{\"error\":\"not found\"}") }
            return file(c, parts[1], in: dir)
        case 2 where parts == ["api", "children"]:
            struct Row: Encodable { var id: String; var name: String; var locale: String }
            let rows = board.childList.map { Row(id: $0.id, name: $0.name, locale: $0.locale) }
            let data = (try? JSONEncoder().encode(rows)) ?? Data("[]".utf8)
            return reply(c, 200, json: String(decoding: data, as: UTF8.self))
        case 4 where parts[0] == "api" && parts[1] == "child" && parts[3] == "state":
            guard let screen = board.screen(parts[2]) else { return reply(c, 404, json: "{\"error\":\"no such child\"}") }
            return reply(c, 200, json: screen.json(now: board.clock.now()))
        case 4 where parts[0] == "api" && parts[1] == "child" && parts[3] == "events":
            guard board.screen(parts[2]) != nil else { return reply(c, 404, json: "{\"error\":\"no such child\"}") }
            return events(c, child: parts[2])
        default:
            return reply(c, 404, json: "{\"error\":\"not found\"}")
        }
    }

    private func post(_ c: OpaquePointer, _ parts: [String], body: [UInt8]) -> MHD_Result {
        guard parts.count == 4, parts[0] == "api", parts[1] == "child", ["done", "undo", "next"].contains(parts[3]) else {
            return reply(c, 404, json: "{\"error\":\"not found\"}")
        }
        guard sameOrigin(c) else { return reply(c, 403, json: "{\"error\":\"origin\"}") }
        guard header(c, "Content-Type")?.lowercased().hasPrefix("application/json") == true else {
            return reply(c, 415, json: "{\"error\":\"content type\"}")
        }
        struct Tap: Decodable { var version: Int? }
        let tap = body.isEmpty ? Tap(version: nil) : try? JSONDecoder().decode(Tap.self, from: Data(body))
        guard let tap else { return reply(c, 400, json: "{\"error\":\"bad body\"}") }
        let (status, json) = press(parts[2], parts[3], tap.version)
        return reply(c, status, json: json)
    }

    /// A photo's file name as the data contract allows it (`Validator.photoAssetName`): nothing
    /// that could leave the photo folder.
    static func isPhotoName(_ name: String) -> Bool {
        (try? Validator.photoAssetName(name)) != nil
    }

    static func isPlainName(_ name: String) -> Bool {
        name.count <= 64 && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_") }
            && !name.hasPrefix(".") && [".css", ".js", ".html"].contains { name.hasSuffix($0) }
    }

    // MARK: Responses

    private func header(_ c: OpaquePointer, _ name: String) -> String? {
        MHD_lookup_connection_value(c, .HEADER_KIND, name).map { String(cString: $0) }
    }

    private func reply(_ c: OpaquePointer, _ status: Int, json: String) -> MHD_Result {
        respond(c, status, Array(json.utf8), type: "application/json; charset=utf-8", cache: "no-store")
    }

    private func redirect(_ c: OpaquePointer, _ location: String) -> MHD_Result {
        respond(c, 302, [], type: "text/plain", cache: "no-store", extra: ["Location": location])
    }

    private func file(_ c: OpaquePointer, _ relative: String, in directory: URL? = nil) -> MHD_Result {
        let url = (directory ?? webDirectory).appendingPathComponent(relative)
        // The photo limit is the one the guardian pages and backups accept, so a photo they took is
        // never the child's fallback; the page's own files are far smaller.
        guard let data = try? Data(contentsOf: url), data.count <= GuardianWeb.maxPhotoBytes else { return reply(c, 404, json: "{\"error\":\"not found\"}") }
        let type: String
        switch url.pathExtension {
        case "html": type = "text/html; charset=utf-8"
        case "css": type = "text/css; charset=utf-8"
        case "js": type = "text/javascript; charset=utf-8"
        case "svg": type = "image/svg+xml"
        case "png", "PNG": type = "image/png"
        case "jpg", "jpeg", "JPG", "JPEG": type = "image/jpeg"
        default: type = "application/octet-stream"
        }
        return respond(c, 200, Array(data), type: type, cache: "no-cache")
    }

    private func respond(_ c: OpaquePointer, _ status: Int, _ bytes: [UInt8], type: String, cache: String,
                         extra: [String: String] = [:]) -> MHD_Result {
        var copy = bytes
        let response = copy.withUnsafeMutableBytes { buf in
            chttp_response_copy(buf.count, buf.baseAddress)
        }
        guard let response else { return .NO }
        return queue(c, status, response, type: type, cache: cache, extra: extra)
    }

    /// Adds the headers to `response`, queues it and gives up this reference to it.
    private func queue(_ c: OpaquePointer, _ status: Int, _ response: OpaquePointer, type: String, cache: String,
                       extra: [String: String]) -> MHD_Result {
        defer { MHD_destroy_response(response) }
        // No Strict-Transport-Security: with a self-signed certificate it would make the browser's
        // "proceed" (after the fingerprint is checked) impossible for that name.
        var headers = Self.securityHeaders
        headers["Content-Type"] = type
        headers["Cache-Control"] = cache
        for (k, v) in extra { headers[k] = v }
        for (k, v) in headers { _ = MHD_add_response_header(response, k, v) }
        return MHD_queue_response(c, UInt32(status), response)
    }

    static let securityHeaders: [String: String] = [
        "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        "X-Content-Type-Options": "nosniff",
        // Not no-referrer: with it a browser sends `Origin: null` on form posts, and the origin check needs it.
        "Referrer-Policy": "same-origin",
        "X-Frame-Options": "DENY",
    ]

    // MARK: Event stream

    /// Most event streams open at once, from anyone: each holds a connection (and its thread) for
    /// as long as the page stays, so without a limit of their own 32 streams from any local
    /// process filled libmicrohttpd's per-address limit and the child's taps were reset. One
    /// more is answered 503 at once; taps, the screen and the guardian pages keep their room.
    static let maxEventStreams = 8
    /// How long a refused page waits before it asks again (`Retry-After`).
    static let eventStreamRetrySeconds = 2
    /// Event streams open now.
    private let openStreams = Mutex(0)

    /// One page's Server-Sent Events: the screen now, then every newer one, a keepalive comment
    /// when nothing happened for 15 s. The reader blocks its connection's own thread in `poll(2)`
    /// on the connection (a peer that closes or resets is seen at once, and its place freed)
    /// and on a wake descriptor the board signals on every publish.
    final class EventStream {
        let board: StateBoard
        let child: String
        /// The connection's socket (-1: unknown, then only a failed write notices a closed peer).
        let connectionFD: Int32
        let wakeFD: Int32
        var version = -1
        var pending: [UInt8] = []
        private let ended: () -> Void

        init?(board: StateBoard, child: String, connectionFD: Int32, ended: @escaping () -> Void) {
            let wake = chttp_wake_fd()
            guard wake >= 0 else { return nil }
            self.board = board; self.child = child; self.connectionFD = connectionFD
            self.wakeFD = wake; self.ended = ended
            board.subscribe(wake: wake)
        }

        deinit {
            board.unsubscribe(wake: wakeFD)
            close(wakeFD)
            ended()
        }

        func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
            let keepaliveAt = ProcessInfo.processInfo.systemUptime + HTTPServer.keepalive
            while pending.isEmpty {
                let (screen, closed) = board.newer(child, than: version)
                if closed { return -1 }   // MHD_CONTENT_READER_END_OF_STREAM
                if let screen {
                    version = screen.version
                    pending = Array("event: state\ndata: \(screen.json(now: board.clock.now()))\n\n".utf8)
                    break
                }
                let left = keepaliveAt - ProcessInfo.processInfo.systemUptime
                if left <= 0 {
                    pending = Array(": keepalive\n\n".utf8)
                    break
                }
                // The board's wake is registered before `newer` looked, so a publish in between
                // leaves the descriptor readable and the poll returns at once.
                // 1: the peer closed or reset; -1: poll itself failed (never spin on it).
                if chttp_wait_peer(connectionFD, wakeFD, Int32(min(left * 1000 + 1, 60_000))) != 0 {
                    return -2   // MHD_CONTENT_READER_END_WITH_ERROR: the connection is closed now
                }
            }
            let n = min(max, pending.count)
            pending.withUnsafeBytes { src in
                if let base = src.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: n) }
            }
            pending.removeFirst(n)
            return n
        }
    }

    private func events(_ c: OpaquePointer, child: String) -> MHD_Result {
        let admitted = openStreams.withLock { open in
            guard open < Self.maxEventStreams else { return false }
            open += 1
            return true
        }
        guard admitted else {
            // Answered at once and closed: a refused stream holds no thread and no place.
            return respond(c, 503, Array("{\"error\":\"too many event streams\"}".utf8), type: "application/json; charset=utf-8",
                           cache: "no-store", extra: ["Retry-After": String(Self.eventStreamRetrySeconds), "Connection": "close"])
        }
        let release: () -> Void = { [weak self] in self?.openStreams.withLock { $0 -= 1 } }
        guard let stream = EventStream(board: board, child: child, connectionFD: chttp_connection_fd(c), ended: release) else {
            release()
            return reply(c, 503, json: "{\"error\":\"stream unavailable\"}")
        }
        let reader: MHD_ContentReaderCallback = { cls, _, buf, max in
            guard let cls, let buf else { return -2 }
            return Unmanaged<EventStream>.fromOpaque(cls).takeUnretainedValue().read(into: buf, max: max)
        }
        let free: MHD_ContentReaderFreeCallback = { cls in
            if let cls { Unmanaged<EventStream>.fromOpaque(cls).release() }
        }
        guard let response = MHD_create_response_from_callback(UInt64.max, 32 * 1024, reader,
                                                               Unmanaged.passRetained(stream).toOpaque(), free) else { return .NO }
        defer { MHD_destroy_response(response) }
        var headers = Self.securityHeaders
        headers["Content-Type"] = "text/event-stream; charset=utf-8"
        headers["Cache-Control"] = "no-store"
        for (k, v) in headers { _ = MHD_add_response_header(response, k, v) }
        return MHD_queue_response(c, 200, response)
    }
}

extension GuardianWeb {
    /// A large upload's place, and where its archive goes (nil: kept in memory).
    struct UploadTicket {
        let slot: UploadSlot
        let spoolTo: (ledger: UploadLedger, folder: String)?
    }

    /// A signed-in guardian's large upload (nil: no live session): a place among the device's
    /// uploads, or why there is none. A new archive replaces the session's waiting one, so that
    /// one is removed now (its room is free for the new one).
    func beginUpload(_ token: String?, archive: Bool) -> Result<UploadTicket, UploadRefusal>? {
        let now = config.secureClock.now()
        return inner.withLock { inner -> Result<UploadTicket, UploadRefusal>? in
            let generation = (try? inner.store.pinGeneration()) ?? nil
            guard var session = inner.sessions.use(token, at: now, pinGeneration: generation) else { return nil }
            if archive, session.restore != nil {
                session.restore = nil
                inner.sessions.update(session)
            }
            return config.uploads.reserve(session: session.token).map {
                UploadTicket(slot: $0, spoolTo: archive ? (config.uploads, uploadFolder) : nil)
            }
        }
    }

    /// Whether a cookie names a live session (touched, as the request itself will touch it): the
    /// HTTP server lets only signed-in browsers send bodies over the text limit.
    func isSignedIn(_ token: String?) -> Bool {
        let now = config.secureClock.now()
        return inner.withLock { inner in
            let generation = (try? inner.store.pinGeneration()) ?? nil
            return inner.sessions.use(token, at: now, pinGeneration: generation) != nil
        }
    }
}
