import Foundation
import SteppieCore
import SteppieFeedback
import SteppieGuardianWeb
import SteppieLocalization
import SteppieSecurity
import SteppieService
import SteppieStore
import SteppieTestSupport
import Synchronization
import Testing

/// A guardian-pages test bench: a temporary database with one child (morning set active), a PIN
/// (`2468`) and a recovery code (`135790`), the pages on a manual secure clock, and the cues
/// that "play on the device" recorded.
final class GuardianWebFixture {
    let directory: String
    let db: String
    let photos: URL
    let store: Store
    let child: Child
    let secure: ManualSecureClock
    let wall: ManualWallClock
    let played = PlayRecorder()
    private(set) var web: GuardianWeb
    static let pin = "2468"
    static let recoveryCode = "135790"
    static let zone = TimeZone(identifier: "Asia/Seoul") ?? .current

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-gw-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        db = directory + "/steppie.db"
        photos = URL(fileURLWithPath: directory + "/assets")
        let start = Date(timeIntervalSince1970: 1_764_547_200)   // 2025-12-01 09:00 KST
        wall = ManualWallClock(start)
        secure = ManualSecureClock(wall: start)
        store = try Store(path: db, timeZone: Self.zone)
        child = try store.addChild(name: "Mina", at: start)
        _ = try store.createSet(childId: child.id, template: .morning, activate: true, at: start)
        let hasher = try PasswordHasher()
        try store.setGuardianSecrets(pinHash: try hasher.hash(Self.pin), recoveryCodeHash: try hasher.hash(Self.recoveryCode), at: secure.now())
        web = try GuardianWeb(config: Self.config(db: db, photos: photos, secure: secure, wall: wall, played: played))
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    static func config(db: String, photos: URL, secure: ManualSecureClock, wall: ManualWallClock,
                       played: PlayRecorder) throws -> GuardianWeb.Config {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let catalogs = try CatalogSet.load(directory: root.appendingPathComponent("Localization"))
        var config = GuardianWeb.Config(databasePath: db, timeZone: zone, localizer: Localizer(catalogs: catalogs, systemLocale: "en"),
                                  secureClock: secure, clock: wall, defaultLocale: "en", photosDirectory: photos,
                                  say: { text, locale in
                                      played.calls.withLock { $0.append("say \(locale) \(text)") }
                                      return nil
                                  }) { child, event, profile in
            played.calls.withLock { $0.append("\(child.lowercased) \(event) \(profile.intensity.rawValue)") }
            played.profiles.withLock { $0.append(profile) }
            return nil
        }
        config.decodeAudio = SoundFile.decodeRecording
        return config
    }

    /// The service restarts: new pages on the same database (sessions are gone, the backoff is not).
    func restart() throws {
        web = try GuardianWeb(config: Self.config(db: db, photos: photos, secure: secure, wall: wall, played: played))
    }

    /// `secure`: the request came over HTTPS from the home network (`--guardian-lan`).
    func get(_ path: String, cookie: String? = nil, query: [String: String] = [:], secure: Bool = false) -> WebResponse {
        web.handle(WebRequest(method: "GET", path: split(path), query: query, cookies: cookie.map { [GuardianWeb.cookieName: $0] } ?? [:],
                              secure: secure))
    }

    func post(_ path: String, cookie: String? = nil, form: [String: String], files: [String: UploadedFile] = [:],
              sameOrigin: Bool = true, json: Bool = false, secure: Bool = false) -> WebResponse {
        web.handle(WebRequest(method: "POST", path: split(path), cookies: cookie.map { [GuardianWeb.cookieName: $0] } ?? [:],
                              form: form, files: files, secure: secure, sameOrigin: sameOrigin, wantsJSON: json))
    }

    private func split(_ path: String) -> [String] { path.split(separator: "/").map(String.init) }

    /// Signs in with the PIN; the session cookie's value and the page's CSRF token.
    func signIn() throws -> (cookie: String, csrf: String) {
        let reply = post("/guardian/sign-in", form: ["pin": Self.pin])
        #expect(reply.status == 303)
        let header = try #require(reply.header("Set-Cookie"))
        let token = try #require(header.split(separator: ";").first?.split(separator: "=").last.map(String.init))
        let home = get("/guardian/", cookie: token)
        #expect(home.status == 200)
        return (token, try #require(Self.csrf(in: home.text)))
    }

    static func csrf(in html: String) -> String? {
        guard let range = html.range(of: "name=\"csrf\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix(64))
    }

    func dump() throws -> String { try Store(path: db, timeZone: Self.zone).dump() }

    func photoFiles() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: photos.path)) ?? [] }

    /// A PNG header that a photo check accepts (signature, IHDR with its CRC), padded.
    static func pngBytes() -> [UInt8] { TestImages.png() }
}

/// The cues the pages asked the device to play.
final class PlayRecorder: Sendable {
    let calls = Mutex<[String]>([])
    /// The profile each cue was asked to play with (the form's values, not yet saved).
    let profiles = Mutex<[FeedbackProfile]>([])
}
