import CGnuTLS
import Foundation

/// A small HTTPS client for the tests, with GnuTLS: it accepts any certificate (as a browser does
/// after the guardian checked the fingerprint) and hands back the one the server presented, so
/// the test computes its fingerprint itself.
enum TLSProbe {
    struct Exchange {
        /// The server's certificate (DER), as sent in the handshake.
        var certificate: [UInt8]
        /// The HTTP response, as `KioskHTTPTests.Response` (nil when none could be parsed).
        var response: KioskHTTPTests.Response?
    }

    /// Connects to 127.0.0.1:`port`, completes a TLS handshake, sends `text` and reads to the end.
    /// Nil when the connection or the handshake fails.
    static func exchange(_ port: UInt16, _ text: String, timeout: Int = 5) -> Exchange? {
        guard let fd = KioskHTTPTests.connectLoopback(port, timeout: timeout) else { return nil }
        defer { close(fd) }

        var credentials: gnutls_certificate_credentials_t?
        guard gnutls_certificate_allocate_credentials(&credentials) >= 0, let credentials else { return nil }
        defer { gnutls_certificate_free_credentials(credentials) }
        var session: gnutls_session_t?
        guard gnutls_init(&session, UInt32(GNUTLS_CLIENT)) >= 0, let session else { return nil }
        defer { gnutls_deinit(session) }
        guard gnutls_set_default_priority(session) >= 0,
              gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, UnsafeMutableRawPointer(credentials)) >= 0 else { return nil }
        gnutls_transport_set_int2(session, fd, fd)
        gnutls_handshake_set_timeout(session, UInt32(timeout * 1000))
        var result: Int32
        repeat { result = gnutls_handshake(session) } while result < 0 && gnutls_error_is_fatal(result) == 0
        guard result >= 0 else { return nil }

        var count: UInt32 = 0
        guard let peers = gnutls_certificate_get_peers(session, &count), count > 0, let data = peers.pointee.data else { return nil }
        let certificate = Array(UnsafeBufferPointer(start: data, count: Int(peers.pointee.size)))

        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { gnutls_record_send(session, $0.baseAddress.map { $0 + sent }, bytes.count - sent) }
            if n == Int(GNUTLS_E_AGAIN) || n == Int(GNUTLS_E_INTERRUPTED) { continue }
            guard n > 0 else { return nil }
            sent += n
        }
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = buffer.withUnsafeMutableBytes { gnutls_record_recv(session, $0.baseAddress, $0.count) }
            if n == Int(GNUTLS_E_AGAIN) || n == Int(GNUTLS_E_INTERRUPTED) { continue }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        _ = gnutls_bye(session, GNUTLS_SHUT_WR)
        return Exchange(certificate: certificate, response: KioskHTTPTests.parse(received))
    }

    static func get(_ port: UInt16, _ path: String, host: String? = nil, cookie: String? = nil) -> Exchange? {
        var text = "GET \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        if let cookie { text += "Cookie: \(cookie)\r\n" }
        return exchange(port, text + "\r\n")
    }

    static func post(_ port: UInt16, _ path: String, form: String, origin: String?, type: String = "application/x-www-form-urlencoded",
                     cookie: String? = nil) -> Exchange? {
        var text = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\nContent-Type: \(type)\r\nContent-Length: \(form.utf8.count)\r\n"
        if let origin { text += "Origin: \(origin)\r\n" }
        if let cookie { text += "Cookie: \(cookie)\r\n" }
        return exchange(port, text + "\r\n" + form)
    }
}
