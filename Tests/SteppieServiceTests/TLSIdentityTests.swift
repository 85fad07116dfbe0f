import Foundation
import SteppieFiles
import SteppieSecurity
import SteppieTLS
import SteppieTestSupport
import Testing

/// The guardian pages' certificate on the home network: made once with GnuTLS, kept owner-only
/// beside the database, reused with the same fingerprint, never silently replaced.
@Suite struct TLSIdentityTests {
    let folder: String
    let now = Date(timeIntervalSince1970: 1_764_547_200)   // 2025-12-01

    init() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-tls-\(UUID().uuidString.prefix(8))").path
    }

    func store() -> TLSIdentityStore { TLSIdentityStore(folder: folder + "/data/tls") }

    func make() throws -> (identity: TLSIdentity, created: Bool) {
        try store().loadOrCreate(commonName: "kiosk", dnsNames: ["kiosk", "kiosk.local", "bad name", "ÿ"],
                                 ipAddresses: ["192.168.1.20", "fd00::20", "not-an-address"], now: now)
    }

    static func mode(_ path: String) -> mode_t { OwnerOnly.permissions(of: path) ?? 0 }

    /// SHA-256 of the DER inside a PEM certificate, by libsodium: a check of GnuTLS's fingerprint.
    static func fingerprintOfPEM(_ pem: String) -> String? {
        let base64 = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let der = Data(base64Encoded: base64) else { return nil }
        var hash = SHA256()
        hash.update(der)
        return hash.finalize().map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    @Test func madeOnFirstUseOwnerOnlyAndReusedWithTheSameFingerprint() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let old = umask(0o022)
        defer { umask(old) }
        let (first, created) = try make()
        #expect(created)
        let s = store()
        #expect(Self.mode(s.folder) == 0o700)
        #expect(Self.mode(s.certificatePath) == 0o600)
        #expect(Self.mode(s.keyPath) == 0o600)
        #expect(first.fingerprint.wholeMatch(of: /([0-9A-F]{2}:){31}[0-9A-F]{2}/) != nil)
        #expect(Self.fingerprintOfPEM(first.certificatePEM) == first.fingerprint)
        #expect(first.certificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
        #expect(first.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(try String(contentsOfFile: s.certificatePath, encoding: .utf8) == first.certificatePEM)
        let years = first.notAfter.timeIntervalSince(now) / (365.25 * 86_400)
        #expect(years > 9.9 && years < 10.1)
        #expect(first.notBefore < now)

        let (again, createdAgain) = try make()
        #expect(!createdAgain)
        #expect(again == first)
        #expect(try s.load().fingerprint == first.fingerprint)
    }

    /// Read back by another implementation (OpenSSL): an ECDSA P-256 server certificate, not an
    /// authority, naming the host and the addresses (and nothing that was not a name or an address).
    @Test func theCertificateNamesTheHostAndItsAddresses() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try make()
        let out = folder + "/x509.txt"
        let p = try SpawnedProcess("/usr/bin/openssl", ["x509", "-in", store().certificatePath, "-noout", "-text"],
                                   environment: ProcessInfo.processInfo.environment, stdoutPath: out, stderrPath: "/dev/null")
        #expect(p.wait(timeout: 10) == 0)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        for expected in ["DNS:kiosk", "DNS:kiosk.local", "IP Address:192.168.1.20", "IP Address:FD00:0:0:0:0:0:0:20",
                         "CA:FALSE", "TLS Web Server Authentication", "ecdsa-with-SHA256", "prime256v1", "CN = kiosk"] {
            #expect(text.contains(expected), "\(expected) in \(text)")
        }
        #expect(!text.contains("bad name") && !text.contains("not-an-address"))
    }

    @Test func looserModesAreTightenedAndABrokenIdentityIsRefusedNotReplaced() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let s = store()
        let (first, _) = try make()
        chmod(s.folder, 0o755)
        chmod(s.keyPath, 0o644)
        #expect(try make().identity == first)
        #expect(Self.mode(s.folder) == 0o700 && Self.mode(s.keyPath) == 0o600)

        // Another identity's key beside this certificate.
        let other = try TLSIdentityStore(folder: folder + "/other").loadOrCreate(commonName: "x", dnsNames: [], ipAddresses: [], now: now)
        try other.identity.privateKeyPEM.write(toFile: s.keyPath, atomically: false, encoding: .utf8)
        #expect(throws: TLSError.keyMismatch(certificate: s.certificatePath, key: s.keyPath)) { try make() }
        #expect(try String(contentsOfFile: s.certificatePath, encoding: .utf8) == first.certificatePEM)

        // A damaged certificate is said, and left as it is.
        try first.privateKeyPEM.write(toFile: s.keyPath, atomically: false, encoding: .utf8)
        try "-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n".write(toFile: s.certificatePath, atomically: false, encoding: .utf8)
        #expect(throws: TLSError.damaged(path: s.certificatePath)) { try make() }
        #expect(try String(contentsOfFile: s.certificatePath, encoding: .utf8).contains("not base64"))

        // A key without its certificate (a first start cut between the two writes) is replaced.
        unlink(s.certificatePath)
        let (fresh, created) = try make()
        #expect(created && fresh.fingerprint != first.fingerprint)

        // Expired: said, not replaced.
        let later = now.addingTimeInterval(TLSIdentity.validity + 86_400)
        #expect(throws: TLSError.expired(path: s.certificatePath, notAfter: fresh.notAfter)) {
            try s.loadOrCreate(commonName: "kiosk", dnsNames: [], ipAddresses: [], now: later)
        }
    }
}
