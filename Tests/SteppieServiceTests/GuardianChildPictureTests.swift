import Foundation
import SteppieCore
import SteppieGuardianWeb
import SteppieService
import SteppieStore
import Testing

/// A child's picture on the kiosk's picker and the "siblings may switch" device setting, set on
/// the guardian pages (#26 item 4): the routines' photo rule, refusals leaving the database as it
/// was, a replaced photo removed, the setting off until a guardian turns it on.
@Suite("Guardian pages: child pictures and the sibling switch")
struct GuardianChildPictureTests {
    @Test("the home page shows each child's picture; a builtin icon is chosen, then a photo, then the default again")
    func pictureFromIconToPhotoToDefault() throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        let id = f.child.id.lowercased
        // Before a guardian chooses: the first default (siblings differ), said to be Steppie's.
        let home = f.get("/guardian/", cookie: cookie)
        #expect(home.text.contains("data-picture=\"default\"") && home.text.contains("/icons/cat.svg"))
        #expect(home.text.contains("href=\"/guardian/child/\(id)/picture\""))
        let page = f.get("/guardian/child/\(id)/picture", cookie: cookie)
        #expect(page.status == 200 && page.text.contains("data-screen=\"picture\"") && page.text.contains("data-form=\"picture\""))
        #expect(page.text.contains("value=\"cat\" checked"))
        // Saving the page as it is keeps the default (it still follows the siblings).
        #expect(f.post("/guardian/child/\(id)/picture", cookie: cookie, form: ["icon": "cat", "csrf": csrf]).status == 303)
        #expect(try f.store.child(id: f.child.id).picture == nil)

        #expect(f.post("/guardian/child/\(id)/picture", cookie: cookie, form: ["icon": "bicycle", "csrf": csrf]).status == 303)
        #expect(try f.store.child(id: f.child.id).picture == .builtin(name: "bicycle"))
        #expect(f.get("/guardian/", cookie: cookie).text.contains("data-picture=\"chosen\""))

        let png = UploadedFile(filename: "mina.png", contentType: "image/png", bytes: GuardianWebFixture.pngBytes())
        #expect(f.post("/guardian/child/\(id)/picture", cookie: cookie, form: ["icon": "bicycle", "csrf": csrf], files: ["photo": png]).status == 303)
        guard case .photo(_, let asset)? = try f.store.child(id: f.child.id).picture else { Issue.record("no photo"); return }
        #expect(f.photoFiles() == [asset])
        var st = stat()
        #expect(stat(f.photos.path + "/" + asset, &st) == 0 && st.st_mode & 0o777 == 0o600)
        #expect(f.get("/guardian/", cookie: cookie).text.contains("/guardian/photos/\(asset)"))

        // Back to the default: the photo is no longer shown, so its file goes (it would travel in backups).
        #expect(f.post("/guardian/child/\(id)/picture", cookie: cookie, form: ["useDefault": "on", "csrf": csrf]).status == 303)
        #expect(try f.store.child(id: f.child.id).picture == nil)
        #expect(f.photoFiles().isEmpty)
    }

    @Test("a refused picture changes nothing: not a photo, an unknown icon, no CSRF token")
    func refusedPictures() throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        let id = f.child.id.lowercased
        let before = try f.dump()
        let fake = UploadedFile(filename: "photo.png", contentType: "image/png", bytes: Array("<svg onload=alert(1)>".utf8))
        let notPhoto = f.post("/guardian/child/\(id)/picture", cookie: cookie, form: ["csrf": csrf], files: ["photo": fake])
        #expect(notPhoto.status == 400 && notPhoto.text.contains("data-error-field=\"photo\""))
        let unknown = f.post("/guardian/child/\(id)/picture", cookie: cookie, form: ["icon": "../../steppie.db", "csrf": csrf])
        #expect(unknown.status == 400 && unknown.text.contains("data-error-field=\"icon\""))
        #expect(f.post("/guardian/child/\(id)/picture", cookie: cookie, form: ["icon": "dog"]).status == 403)
        #expect(f.post("/guardian/child/\(id)/picture", form: ["icon": "dog", "csrf": csrf]).status == 401)
        #expect(try f.dump() == before && f.photoFiles().isEmpty)
    }

    @Test("siblings may switch: off by default, turned on and off on the home page, never without the session")
    func siblingSwitchSetting() throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        #expect(try f.store.siblingsMaySwitch() == false)
        let home = f.get("/guardian/", cookie: cookie)
        #expect(home.text.contains("data-form=\"kiosk\"") && home.text.contains("id=\"siblingSwitch\""))
        #expect(!home.text.contains("id=\"siblingSwitch\" name=\"siblingSwitch\" value=\"on\" aria-describedby=\"siblingSwitch-hint\" checked"))

        #expect(f.post("/guardian/kiosk", cookie: cookie, form: ["siblingSwitch": "on"]).status == 403)   // no CSRF token
        #expect(f.post("/guardian/kiosk", form: ["siblingSwitch": "on", "csrf": csrf]).status == 401)      // no session
        #expect(try f.store.siblingsMaySwitch() == false)
        let bad = f.post("/guardian/kiosk", cookie: cookie, form: ["siblingSwitch": "yes please", "csrf": csrf])
        #expect(bad.status == 400 && bad.text.contains("data-error-field=\"siblingSwitch\""))
        #expect(try f.store.siblingsMaySwitch() == false)

        #expect(f.post("/guardian/kiosk", cookie: cookie, form: ["siblingSwitch": "on", "csrf": csrf]).status == 303)
        #expect(try f.store.siblingsMaySwitch() == true)
        #expect(f.get("/guardian/", cookie: cookie).text.contains("aria-describedby=\"siblingSwitch-hint\" checked"))
        // An unchecked box is not sent: the setting goes off.
        #expect(f.post("/guardian/kiosk", cookie: cookie, form: ["csrf": csrf]).status == 303)
        #expect(try f.store.siblingsMaySwitch() == false)
    }

    @Test("both pages speak Korean and English from the catalogs")
    func words() throws {
        let f = try GuardianWebFixture()
        let (cookie, _) = try f.signIn()
        let id = f.child.id.lowercased
        for (lang, title, setting) in [("en", "Mina&#39;s picture", "Brothers and sisters may switch"), ("ko", "Mina의 그림", "형제자매가 아이 화면에서")] {
            #expect(f.get("/guardian/child/\(id)/picture", cookie: cookie, query: ["lang": lang]).text.contains(title))
            #expect(f.get("/guardian/", cookie: cookie, query: ["lang": lang]).text.contains(setting))
        }
    }
}
