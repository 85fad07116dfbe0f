import Foundation
import Testing
import SteppieCore
import SteppieStore
import SteppieSecurity
@testable import SteppieGuardianWeb

/// The first run on the touch screen (#26 item 3), through the pages themselves on an empty
/// database: language, PIN twice, the recovery code once, the first child with a template, the
/// intensity with ▶, the child's screen; never on the home network, gone once a PIN exists.
@Suite struct GuardianSetupTests {
    final class Empty {
        let directory: String
        let db: String
        let store: Store
        let played = PlayRecorder()
        let secure: ManualSecureClock
        let wall: ManualWallClock
        let web: GuardianWeb

        init(lan: Bool = false) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-setup-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            db = directory + "/steppie.db"
            let start = Date(timeIntervalSince1970: 1_764_547_200)
            wall = ManualWallClock(start)
            secure = ManualSecureClock(wall: start)
            store = try Store(path: db, timeZone: GuardianWebFixture.zone)
            var config = try GuardianWebFixture.config(db: db, photos: URL(fileURLWithPath: directory + "/assets"), secure: secure,
                                                       wall: wall, played: played)
            config.secureCookies = lan
            web = try GuardianWeb(config: config)
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        func get(_ path: String, cookie: String? = nil, query: [String: String] = [:], secure: Bool = false) -> WebResponse {
            web.handle(WebRequest(method: "GET", path: path.split(separator: "/").map(String.init), query: query,
                                  cookies: cookie.map { [GuardianWeb.cookieName: $0] } ?? [:], secure: secure))
        }

        func post(_ path: String, cookie: String? = nil, form: [String: String], secure: Bool = false) -> WebResponse {
            web.handle(WebRequest(method: "POST", path: path.split(separator: "/").map(String.init),
                                  cookies: cookie.map { [GuardianWeb.cookieName: $0] } ?? [:], form: form, secure: secure, sameOrigin: true))
        }
    }

    static func token(_ reply: WebResponse) throws -> String {
        let header = try #require(reply.header("Set-Cookie"))
        return try #require(header.split(separator: ";").first?.split(separator: "=").last.map(String.init))
    }

