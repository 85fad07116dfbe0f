import Foundation
import SteppieTestSupport
import Testing

/// The home network's HTTPS offers AEAD suites only (AES-GCM, ChaCha20-Poly1305) on TLS 1.2 and
/// 1.3 (issue 24, class 10): a client asking for a CBC or SHA-1 suite, or for TLS 1.1, gets no
/// handshake. Asked of a real `steppie serve --guardian-lan` with OpenSSL's own client, so the
/// answer does not depend on our GnuTLS code on both ends.
@Suite(.serialized) struct TLSSuiteTests {
    /// `openssl s_client` on 127.0.0.1:`port` with `args`: the cipher it settled on, or nil when
    /// the handshake failed.
    static func handshake(_ port: UInt16, _ args: [String], in directory: String) -> String? {
        let out = directory + "/openssl-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: out) }
        // SECLEVEL=0 on the client's side: what is refused must be refused by the server.
        let all = ["s_client", "-connect", "127.0.0.1:\(port)", "-servername", "localhost", "-brief"] + args
        guard let p = try? SpawnedProcess("/usr/bin/openssl", all, stdoutPath: out, stderrPath: out) else { return nil }
        let status = p.wait(timeout: 20)
        let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        guard status == 0 else { return nil }
        let line = text.split(separator: "\n").first { $0.contains("Ciphersuite:") }
        return line.map { String($0.split(separator: ":").last ?? "").trimmingCharacters(in: .whitespaces) }
    }

    @Test func onlyAEADSuitesOnTLS12And13() throws {
        let f = try GuardianLANTests.fixture()
        try f.start(["--output", "null", "--http", "none", "--guardian-lan", "127.0.0.1:0"])
        let (port, _, _) = try GuardianLANTests.lanLine(f)
        #expect(TLSProbe.get(port, "/guardian/")?.response?.status == 200)

        let refused: [[String]] = [
            ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-SHA:@SECLEVEL=0"],        // CBC, SHA-1
            ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-SHA:@SECLEVEL=0"],        // CBC, SHA-1
            ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-SHA256:@SECLEVEL=0"],     // CBC, SHA-256
            ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-SHA384:@SECLEVEL=0"],     // CBC, SHA-384
            ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-CCM:@SECLEVEL=0"],        // AEAD, but not one we offer
            ["-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0"],
            ["-tls1", "-cipher", "DEFAULT:@SECLEVEL=0"],
        ]
        for args in refused {
            let cipher = Self.handshake(port, args, in: f.directory)
            #expect(cipher == nil, "\(args) was accepted with \(cipher ?? "")")
        }
        let accepted: [([String], String)] = [
            (["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256"], "ECDHE-ECDSA-AES128-GCM-SHA256"),
            (["-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-GCM-SHA384"], "ECDHE-ECDSA-AES256-GCM-SHA384"),
            (["-tls1_2", "-cipher", "ECDHE-ECDSA-CHACHA20-POLY1305"], "ECDHE-ECDSA-CHACHA20-POLY1305"),
            (["-tls1_3", "-ciphersuites", "TLS_AES_128_GCM_SHA256"], "TLS_AES_128_GCM_SHA256"),
            (["-tls1_3", "-ciphersuites", "TLS_CHACHA20_POLY1305_SHA256"], "TLS_CHACHA20_POLY1305_SHA256"),
        ]
        for (args, expected) in accepted {
            #expect(Self.handshake(port, args, in: f.directory) == expected, "\(args)")
        }
        // The server chooses the suite, whatever the client's order: AES-GCM where this processor
        // has AES instructions (as read from the kernel, not from our code), ChaCha20 where it has none.
        let flags = ((try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? "")
            .split(separator: "\n").first { $0.hasPrefix("flags") || $0.hasPrefix("Features") }
            .map { Set($0.split(separator: " ").map(String.init)) } ?? []
        let hasAES = flags.contains("aes") && (flags.contains("pclmulqdq") || flags.contains("pmull"))
        let chachaFirst = ["-tls1_3", "-ciphersuites", "TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256"]
        let aesFirst = ["-tls1_3", "-ciphersuites", "TLS_AES_128_GCM_SHA256:TLS_CHACHA20_POLY1305_SHA256"]
        let cheaper = hasAES ? "TLS_AES_128_GCM_SHA256" : "TLS_CHACHA20_POLY1305_SHA256"
        #expect(Self.handshake(port, chachaFirst, in: f.directory) == cheaper, "flags: aes \(hasAES)")
        #expect(Self.handshake(port, aesFirst, in: f.directory) == cheaper, "flags: aes \(hasAES)")
        // A client that lets the server choose gets TLS 1.3, or on 1.2 an AEAD suite.
        #expect(Self.handshake(port, ["-tls1_2"], in: f.directory)?.contains("GCM") == true
                || Self.handshake(port, ["-tls1_2"], in: f.directory)?.contains("CHACHA20") == true)
    }
}
