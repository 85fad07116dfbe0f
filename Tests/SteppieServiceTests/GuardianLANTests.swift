import Foundation
import SteppieCore
import SteppieSecurity
import SteppieService
import SteppieTLS
import SteppieTestSupport
import Testing

/// `steppie serve --guardian-lan`: the guardian pages on the home network over HTTPS only, with a
/// certificate made on first use and kept, whose fingerprint the log and `service status` show;
/// nothing of the child's page there. The "home network" here is 127.0.0.1 on a free port.
@Suite(.serialized) struct GuardianLANTests {
    static let pin = "2468"

    /// A database with one child and a PIN.
    static func fixture() throws -> ServiceFixture {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        let hasher = try PasswordHasher()
        try f.store().setGuardianSecrets(pinHash: try hasher.hash(pin), recoveryCodeHash: try hasher.hash("135790"),
                                         at: SecureInstant(wall: Date(), boot: nil))
        return f
    }

    /// The last home-network address and fingerprint the log names.
    static func lanLine(_ f: ServiceFixture, after offset: Int = 0) throws -> (port: UInt16, url: String, fingerprint: String) {
        _ = waitUntil(timeout: 10) { f.logText.dropFirst(offset).contains("https://") }
        let line = try #require(f.logText.dropFirst(offset).split(separator: "\n").last { $0.contains("https://") }.map(String.init))
        let url = try #require(line.firstMatch(of: /https:\/\/[0-9.]+:[0-9]+\/guardian\//).map { String($0.output) })
        let port = try #require(UInt16(url.split(separator: ":")[2].split(separator: "/")[0]))
        let fingerprint = try #require(line.firstMatch(of: /([0-9A-F]{2}:){31}[0-9A-F]{2}/).map { String($0.output.0) })
        return (port, url, fingerprint)
    }

    static func fingerprint(of der: [UInt8]) -> String {
        var hash = SHA256()
        hash.update(der)
        return TLSIdentity.formatFingerprint(hash.finalize())
    }

