import CHTTP
import Glibc
import Synchronization

/// An HTTP server on libmicrohttpd (one thread per connection) that answers from a route table:
/// plain HTTP, or HTTPS only (GnuTLS inside libmicrohttpd) when given a certificate and key.
///
/// Everything a request thread reads is fixed before the first thread starts: the routes, the
/// limits and the `Host` names answered to (DNS rebinding: a page from another name is refused
/// 421). Bodies are taken as each route's plan says, under its limit; files and descriptors are
/// sent from disk, never read into memory; streams hold their connection's thread.
// Unchecked: the libmicrohttpd daemon handle and the TLS strings are C pointers, set by `start`
// and cleared by `stop` on the owner's thread only (the request threads never touch them; they
// read the immutable routes and configuration and the `Mutex`-guarded host names and stream count).
package final class HTTPServer: @unchecked Sendable {
    /// The certificate and key of an HTTPS server, PEM.
    package struct TLS: Sendable {
        package var certificatePEM: String
        package var privateKeyPEM: String
        package init(certificatePEM: String, privateKeyPEM: String) {
            self.certificatePEM = certificatePEM; self.privateKeyPEM = privateKeyPEM
        }
    }

    /// The `Host` values a server answers to (with the port it is bound to).
    package enum HostPolicy: Sendable, Equatable {
        /// Its own address and `localhost`; on a loopback address, both loopback addresses too.
        case local
        /// Its own address and these names (addresses or host names, compared without case).
        case names([String])
    }

    /// How much a server takes on at once.
    package struct Limits: Sendable {
        package var maxConnections: UInt32 = 64
        package var maxPerAddress: UInt32 = 32
        /// Seconds of silence that close a connection (slow clients).
        package var idleTimeoutSeconds: UInt32 = 30
        /// Bytes of headers and buffers per connection (bodies pass through it in pieces). At most
        /// 32 KiB: libmicrohttpd takes a larger pool with `mmap` and gives it back with `munmap`
        /// when the connection ends, whose TLB shootdown interrupts the other cores: 1.4 % of the
        /// machine's time in the first round of a morning at once, each push on a new connection
        /// (docs/performance.md, session 54). Up to 32 KiB it comes from `malloc`.
        package var memoryPerConnection = 32 * 1024
        /// Streams open at once, from anyone: each holds a connection (and its thread) for as long
        /// as its page stays, so without a limit of their own streams from any local process fill
        /// the per-address limit. One more is answered 503 at once; other requests keep their room.
        package var maxStreams = 8
        /// How long a refused stream waits before it asks again (`Retry-After`).
        package var streamRetrySeconds = 2
        package init() {}
    }

    package struct Configuration: Sendable {
        package var address: String
        /// 0: any free one (`port` says which once started).
        package var port: UInt16
        package var tls: TLS?
        package var hosts: HostPolicy
        package var limits: Limits
        /// Headers on every answer (a response's own of the same name win).
        package var headers: [String: String]
        package init(address: String, port: UInt16, tls: TLS? = nil, hosts: HostPolicy = .local, limits: Limits = Limits(),
                     headers: [String: String] = [:]) {
            self.address = address; self.port = port; self.tls = tls; self.hosts = hosts; self.limits = limits; self.headers = headers
        }
    }

    package let configuration: Configuration
    package let routes: [HTTPRoute]
    private var daemon: OpaquePointer?
    /// The certificate and key as C strings while the daemon runs.
    private var tlsStrings: (certificate: UnsafeMutablePointer<CChar>, key: UnsafeMutablePointer<CChar>)?
    /// `Host` values accepted: filled once, before the daemon's first thread runs, and read by
    /// every request thread.
    private let hosts = Mutex<Set<String>>([])
    package var allowedHosts: Set<String> { hosts.withLock { $0 } }
    /// Streams open now.
    private let openStreams = Mutex(0)
    package private(set) var port: UInt16
    package var address: String { configuration.address }
    package var isHTTPS: Bool { configuration.tls != nil }

    package init(_ configuration: Configuration, routes: [HTTPRoute]) {
        self.configuration = configuration
        self.routes = routes
        port = configuration.port
    }

    deinit { stop() }

    /// Binds and starts the threads; throws `HTTPServerError.unavailable` when the address cannot be used.
    package func start() throws(HTTPServerError) {
        let handler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, conCls in
            guard let cls, let connection, let url, let method, let uploadSize, let conCls else { return .NO }
            let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
            return server.handle(connection, url: String(cString: url), method: String(cString: method),
                                 upload: upload, uploadSize: uploadSize, state: conCls)
        }
        let completed: MHD_RequestCompletedCallback = { _, _, state, _ in
            if let state, let body = state.pointee {
                Unmanaged<HTTPRequestBody>.fromOpaque(body).release()
                state.pointee = nil
            }
        }
        let address = configuration.address
        let unavailable = { (code: Int32) in HTTPServerError.unavailable(address: Self.hostPort(address, self.port), errno: code) }
        var certificate: UnsafePointer<CChar>?, key: UnsafePointer<CChar>?
        if let tls = configuration.tls {
            guard let c = strdup(tls.certificatePEM) else { throw unavailable(EINVAL) }
            guard let k = strdup(tls.privateKeyPEM) else {
                free(c)
                throw unavailable(EINVAL)
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
            throw unavailable(code)
        }
        defer { close(listening) }
        port = bound
        hosts.withLock { $0 = Self.acceptedHosts(configuration.hosts, address: address, port: bound) }
        let limits = configuration.limits
        guard let d = chttp_start(listening, limits.maxConnections, limits.maxPerAddress, limits.idleTimeoutSeconds,
                                  limits.memoryPerConnection, handler, Unmanaged.passUnretained(self).toOpaque(),
                                  completed, nil, certificate, key) else {
            let code = errno
            freeTLSStrings()
            throw unavailable(code)
        }
        daemon = d
    }

    /// The `Host` values a server on `address`:`port` answers to.
    package static func acceptedHosts(_ policy: HostPolicy, address: String, port: UInt16) -> Set<String> {
        switch policy {
        case .local:
            var hosts: Set<String> = ["\(bracketed(address)):\(port)", "localhost:\(port)"]
            if address == "127.0.0.1" || address == "::1" { hosts.formUnion(["127.0.0.1:\(port)", "[::1]:\(port)"]) }
            return hosts
        case .names(let names):
            return Set(([address] + names).map { "\(bracketed($0).lowercased()):\(port)" })
        }
    }

    /// Stops the threads (waiting for those answering) and frees the daemon.
    package func stop() {
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

    package static func bracketed(_ address: String) -> String { address.contains(":") ? "[\(address)]" : address }
    package static func hostPort(_ address: String, _ port: UInt16) -> String { "\(bracketed(address)):\(port)" }

    /// This server's address for `path`, with `host` (an address or a name it answers to).
    package func url(host: String, path: String) -> String {
        "\(isHTTPS ? "https" : "http")://\(Self.hostPort(host, port))\(path)"
    }

    // MARK: Requests

    private func handle(_ c: OpaquePointer, url: String, method: String, upload: UnsafePointer<CChar>?,
                        uploadSize: UnsafeMutablePointer<Int>, state: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        // First call: headers only (a declared body over the limit is refused at once). Later
        // calls bring the body in pieces, then an empty call. The request's body lives in its
        // `state` until libmicrohttpd says the request completed.
        guard let pointer = state.pointee else {
            let head = HTTPHead(method: method, url: url, headers: values(c, .HEADER_KIND, max: 256),
                                cookies: values(c, .COOKIE_KIND, max: 64))
            let route = routes.first { $0.matches(method: method, parts: head.path) }
            let plan = route?.body(head) ?? .raw(limit: HTTPBodyPlan.smallLimit)
            let body = HTTPRequestBody(head: head, route: route, plan: plan)
            state.pointee = Unmanaged.passRetained(body).toOpaque()
            if let length = head.header("Content-Length").flatMap(Int.init), length > body.limit {
                return overLimit(c, body)
            }
            body.begin(plan.start())
            let type = head.header("Content-Type")?.lowercased() ?? ""
            if plan.forms, type.hasPrefix("application/x-www-form-urlencoded") || type.hasPrefix("multipart/form-data") {
                _ = body.expectForm(connection: c)
            }
            return MHD_Result.YES
        }
        let body = Unmanaged<HTTPRequestBody>.fromOpaque(pointer).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            if let upload { body.append(UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee)) }
            uploadSize.pointee = 0
            return MHD_Result.YES
        }
        body.finish()
        // Runs once the answer is queued, before libmicrohttpd sends it.
        defer { body.answered() }
        if body.overLimit { return overLimit(c, body) }
        guard isAllowedHost(body.head) else { return send(c, .error(421, "unknown host")) }
        guard let route = body.route else { return send(c, .notFound) }
        let form = body.textFields()
        let request = HTTPRequest(head: body.head, query: values(c, .GET_ARGUMENT_KIND, max: 32), body: body.raw, form: form,
                                  files: body.files, malformedBody: body.malformed, fileRefusal: body.refusal,
                                  secure: isHTTPS, sameOrigin: sameOrigin(body.head))
        return send(c, route.handler(request))
    }

    /// A body over its route's limit: 413, or the route's answer without the body.
    private func overLimit(_ c: OpaquePointer, _ body: HTTPRequestBody) -> MHD_Result {
        guard body.plan.overLimit == .answerWithoutBody, let route = body.route else {
            return send(c, .error(413, "body too large"))
        }
        guard isAllowedHost(body.head) else { return send(c, .error(421, "unknown host")) }
        let request = HTTPRequest(head: body.head, query: values(c, .GET_ARGUMENT_KIND, max: 32), secure: isHTTPS,
                                  sameOrigin: sameOrigin(body.head))
        return send(c, route.handler(request))
    }

    private func isAllowedHost(_ head: HTTPHead) -> Bool {
        guard let host = head.header("Host") else { return false }
        return allowedHosts.contains(host.lowercased())
    }

    /// The browser names the page's origin on every POST (`https://` over HTTPS, `http://` otherwise).
    private func sameOrigin(_ head: HTTPHead) -> Bool {
        let scheme = isHTTPS ? "https://" : "http://"
        guard let origin = head.header("Origin"), origin.hasPrefix(scheme) else { return false }
        let host = String(origin.dropFirst(scheme.count))
        return !host.contains("/") && allowedHosts.contains(host.lowercased())
    }

    /// A connection's values of one kind (first value of each name; at most `max` names).
    private func values(_ c: OpaquePointer, _ kind: MHD_ValueKind, max: Int) -> [String: String] {
        final class Box {
            var values: [String: String] = [:]
            let max: Int
            init(max: Int) { self.max = max }
        }
        let box = Box(max: max)
        let iterator: MHD_KeyValueIterator = { cls, _, key, value in
            guard let cls, let key else { return .NO }
            let box = Unmanaged<Box>.fromOpaque(cls).takeUnretainedValue()
            guard box.values.count < box.max else { return .NO }
            let name = String(cString: key)
            if box.values[name] == nil { box.values[name] = value.map { String(cString: $0) } ?? "" }
            return .YES
        }
        withExtendedLifetime(box) {
            _ = MHD_get_connection_values(c, kind, iterator, Unmanaged.passUnretained(box).toOpaque())
        }
        return box.values
    }

    // MARK: Responses

    private func send(_ c: OpaquePointer, _ response: HTTPResponse) -> MHD_Result {
        switch response.body {
        case .bytes(let bytes):
            var copy = bytes
            let made = copy.withUnsafeMutableBytes { buf in chttp_response_copy(buf.count, buf.baseAddress) }
            guard let made else { return .NO }
            return queue(c, response, made)
        case .file(let path, let maxBytes):
            // Sent from the file by libmicrohttpd (sendfile on plain HTTP), never copied to memory;
            // it closes the descriptor when the response is destroyed.
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return send(c, .notFound) }
            var st = stat()
            guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size <= maxBytes,
                  let made = MHD_create_response_from_fd64(UInt64(st.st_size), fd) else {
                close(fd)
                return send(c, .notFound)
            }
            return queue(c, response, made)
        case .descriptor(let file):
            guard let fd = file.take() else { return send(c, .error(500, "download failed")) }
            guard let made = MHD_create_response_from_fd64(file.size, fd) else {
                close(fd)
                return send(c, .error(500, "download failed"))
            }
            return queue(c, response, made)
        case .stream(let open):
            return stream(c, response, open)
        }
    }

    /// Adds the headers to `made`, queues it and gives up this reference to it.
    private func queue(_ c: OpaquePointer, _ response: HTTPResponse, _ made: OpaquePointer) -> MHD_Result {
        defer { MHD_destroy_response(made) }
        var headers = configuration.headers
        headers["Content-Type"] = response.contentType
        headers["Cache-Control"] = response.cacheControl
        for (k, v) in response.headers { headers[k] = v }
        for (k, v) in headers { _ = MHD_add_response_header(made, k, v) }
        return MHD_queue_response(c, UInt32(response.status), made)
    }

    /// One stream's state while libmicrohttpd reads from it: the source, its peer, what is left
    /// to send; its place among the open streams is given back when libmicrohttpd frees it.
    private final class StreamReader {
        let source: any HTTPStreamSource
        let peer: HTTPStreamPeer
        var pending: [UInt8] = []
        private let ended: () -> Void

        init(source: any HTTPStreamSource, peer: HTTPStreamPeer, ended: @escaping () -> Void) {
            self.source = source; self.peer = peer; self.ended = ended
        }

        deinit { ended() }

        func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
            if pending.isEmpty {
                switch source.next(peer) {
                case .send(let bytes): pending = bytes
                case .end: return -1   // MHD_CONTENT_READER_END_OF_STREAM
                case .failed: return -2   // MHD_CONTENT_READER_END_WITH_ERROR: the connection is closed now
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

    private func stream(_ c: OpaquePointer, _ response: HTTPResponse, _ open: (HTTPStreamPeer) -> (any HTTPStreamSource)?) -> MHD_Result {
        let limits = configuration.limits
        let admitted = openStreams.withLock { count in
            guard count < limits.maxStreams else { return false }
            count += 1
            return true
        }
        guard admitted else {
            // Answered at once and closed: a refused stream holds no thread and no place.
            return send(c, .error(503, "too many event streams",
                                  headers: [("Retry-After", String(limits.streamRetrySeconds)), ("Connection", "close")]))
        }
        let release: () -> Void = { [weak self] in self?.openStreams.withLock { $0 -= 1 } }
        guard let wake = HTTPWake() else {
            release()
            return send(c, .error(503, "stream unavailable"))
        }
        let peer = HTTPStreamPeer(connectionFD: chttp_connection_fd(c), wake: wake)
        guard let source = open(peer) else {
            release()
            return send(c, .error(503, "stream unavailable"))
        }
        let reader = StreamReader(source: source, peer: peer, ended: release)
        let read: MHD_ContentReaderCallback = { cls, _, buf, max in
            guard let cls, let buf else { return -2 }
            return Unmanaged<StreamReader>.fromOpaque(cls).takeUnretainedValue().read(into: buf, max: max)
        }
        let free: MHD_ContentReaderFreeCallback = { cls in
            if let cls { Unmanaged<StreamReader>.fromOpaque(cls).release() }
        }
        let retained = Unmanaged.passRetained(reader)
        guard let made = MHD_create_response_from_callback(UInt64.max, 32 * 1024, read, retained.toOpaque(), free) else {
            retained.release()
            return .NO
        }
        return queue(c, response, made)
    }
}

/// Why a server could not start.
package enum HTTPServerError: Error, Equatable, Sendable {
    /// The address could not be bound (in use, not this machine's) or the daemon not started.
    case unavailable(address: String, errno: Int32)
}
