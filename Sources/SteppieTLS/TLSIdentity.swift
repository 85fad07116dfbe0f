import CGnuTLS
import Foundation
import SteppieFiles

/// A server's TLS identity: a self-signed certificate, its private key (both PEM) and the
/// certificate's SHA-256 fingerprint, the value a guardian compares on first connect.
public struct TLSIdentity: Sendable, Equatable {
    public let certificatePEM: String
    public let privateKeyPEM: String
    /// SHA-256 of the DER certificate as browsers show it: colon-separated uppercase hex pairs.
    public let fingerprint: String
    public let notBefore: Date
    public let notAfter: Date

    /// How long a new certificate is valid: about ten years (a kiosk is set up once).
    public static let validity: TimeInterval = 3653 * 86_400

    /// `AB:CD:…` from raw bytes.
    public static func formatFingerprint(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// A new ECDSA P-256 key and a certificate signed by it for `dnsNames` and `ipAddresses`
    /// (subject alternative names), valid from a day before `now` (a phone whose clock is a little
    /// behind) for `validity`. Names that are not plain ASCII host names and addresses that are
    /// not IP literals are left out.
    public static func generate(commonName: String, dnsNames: [String], ipAddresses: [String], now: Date) throws(TLSError) -> TLSIdentity {
        let key = try PrivateKey.generateP256()
        let crt = try Certificate()
        let h = crt.handle
        try GnuTLS.check(gnutls_x509_crt_set_version(h, 3), "gnutls_x509_crt_set_version")
        var serial = [UInt8](repeating: 0, count: 16)
        try GnuTLS.check(gnutls_rnd(GNUTLS_RND_NONCE, &serial, serial.count), "gnutls_rnd")
        serial[0] = (serial[0] & 0x7F) | 0x01   // positive, and no leading zero byte
        try GnuTLS.check(gnutls_x509_crt_set_serial(h, serial, serial.count), "gnutls_x509_crt_set_serial")
        try GnuTLS.check(gnutls_x509_crt_set_activation_time(h, time_t(now.timeIntervalSince1970 - 86_400)),
                         "gnutls_x509_crt_set_activation_time")
        try GnuTLS.check(gnutls_x509_crt_set_expiration_time(h, time_t(now.timeIntervalSince1970 + validity)),
                         "gnutls_x509_crt_set_expiration_time")
        for (oid, value) in [("2.5.4.10", "Steppie"), ("2.5.4.3", commonName)] {
            let bytes = Array(value.utf8.prefix(64))
            try GnuTLS.check(gnutls_x509_crt_set_dn_by_oid(h, oid, 0, bytes, UInt32(bytes.count)), "gnutls_x509_crt_set_dn_by_oid")
        }
        try GnuTLS.check(gnutls_x509_crt_set_key(h, key.handle), "gnutls_x509_crt_set_key")
        for name in Self.uniqueHostNames(dnsNames) {
            let bytes = Array(name.utf8)
            try GnuTLS.check(gnutls_x509_crt_set_subject_alt_name(h, GNUTLS_SAN_DNSNAME, bytes, UInt32(bytes.count), UInt32(GNUTLS_FSAN_APPEND)),
                             "gnutls_x509_crt_set_subject_alt_name")
        }
        for address in Self.uniqueAddresses(ipAddresses) {
            try GnuTLS.check(gnutls_x509_crt_set_subject_alt_name(h, GNUTLS_SAN_IPADDRESS, address, UInt32(address.count), UInt32(GNUTLS_FSAN_APPEND)),
                             "gnutls_x509_crt_set_subject_alt_name")
        }
        // A server's certificate, not an authority (browsers refuse an authority used as a server).
        try GnuTLS.check(gnutls_x509_crt_set_basic_constraints(h, 0, -1), "gnutls_x509_crt_set_basic_constraints")
        try GnuTLS.check(gnutls_x509_crt_set_key_usage(h, UInt32(GNUTLS_KEY_DIGITAL_SIGNATURE)), "gnutls_x509_crt_set_key_usage")
        try GnuTLS.check(gnutls_x509_crt_set_key_purpose_oid(h, "1.3.6.1.5.5.7.3.1", 0), "gnutls_x509_crt_set_key_purpose_oid")
        let keyID = try crt.keyID()
        try GnuTLS.check(gnutls_x509_crt_set_subject_key_id(h, keyID, keyID.count), "gnutls_x509_crt_set_subject_key_id")
        try GnuTLS.check(gnutls_x509_crt_sign2(h, h, key.handle, GNUTLS_DIG_SHA256, 0), "gnutls_x509_crt_sign2")
        return TLSIdentity(certificatePEM: try crt.exportPEM(), privateKeyPEM: try key.exportPEM(),
                           fingerprint: formatFingerprint(try crt.sha256Fingerprint()), notBefore: crt.notBefore, notAfter: crt.notAfter)
    }

    /// Reads a certificate and its key from PEM; the key must be the certificate's.
    /// `certificatePath`/`keyPath` only name them in errors.
    public static func load(certificatePEM: String, privateKeyPEM: String, certificatePath: String, keyPath: String) throws(TLSError) -> TLSIdentity {
        let crt: Certificate, key: PrivateKey
        do { crt = try Certificate.importPEM(Array(certificatePEM.utf8)) } catch { throw .damaged(path: certificatePath) }
        do { key = try PrivateKey.importPEM(Array(privateKeyPEM.utf8)) } catch { throw .damaged(path: keyPath) }
        guard try crt.keyID() == key.keyID() else { throw .keyMismatch(certificate: certificatePath, key: keyPath) }
        return TLSIdentity(certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM,
                           fingerprint: formatFingerprint(try crt.sha256Fingerprint()), notBefore: crt.notBefore, notAfter: crt.notAfter)
    }

    /// ASCII host names (letters, digits, `-`, `.`), lowercased, each once.
    static func uniqueHostNames(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.map { $0.lowercased() }.filter { name in
            !name.isEmpty && name.count <= 253 && !name.hasPrefix(".") && !name.hasPrefix("-")
                && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
                && seen.insert(name).inserted
        }
    }

    /// IPv4 (4 bytes) and IPv6 (16 bytes) literals, each once; anything else left out.
    static func uniqueAddresses(_ addresses: [String]) -> [[UInt8]] {
        var seen: Set<[UInt8]> = []
        var out: [[UInt8]] = []
        for text in addresses {
            var v4 = in_addr(), v6 = in6_addr()
            let bytes: [UInt8]
            if inet_pton(AF_INET, text, &v4) == 1 {
                bytes = withUnsafeBytes(of: &v4) { Array($0) }
            } else if inet_pton(AF_INET6, text, &v6) == 1 {
                bytes = withUnsafeBytes(of: &v6) { Array($0) }
            } else { continue }
            if seen.insert(bytes).inserted { out.append(bytes) }
        }
        return out
    }
}