    @Test func httpsOnlyWithTheStoredCertificateWhoseFingerprintIsShownAndKept() throws {
        let f = try Self.fixture()
        try f.start(["--output", "null", "--http", "none", "--guardian-lan", "127.0.0.1:0"])
        let (port, url, shown) = try Self.lanLine(f)
        #expect(url == "https://127.0.0.1:\(port)/guardian/")
        #expect(f.logText.contains("made a new certificate"), "\(f.logText)")

        // Plain HTTP on the same address gets no page: the daemon speaks only TLS.
        let plain = KioskHTTPTests.raw(port, "GET /guardian/ HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        #expect(plain != nil)
        #expect(!String(decoding: plain ?? [], as: UTF8.self).contains("HTTP/1."))
        #expect(!String(decoding: plain ?? [], as: UTF8.self).contains("<html"))

        // HTTPS answers with the certificate stored beside the database.
        let page = try #require(TLSProbe.get(port, "/guardian/"))
        #expect(page.response?.status == 200)
        #expect(page.response?.body.contains("data-screen=\"sign-in\"") == true)
        let served = Self.fingerprint(of: page.certificate)
        #expect(served == shown)
        let stored = try TLSIdentityStore(databasePath: f.db).load()
        #expect(stored.fingerprint == served)

        // `service status` shows the same, in text and in JSON.
        let text = f.run(["service", "status"])
        #expect(text.status == 0 && text.out.contains(shown) && text.out.contains(url), "\(text.out)")
        let json = f.run(["service", "status", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
        let lan = object?["guardianLAN"] as? [String: Any]
        #expect(lan?["fingerprint"] as? String == shown)
        #expect(lan?["url"] as? String == url)

        // Owner-only: the folder 0700, both files 0600.
        let tls = f.directory + "/tls"
        #expect(f.mode(tls) == 0o700)
        #expect(f.mode(tls + "/guardian-cert.pem") == 0o600)
        #expect(f.mode(tls + "/guardian-key.pem") == 0o600)

        // A restart reuses it: the same fingerprint, served and shown, and no new certificate.
        f.process?.stop(SIGTERM)
        #expect(f.process?.exitStatus == 0)
        let before = f.logText
        try f.start(["--output", "null", "--http", "none", "--guardian-lan", "127.0.0.1:0"])
        let again = try Self.lanLine(f, after: before.count)
        #expect(again.fingerprint == shown)
        #expect(!f.logText.dropFirst(before.count).contains("made a new certificate"))
        let second = try #require(TLSProbe.get(again.port, "/guardian/"))
        #expect(Self.fingerprint(of: second.certificate) == shown)
    }

    @Test func neverTheChildsPageOrActionsAndTheSessionCookieIsSecure() throws {
        let f = try Self.fixture()
        try f.start(["--output", "null", "--http", "127.0.0.1:0", "--guardian-lan", "127.0.0.1:0"])
        let (port, _, _) = try Self.lanLine(f)
        let child = try #require(try f.store().children().first?.id.lowercased)
        let origin = "https://127.0.0.1:\(port)"

        // The child's page, its screen, its stream, its actions, the child list and photos: not found.
        for path in ["/child/\(child)", "/api/child/\(child)/state", "/api/child/\(child)/events", "/api/children",
                     "/static/child.js", "/static/index.js", "/index.html", "/photos/routine-photo-\(child).png"] {
            #expect(TLSProbe.get(port, path)?.response?.status == 404, "\(path)")
        }
        for action in ["done", "undo", "next"] {
            let press = TLSProbe.post(port, "/api/child/\(child)/\(action)", form: "{}", origin: origin, type: "application/json")
            #expect(press?.response?.status == 404, "\(action)")
        }
        let status = try f.client().request(ServiceRequest(.status), timeout: 5).status
        #expect(status?.children.first?.completed == 0)
        // `/` leads to the guardian pages, not to the child's page.
        let root = TLSProbe.get(port, "/")?.response
        #expect(root?.status == 302 && root?.headers["location"] == "/guardian/")
        // What the guardian pages load is there.
        #expect(TLSProbe.get(port, "/static/guardian.css")?.response?.status == 200)
        #expect(TLSProbe.get(port, "/static/guardian.js")?.response?.status == 200)
        #expect(TLSProbe.get(port, "/icons/star.svg")?.response?.status == 200)
        // Another name in Host (DNS rebinding) is refused.
        #expect(TLSProbe.get(port, "/guardian/", host: "steppie.attacker.example:\(port)")?.response?.status == 421)

        // Sign-in: only from the page's own https origin; the cookie is Secure.
        #expect(TLSProbe.post(port, "/guardian/sign-in", form: "pin=\(Self.pin)&lang=en", origin: nil)?.response?.status == 403)
        #expect(TLSProbe.post(port, "/guardian/sign-in", form: "pin=\(Self.pin)&lang=en",
                              origin: "http://127.0.0.1:\(port)")?.response?.status == 403)
        let signIn = try #require(TLSProbe.post(port, "/guardian/sign-in", form: "pin=\(Self.pin)&lang=en", origin: origin)?.response)
        #expect(signIn.status == 303)
        let cookie = try #require(signIn.headers["set-cookie"])
        #expect(cookie.contains("; Secure") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "\(cookie)")
        let token = try #require(cookie.split(separator: ";").first.map(String.init))
        let home = TLSProbe.get(port, "/guardian/", cookie: token)?.response
        #expect(home?.status == 200 && home?.body.contains("data-screen=\"home\"") == true)

        // The kiosk's loopback server is as it was: plain HTTP, the child's page, no Secure cookie.
        _ = waitUntil(timeout: 5) { f.logText.contains("/child/") }
        let kioskLine = try #require(f.logText.split(separator: "\n").first { $0.contains("http://") && $0.contains("/child/") })
        let kioskPort = try #require(UInt16(kioskLine.split(separator: ":").last.map { $0.split(separator: "/")[0] } ?? ""))
        #expect(KioskHTTPTests.get(kioskPort, "/child/\(child)")?.status == 200)
        #expect(KioskHTTPTests.get(port, "/child/\(child)") == nil)
        // A session from the network is not one on the kiosk (its own sessions).
        let kioskHome = KioskHTTPTests.request(kioskPort, "GET /guardian/ HTTP/1.1\r\nHost: 127.0.0.1:\(kioskPort)\r\nCookie: \(token)\r\nConnection: close\r\n\r\n")
        #expect(kioskHome?.body.contains("data-screen=\"sign-in\"") == true)
    }

    @Test func theAddressIsCheckedBeforeAnythingRuns() throws {
        let f = try Self.fixture()
        for bad in ["localhost", "kiosk.local:8471", "127.0.0.1:99999", "1.2.3:80", "[::1"] {
            let r = f.run(["serve", "--output", "null", "--http", "none", "--guardian-lan", bad])
            #expect(r.status == 64, "\(bad): \(r.err)")
            #expect(r.err.contains("--guardian-lan"), "\(r.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: f.directory + "/tls"))
    }
}
