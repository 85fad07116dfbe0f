import Glibc
import SteppieTLS

/// One HTTPS request from a device to its hub at a time: on a new connection each (`Connection:
/// close`), or, with a `SyncConnectionKeeper`, on the connection the thread's last request left
/// open (HTTP/1.1 keep-alive, one TLS handshake for many requests). The hub's certificate is
/// trusted by its SHA-256 fingerprint alone (the hub's is self-signed; the guardian checked the
/// fingerprint when joining): it is compared right after
/// the handshake, before any byte of the request is sent. Every wait has its own deadline, so a
/// hub that accepts and never answers cannot hold the device.
package struct SyncHTTPSClient: Sendable {
    /// How long each part of a request may take.
    package struct Timeouts: Hashable, Sendable {
        package var connectMilliseconds: Int
        package var handshakeMilliseconds: Int
        /// The whole request, from the first connection attempt to the answer's last byte (a long
        /// poll adds the time the hub may hold it).
        package var requestMilliseconds: Int

        package init(connectMilliseconds: Int = 5_000, handshakeMilliseconds: Int = 5_000, requestMilliseconds: Int = 30_000) {
            self.connectMilliseconds = connectMilliseconds
            self.handshakeMilliseconds = handshakeMilliseconds
            self.requestMilliseconds = requestMilliseconds
        }
    }

    /// The most bytes of an answer's body a device takes (a pull of 2,000 entries is far less).
    package static let defaultResponseLimit = 8 * 1024 * 1024

    package let hub: HubAddress
    /// The fingerprint the guardian checked (`AB:CD:…`; case and colons do not matter).
    package let fingerprint: String
    package var timeouts: Timeouts
    package var responseLimit: Int
    /// Where the connection waits between requests (nil: one connection per request).
    package var keeper: SyncConnectionKeeper?

    package init(hub: HubAddress, fingerprint: String, timeouts: Timeouts = Timeouts(), responseLimit: Int = Self.defaultResponseLimit,
                 keeper: SyncConnectionKeeper? = nil) {
        self.hub = hub
        self.fingerprint = fingerprint
        self.timeouts = timeouts
        self.responseLimit = responseLimit
        self.keeper = keeper
    }

    /// Whether two fingerprints name the same certificate: the same hex digits, whatever their
    /// case and separators (`ab:cd` and `ABCD`).
    package static func sameFingerprint(_ a: String, _ b: String) -> Bool {
        func digits(_ s: String) -> String { s.filter { $0 != ":" && $0 != " " }.uppercased() }
        return !digits(a).isEmpty && digits(a) == digits(b)
    }

    /// A bearer credential a header can carry: visible ASCII, no spaces, at most 512 bytes.
    package static func isToken(_ credential: String) -> Bool {
        !credential.isEmpty && credential.utf8.count <= 512 && credential.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// `POST path` with a JSON body; the answer, whatever its status.
    /// `extraMilliseconds`: more time for the whole request (a long poll the hub may hold).
    package func post(_ path: String, json body: [UInt8], credential: String?, extraMilliseconds: Int = 0) throws(SyncTransportError) -> SyncHTTPResponse {
        try send("POST", path, body: body, contentType: "application/json", credential: credential, extraMilliseconds: extraMilliseconds)
    }

    /// `method path` (`HEAD`, `GET`, `PUT`, `POST`) with `body` of `contentType` (none for an empty
    /// `HEAD` or `GET`); the answer, whatever its status (`SyncHubClient.blob` raises
    /// `responseLimit` to the largest recording for a blob's answer).
    package func send(_ method: String, _ path: String, body: [UInt8], contentType: String?, credential: String?,
                      extraMilliseconds: Int = 0) throws(SyncTransportError) -> SyncHTTPResponse {
        let start = ContinuousClock.now
        let requestDeadline = start + .milliseconds(timeouts.requestMilliseconds + max(0, extraMilliseconds))
        // A credential no hub could have given (join refuses one like it) is not sent.
        if let credential, !Self.isToken(credential) { throw .refused(.unknownDevice) }
        let bytes = request(method, path, body: body, contentType: contentType, credential: credential, keepAlive: keeper != nil)
        let headOnly = method == "HEAD"
        let key = hub.authority + " " + fingerprint.filter { $0 != ":" && $0 != " " }.uppercased()

        if let keeper, let kept = keeper.take(for: key) {
            var answered = false
            do throws(SyncTransportError) {
                let (response, reusable) = try exchange(kept.session, bytes, until: requestDeadline, headOnly: headOnly, answered: &answered)
                if reusable { keeper.keep(kept) }
                return response
            } catch {
                // The hub closed the kept connection before it answered (its idle timeout, a
                // restart): once more on a new one. Anything else is the answer's own failure.
                guard !answered, Self.isConnectionLost(error) else { throw error }
            }
        }

        let connectDeadline = min(start + .milliseconds(timeouts.connectMilliseconds), requestDeadline)
        let fd: Int32
        do throws(SyncTransportError) {
            fd = try TCPConnection.open(hub, until: connectDeadline)
        } catch .timeout {
            throw .timeout(connectDeadline == requestDeadline ? .request : .connect)
        }
        let connection: KeptConnection, presented: String
        let handshakeDeadline = min(ContinuousClock.now + .milliseconds(timeouts.handshakeMilliseconds), requestDeadline)
        do throws(TLSClientError) {
            let session: TLSClientSession
            do throws(TLSClientError) { session = try TLSClientSession(socket: fd) } catch {
                close(fd)
                throw error
            }
            connection = KeptConnection(key: key, fd: fd, session: session)   // closes the socket when it goes
            keeper?.noteOpened()
            try session.handshake(until: handshakeDeadline)
            presented = try session.peerFingerprint()
        } catch .timedOut {
            throw .timeout(handshakeDeadline == requestDeadline ? .request : .handshake)
        } catch {
            throw tlsFailure(error)
        }
        // Before any byte of the request (its credential above all) leaves the device.
        guard Self.sameFingerprint(fingerprint, presented) else { throw .fingerprintMismatch(expected: fingerprint, got: presented) }
        var answered = false
        let (response, reusable) = try exchange(connection.session, bytes, until: requestDeadline, headOnly: headOnly, answered: &answered)
        if reusable, let keeper { keeper.keep(connection) }
        return response
    }

    /// A failure that says the connection was gone, not that the hub answered badly.
    static func isConnectionLost(_ error: SyncTransportError) -> Bool {
        switch error {
        case .tlsFailed, .badResponse: true
        default: false
        }
    }

    /// The request's bytes: head and body.
    func request(_ path: String, body: [UInt8], credential: String?) -> [UInt8] {
        request("POST", path, body: body, contentType: "application/json", credential: credential)
    }

    func request(_ method: String, _ path: String, body: [UInt8], contentType: String?, credential: String?,
                 keepAlive: Bool = false) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(hub.authority)\r\n"
        if let credential { head += "Authorization: Bearer \(credential)\r\n" }
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        if method != "HEAD" && method != "GET" { head += "Content-Length: \(body.count)\r\n" }
        head += "Connection: \(keepAlive ? "keep-alive" : "close")\r\nAccept: application/json\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// Sends the request and reads the answer, and whether the connection may carry another (the
    /// answer was framed and the hub did not close it). A hub that refuses a body over its limit
    /// answers 413 and may close before it has read the rest: the answer is still read when the
    /// sending fails. `answered` turns true with the answer's first byte.
    private func exchange(_ session: TLSClientSession, _ request: [UInt8], until deadline: ContinuousClock.Instant,
                          headOnly: Bool, answered: inout Bool) throws(SyncTransportError) -> (SyncHTTPResponse, reusable: Bool) {
        var sendFailure: SyncTransportError?
        do throws(TLSClientError) {
            try session.send(request, until: deadline)
        } catch .timedOut {
            throw .timeout(.request)
        } catch {
            sendFailure = tlsFailure(error)
        }
        var reader = HTTPResponseReader(bodyLimit: responseLimit, headOnly: headOnly)
        while true {
            let bytes: [UInt8]
            do throws(TLSClientError) {
                bytes = try session.receive(max: 64 * 1024, until: deadline)
            } catch .timedOut {
                throw sendFailure ?? .timeout(.request)
            } catch {
                throw sendFailure ?? tlsFailure(error)
            }
            if bytes.isEmpty {
                do throws(SyncTransportError) { return (try reader.finish(), false) } catch { throw sendFailure ?? error }
            }
            answered = true
            if try reader.take(bytes), let response = reader.response {
                let closing = response.headers["connection"]?.lowercased().contains("close") ?? false
                return (response, sendFailure == nil && !closing && !reader.hasBytesAfterAnswer)
            }
        }
    }

    private func tlsFailure(_ error: TLSClientError) -> SyncTransportError {
        switch error {
        case .timedOut: .timeout(.request)
        case .failed, .poll: .tlsFailed(address: hub.authority, reason: error.description)
        }
    }
}
