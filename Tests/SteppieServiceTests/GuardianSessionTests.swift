import Foundation
import SteppieCore
import SteppieGuardianWeb
import SteppieSecurity
import SteppieService
import SteppieStore
import Testing

/// Issue 24, classes 1 and 4, on the pages themselves (a manual secure clock, no real time): the
/// child never finds the guardian pages open, a session ends with its PIN and after 30 minutes
/// however busy, and guesses from the home network never lock the device's own guardian out.
@Suite struct GuardianSessionTests {
    static func signedIn(_ f: GuardianWebFixture, _ cookie: String, secure: Bool = false) -> Bool {
        let page = f.get("/guardian/", cookie: cookie, secure: secure)
        return page.status == 200 && page.text.contains("data-screen=\"home\"")
    }

    static func clearsCookie(_ r: WebResponse) -> Bool {
        r.header("Set-Cookie").map { $0.hasPrefix(GuardianWeb.cookieName + "=;") && $0.contains("Max-Age=0") } ?? false
    }

    @Test func leavingForTheChildsScreenEndsTheSessionOnThatBrowser() throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        // The pages offer the child's screen as a form that signs out, not as a link.
        let home = f.get("/guardian/", cookie: cookie)
        #expect(home.text.contains("action=\"/guardian/child-screen\"") && home.text.contains("data-nav=\"child-screen\""))
        #expect(!home.text.contains("<a href=\"/\""))
        // Without the CSRF token it is refused and the session stays.
        #expect(f.post("/guardian/child-screen", cookie: cookie, form: [:]).status == 403)
        #expect(Self.signedIn(f, cookie))
        let leave = f.post("/guardian/child-screen", cookie: cookie, form: ["csrf": csrf])
        #expect(leave.status == 303 && leave.header("Location") == "/")
        #expect(Self.clearsCookie(leave))
        #expect(!Self.signedIn(f, cookie))
        #expect(f.web.sessionCount == 0)
    }

    @Test func theChildsHoldAlwaysStartsAtThePinPad() throws {
        let f = try GuardianWebFixture()
        let (cookie, _) = try f.signIn()
        // The guardian went back to the child's screen without signing out (the back button):
        // the hold's gate ends the session, and the pages ask for the PIN.
        let gate = f.get("/guardian/gate", cookie: cookie, query: ["lang": "ko"])
        #expect(gate.status == 303 && gate.header("Location") == "/guardian/?lang=ko")
        #expect(Self.clearsCookie(gate))
        #expect(!Self.signedIn(f, cookie))
        let pad = f.get("/guardian/", cookie: cookie, query: ["lang": "ko"])
        #expect(pad.status == 200 && pad.text.contains("data-screen=\"sign-in\"") && pad.text.contains("lang=\"ko\""))
        // A gate without a session or with a made-up language is the PIN pad too.
        #expect(f.get("/guardian/gate", query: ["lang": "xx"]).header("Location") == "/guardian/")
    }

    @Test func aPinChangedElsewhereEndsEverySession() throws {
        let f = try GuardianWebFixture()
        let (first, _) = try f.signIn()
        let (second, _) = try f.signIn()
        #expect(Self.signedIn(f, first) && Self.signedIn(f, second))
        // `steppie guardian set-pin` in another process: another connection changes the PIN.
        let other = try Store(path: f.db, timeZone: GuardianWebFixture.zone)
        let hasher = try PasswordHasher()
        try other.setGuardianSecrets(pinHash: try hasher.hash("9753"), recoveryCodeHash: nil, at: f.secure.now())
        #expect(!Self.signedIn(f, first))
        #expect(!Self.signedIn(f, second))
        // The old PIN no longer opens the pages; the new one does.
        #expect(f.post("/guardian/sign-in", form: ["pin": GuardianWebFixture.pin]).status == 401)
        #expect(f.post("/guardian/sign-in", form: ["pin": "9753"]).status == 303)
    }

    @Test func aSessionEndsThirtyMinutesAfterItsSignInHoweverBusy() throws {
        let f = try GuardianWebFixture()
        let (cookie, _) = try f.signIn()
        // A page polling every two minutes keeps the 3-minute idle end away...
        for _ in 0..<14 {
            f.secure.advance(by: 120)
            #expect(Self.signedIn(f, cookie))
        }
        // ...but not the absolute end, 30 minutes after the sign-in (28 min passed so far).
        f.secure.advance(by: 119)
        #expect(Self.signedIn(f, cookie))
        f.secure.advance(by: 2)
        #expect(!Self.signedIn(f, cookie))
        // Idle for 3 minutes ends a fresh one as before.
        let (fresh, _) = try f.signIn()
        f.secure.advance(by: 181)
        #expect(!Self.signedIn(f, fresh))
    }

    @Test func wrongPinsFromTheNetworkNeverLockTheDevicesGuardianOut() throws {
        let f = try GuardianWebFixture()
        // A stranger on the home network: five wrong PINs lock the network's pad...
        for n in 1...5 {
            let r = f.post("/guardian/sign-in", form: ["pin": "000\(n)"], secure: true)
            #expect(r.status == 401)
        }
        let locked = f.post("/guardian/sign-in", form: ["pin": GuardianWebFixture.pin], secure: true)
        #expect(locked.status == 429)
        #expect(f.get("/guardian/", secure: true).text.contains("data-locked-seconds"))
        // ...and nothing of the device's: its pad shows no lock and the PIN opens it at once.
        #expect(!f.get("/guardian/").text.contains("data-locked-seconds"))
        let state = try f.store.guardianState()
        #expect(state.failedAttempts == 0 && state.lockRemaining(at: f.secure.now()) <= 0)
        #expect(state.networkFailedAttempts == 5 && state.lockRemaining(at: f.secure.now(), origin: .network) > 0)
        let (cookie, _) = try f.signIn()
        #expect(Self.signedIn(f, cookie))
        // The command line's backoff is the device's too: a PIN there is still checked.
        let hasher = try PasswordHasher()
        #expect(try f.store.attemptUnlock(at: f.secure.now(), startsSession: false) { hasher.verify(GuardianWebFixture.pin, against: $0) }
                == .accepted(sessionSeconds: GuardianSession.idleTimeout))
        // The recovery code from the network is held to the network's lock (not checked at all).
        let recover = f.post("/guardian/recover", form: ["code": GuardianWebFixture.recoveryCode, "newPin": "1357", "newPin2": "1357"], secure: true)
        #expect(recover.status == 429)
        #expect(f.post("/guardian/sign-in", form: ["pin": GuardianWebFixture.pin]).status == 303)
        // A guardian at the device after one wrong PIN of their own: the network's count stays its own.
        #expect(f.post("/guardian/sign-in", form: ["pin": "0000"]).status == 401)
        #expect(try f.store.guardianState().failedAttempts == 1)
        #expect(try f.store.guardianState().networkFailedAttempts == 5)
        // Once the network's lock ends, the right PIN from the network is accepted and resets it.
        f.secure.advance(by: 31)
        #expect(f.post("/guardian/sign-in", form: ["pin": GuardianWebFixture.pin], secure: true).status == 303)
        #expect(try f.store.guardianState().networkFailedAttempts == 0)
    }
}