    @Test(arguments: ["ko", "en"])
    func fromAnEmptyDeviceToTheChildsScreen(locale: String) throws {
        let f = try Empty()
        #expect(f.get("/guardian/setup/available").text == "{\"available\":true}")
        // The pages start the first run instead of saying "set a PIN in a terminal".
        let start = f.get("/guardian/")
        #expect(start.status == 303 && start.header("Location")?.hasPrefix("/guardian/setup") == true)
        let language = f.get("/guardian/setup")
        #expect(language.text.contains("data-screen=\"setup-language\"") && language.text.contains("href=\"/guardian/setup/pin?lang=ko\""))
        let pinPage = f.get("/guardian/setup/pin", query: ["lang": locale])
        #expect(pinPage.text.contains("data-screen=\"setup-pin\"") && pinPage.text.contains("lang=\"\(locale)\""))
        // Two different PINs, then a malformed one: refused, nothing stored.
        let before = try f.store.dump()
        let mismatch = f.post("/guardian/setup/pin", form: ["lang": locale, "pin": "2468", "pin2": "2469"])
        #expect(mismatch.status == 400 && mismatch.text.contains("data-error-field=\"pin2\""))
        #expect(f.post("/guardian/setup/pin", form: ["lang": locale, "pin": "24a8", "pin2": "24a8"]).status == 400)
        #expect(try f.store.dump() == before)
        // The PIN: stored as a hash, the device's language chosen, a session opened.
        let set = f.post("/guardian/setup/pin", form: ["lang": locale, "pin": "2468", "pin2": "2468"])
        #expect(set.status == 303 && set.header("Location") == "/guardian/setup/code")
        let cookie = try Self.token(set)
        let state = try f.store.guardianState()
        #expect(state.hasPin && state.hasRecoveryCode)
        #expect(try f.store.deviceSettings()?.locale == locale)
        #expect(try PasswordHasher().verify("2468", against: try #require(try f.store.deviceSettings()?.guardianPinHash)))
        // Gone once a PIN exists: the steps before it send to the PIN pad.
        #expect(f.get("/guardian/setup/available").text == "{\"available\":false}")
        #expect(f.get("/guardian/setup/pin").header("Location") == "/guardian/")
        #expect(f.post("/guardian/setup/pin", form: ["pin": "1111", "pin2": "1111"]).header("Location") == "/guardian/")
        // The recovery code, shown once and accepted by the store.
        let codePage = f.get("/guardian/setup/code", cookie: cookie)
        let code = try #require(codePage.text.range(of: "data-recovery-code=\"").map { String(codePage.text[$0.upperBound...].prefix(6)) })
        #expect(code.allSatisfy(\.isNumber) && code.count == 6)
        #expect(try PasswordHasher().verify(code, against: try #require(try f.store.deviceSettings()?.recoveryCodeHash)))
        let csrf = try #require(GuardianWebFixture.csrf(in: codePage.text))
        #expect(f.post("/guardian/setup/code", cookie: cookie, form: ["csrf": csrf]).status == 400)   // not ticked
        #expect(f.post("/guardian/setup/code", cookie: cookie, form: ["csrf": csrf, "written": "on"]).header("Location") == "/guardian/setup/child")
        #expect(f.get("/guardian/setup/code", cookie: cookie).header("Location") == "/guardian/setup/child")   // not again
        // The first child with a template, its pictures offered.
        let childPage = f.get("/guardian/setup/child", cookie: cookie)
        #expect(childPage.text.contains("src=\"/icons/toothbrush.svg\"") && childPage.text.contains("value=\"bedtime\""))
        let added = f.post("/guardian/setup/child", cookie: cookie, form: ["csrf": csrf, "name": "Mina", "template": "bedtime"])
        #expect(added.status == 303, "\(added.text)")
        let child = try #require(try f.store.children().first)
        #expect(child.displayName == "Mina" && child.profile.locale == locale)
        let set1 = try #require(try f.store.activeSet(childId: child.id))
        #expect(try f.store.routines(setId: set1.id).filter(\.isVisible).count == Template.bedtime.items.count)
        #expect(added.header("Location") == "/guardian/setup/feedback/\(child.id.lowercased)")
        // The intensity, heard with ▶, then the child's screen; the session ends on the way.
        let feedback = f.get("/guardian/setup/feedback/\(child.id.lowercased)", cookie: cookie)
        #expect(feedback.text.contains("data-play=\"completed\" data-intensity=\"quiet\"") && !feedback.text.contains("data-intensity=\"off\""))
        let done = f.post("/guardian/setup/feedback/\(child.id.lowercased)", cookie: cookie, form: ["csrf": csrf, "intensity": "quiet"])
        #expect(done.status == 303 && done.header("Location") == "/child/\(child.id.lowercased)")
        #expect(try f.store.child(id: child.id).profile.intensity == .quiet)
        #expect(f.get("/guardian/", cookie: cookie).text.contains("data-screen=\"sign-in\""))
    }

    /// Never over the home network: every step is "not found" there, even on an empty device.
    @Test func notOfferedOverTheHomeNetwork() throws {
        let f = try Empty(lan: true)
        for path in ["/guardian/setup", "/guardian/setup/pin", "/guardian/setup/available"] {
            #expect(f.get(path, secure: true).status == 404, "\(path)")
        }
        let before = try f.store.dump()
        #expect(f.post("/guardian/setup/pin", form: ["pin": "2468", "pin2": "2468"], secure: true).status == 404)
        #expect(try f.store.dump() == before)
        #expect(try !f.store.guardianState().hasPin)
    }

    /// A device that already has a child (set up on the command line) but no PIN gets no first run:
    /// the pages keep saying where the PIN is set.
    @Test func notOfferedOnceAChildExists() throws {
        let f = try Empty()
        _ = try f.store.addChild(name: "Mina", at: f.wall.now())
        #expect(f.get("/guardian/setup/available").text == "{\"available\":false}")
        #expect(f.get("/guardian/").text.contains("data-screen=\"no-pin\""))
        #expect(f.post("/guardian/setup/pin", form: ["pin": "2468", "pin2": "2468"]).header("Location") == "/guardian/")
        #expect(try !f.store.guardianState().hasPin)
    }
}
