import CGnuTLS
import Glibc

/// A TLS client on a connected, non-blocking socket (the caller owns it and closes it after this
/// session is gone), through GnuTLS. No certificate authority is consulted: the caller pins the
/// server's certificate by its fingerprint (`peerFingerprint`) right after the handshake, before
/// it sends anything. Every wait for the peer ends at the deadline the caller gives.
package final class TLSClientSession {
    /// The most plaintext one TLS record carries (RFC 8446, 5.1).
    static let largestRecord = 16_384
    private let session: gnutls_session_t
    private let credentials: gnutls_certificate_credentials_t
    private let socket: Int32

    /// A session on `socket`, not yet shaken hands.
    package init(socket: Int32) throws(TLSClientError) {
        var credentials: gnutls_certificate_credentials_t?
        try Self.call(gnutls_certificate_allocate_credentials(&credentials), "gnutls_certificate_allocate_credentials")
        guard let credentials else { throw .failed(.gnutls(call: "gnutls_certificate_allocate_credentials", code: GNUTLS_E_MEMORY_ERROR)) }
        var session: gnutls_session_t?
        // GNUTLS_NO_SIGNAL: a peer that closes while a record is written is an error here, not SIGPIPE.
        let code = gnutls_init(&session, UInt32(GNUTLS_CLIENT) | UInt32(GNUTLS_NO_SIGNAL))
        guard code >= 0, let session else {
            gnutls_certificate_free_credentials(credentials)
            throw .failed(.gnutls(call: "gnutls_init", code: code < 0 ? code : GNUTLS_E_MEMORY_ERROR))
        }
        self.session = session
        self.credentials = credentials
        self.socket = socket
        try Self.call(gnutls_set_default_priority(session), "gnutls_set_default_priority")
        try Self.call(gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, UnsafeMutableRawPointer(credentials)), "gnutls_credentials_set")
        gnutls_transport_set_int2(session, socket, socket)
    }

    deinit {
        gnutls_deinit(session)
        gnutls_certificate_free_credentials(credentials)
    }

    /// Every GnuTLS return code goes through SteppieTLS's one checking helper.
    private static func call(_ code: Int32, _ name: String) throws(TLSClientError) {
        do throws(TLSError) { try GnuTLS.check(code, name) } catch { throw .failed(error) }
    }

    /// Completes the handshake by `deadline`.
    package func handshake(until deadline: ContinuousClock.Instant) throws(TLSClientError) {
        while true {
            let code = gnutls_handshake(session)
            if code >= 0 { return }
            guard gnutls_error_is_fatal(code) == 0 else { throw .failed(.gnutls(call: "gnutls_handshake", code: code)) }
            if code == GNUTLS_E_AGAIN || code == GNUTLS_E_INTERRUPTED {
                try wait(forWriting: gnutls_record_get_direction(session) == 1, until: deadline)
            } else if ContinuousClock.now >= deadline {
                throw .timedOut
            }
        }
    }

    /// The SHA-256 fingerprint of the certificate the server presented (its DER), formatted as
    /// the guardian pages show it (`TLSIdentity.formatFingerprint`).
    package func peerFingerprint() throws(TLSClientError) -> String {
        var count: UInt32 = 0
        guard let peers = gnutls_certificate_get_peers(session, &count), count > 0 else {
            throw .failed(.gnutls(call: "gnutls_certificate_get_peers", code: GNUTLS_E_NO_CERTIFICATE_FOUND))
        }
        var digest = [UInt8](repeating: 0, count: 32)
        var size = digest.count
        try Self.call(gnutls_fingerprint(GNUTLS_DIG_SHA256, peers, &digest, &size), "gnutls_fingerprint")
        return TLSIdentity.formatFingerprint(Array(digest.prefix(size)))
    }

    /// Sends every byte of `bytes` by `deadline`.
    package func send(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) throws(TLSClientError) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { gnutls_record_send(session, $0.baseAddress.map { $0 + sent }, bytes.count - sent) }
            if n > 0 {
                sent += n
            } else if n == Int(GNUTLS_E_AGAIN) || n == Int(GNUTLS_E_INTERRUPTED) {
                try wait(forWriting: true, until: deadline)
            } else {
                throw .failed(.gnutls(call: "gnutls_record_send", code: Int32(truncatingIfNeeded: n)))
            }
        }
    }

    /// Up to `max` bytes of what the server sent, waiting by `deadline` for some; empty when the
    /// server ended the connection (with TLS's close notice or without it: the caller's framing
    /// decides whether the answer was whole).
    package func receive(max: Int, until deadline: ContinuousClock.Instant) throws(TLSClientError) -> [UInt8] {
        // gnutls_record_recv gives at most one record's plaintext (16 KiB) a call and keeps the
        // rest of a record for the next: a larger buffer is never filled. Written straight into
        // the array it returns, neither zeroed first nor copied after (it was a 64 KiB buffer,
        // zeroed, then copied out, on every call).
        let size = Swift.max(1, Swift.min(max, Self.largestRecord))
        while true {
            var n = 0
            let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                n = gnutls_record_recv(session, buffer.baseAddress, size)
                count = n > 0 ? n : 0
            }
            if n > 0 { return bytes }
            if n == 0 || n == Int(GNUTLS_E_PREMATURE_TERMINATION) { return [] }
            if n == Int(GNUTLS_E_AGAIN) || n == Int(GNUTLS_E_INTERRUPTED) {
                try wait(forWriting: false, until: deadline)
            } else if gnutls_error_is_fatal(Int32(truncatingIfNeeded: n)) != 0 {
                throw .failed(.gnutls(call: "gnutls_record_recv", code: Int32(truncatingIfNeeded: n)))
            } else if ContinuousClock.now >= deadline {
                throw .timedOut
            }
        }
    }

    /// Waits until the socket can be read (or written), or the deadline passes.
    private func wait(forWriting: Bool, until deadline: ContinuousClock.Instant) throws(TLSClientError) {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { throw .timedOut }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = min(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1, Int64(Int32.max))
        var entry = pollfd(fd: socket, events: Int16(forWriting ? POLLOUT : POLLIN), revents: 0)
        let ready = poll(&entry, 1, Int32(milliseconds))
        if ready == 0 { throw .timedOut }
        if ready < 0, errno != EINTR { throw .poll(errno: errno) }
    }
}
