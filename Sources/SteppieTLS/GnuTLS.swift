import Foundation
import CGnuTLS

/// Every GnuTLS call goes through `check`: a negative return code becomes a `TLSError` naming the
/// call and GnuTLS's code (its symbolic name, never its English sentence).
enum GnuTLS {
    static func check(_ code: Int32, _ call: String) throws(TLSError) {
        guard code >= 0 else { throw .gnutls(call: call, code: code) }
    }

    /// GnuTLS's own name of an error code (`GNUTLS_E_BASE64_DECODING_ERROR`), for logs and tests.
    static func name(_ code: Int32) -> String {
        gnutls_strerror_name(code).map { String(cString: $0) } ?? String(code)
    }

    /// A datum GnuTLS allocated, copied out and freed.
    static func take(_ datum: inout gnutls_datum_t) -> [UInt8] {
        defer { cgnutls_free_datum(&datum) }
        guard let data = datum.data else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(datum.size)))
    }

    /// Runs `body` with a datum over a copy of `bytes` (GnuTLS takes non-const pointers).
    static func withDatum<T>(_ bytes: [UInt8], _ body: (inout gnutls_datum_t) throws(TLSError) -> T) throws(TLSError) -> T {
        var copy = bytes
        let result: Result<T, TLSError> = copy.withUnsafeMutableBufferPointer { buffer in
            var datum = gnutls_datum_t(data: buffer.baseAddress, size: UInt32(buffer.count))
            do throws(TLSError) { return .success(try body(&datum)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

/// A GnuTLS private key handle, freed with its owner.
final class PrivateKey {
    let handle: gnutls_x509_privkey_t

    private init(handle: gnutls_x509_privkey_t) { self.handle = handle }

    private static func empty() throws(TLSError) -> PrivateKey {
        var raw: gnutls_x509_privkey_t?
        try GnuTLS.check(gnutls_x509_privkey_init(&raw), "gnutls_x509_privkey_init")
        guard let raw else { throw .gnutls(call: "gnutls_x509_privkey_init", code: GNUTLS_E_MEMORY_ERROR) }
        return PrivateKey(handle: raw)
    }

    deinit { gnutls_x509_privkey_deinit(handle) }

    /// A new ECDSA key on the P-256 curve, from GnuTLS's random generator.
    static func generateP256() throws(TLSError) -> PrivateKey {
        let key = try empty()
        try GnuTLS.check(gnutls_x509_privkey_generate(key.handle, GNUTLS_PK_ECDSA, cgnutls_p256_bits(), 0), "gnutls_x509_privkey_generate")
        return key
    }

    /// A key read from PEM (PKCS #8 or the algorithm's own form).
    static func importPEM(_ pem: [UInt8]) throws(TLSError) -> PrivateKey {
        let key = try empty()
        try GnuTLS.withDatum(pem) { (datum: inout gnutls_datum_t) throws(TLSError) in
            try GnuTLS.check(gnutls_x509_privkey_import2(key.handle, &datum, GNUTLS_X509_FMT_PEM, nil, 0), "gnutls_x509_privkey_import2")
        }
        return key
    }

    /// Unencrypted PKCS #8 PEM (the file is owner-only; the service must start unattended).
    func exportPEM() throws(TLSError) -> String {
        var out = gnutls_datum_t()
        try GnuTLS.check(gnutls_x509_privkey_export2_pkcs8(handle, GNUTLS_X509_FMT_PEM, nil, GNUTLS_PKCS_PLAIN.rawValue, &out),
                         "gnutls_x509_privkey_export2_pkcs8")
        return String(decoding: GnuTLS.take(&out), as: UTF8.self)
    }

    /// The identifier of the public key (the same value a certificate for this key reports).
    func keyID() throws(TLSError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var size = buffer.count
        let code = gnutls_x509_privkey_get_key_id(handle, 0, &buffer, &size)
        try GnuTLS.check(code, "gnutls_x509_privkey_get_key_id")
        return Array(buffer.prefix(size))
    }
}

/// A GnuTLS X.509 certificate handle, freed with its owner.
final class Certificate {
    let handle: gnutls_x509_crt_t

    init() throws(TLSError) {
        var raw: gnutls_x509_crt_t?
        try GnuTLS.check(gnutls_x509_crt_init(&raw), "gnutls_x509_crt_init")
        guard let raw else { throw .gnutls(call: "gnutls_x509_crt_init", code: GNUTLS_E_MEMORY_ERROR) }
        handle = raw
    }

    deinit { gnutls_x509_crt_deinit(handle) }

    static func importPEM(_ pem: [UInt8]) throws(TLSError) -> Certificate {
        let crt = try Certificate()
        try GnuTLS.withDatum(pem) { (datum: inout gnutls_datum_t) throws(TLSError) in
            try GnuTLS.check(gnutls_x509_crt_import(crt.handle, &datum, GNUTLS_X509_FMT_PEM), "gnutls_x509_crt_import")
        }
        return crt
    }

    func exportPEM() throws(TLSError) -> String {
        var out = gnutls_datum_t()
        try GnuTLS.check(gnutls_x509_crt_export2(handle, GNUTLS_X509_FMT_PEM, &out), "gnutls_x509_crt_export2")
        return String(decoding: GnuTLS.take(&out), as: UTF8.self)
    }

    /// SHA-256 of the DER certificate, as GnuTLS computes it.
    func sha256Fingerprint() throws(TLSError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 32)
        var size = buffer.count
        try GnuTLS.check(gnutls_x509_crt_get_fingerprint(handle, GNUTLS_DIG_SHA256, &buffer, &size), "gnutls_x509_crt_get_fingerprint")
        return Array(buffer.prefix(size))
    }

    func keyID() throws(TLSError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var size = buffer.count
        try GnuTLS.check(gnutls_x509_crt_get_key_id(handle, 0, &buffer, &size), "gnutls_x509_crt_get_key_id")
        return Array(buffer.prefix(size))
    }

    var notAfter: Date { Date(timeIntervalSince1970: TimeInterval(gnutls_x509_crt_get_expiration_time(handle))) }
    var notBefore: Date { Date(timeIntervalSince1970: TimeInterval(gnutls_x509_crt_get_activation_time(handle))) }
}
