import Foundation
import SteppieCore
import SteppieGuardianWeb
import SteppieService
import SteppieStore
import Testing

/// The guardian pages as a browser meets them, without a browser: sign-in, the backoff, the
/// session's 3 minutes on the secure clock, CSRF, and every refused form leaving the database
/// exactly as it was (dump compared).
@Suite("Guardian pages")
struct GuardianWebTests {
    @Test("sign-in sets an HttpOnly, SameSite=Strict session cookie and does not open the command line's guardian mode")
    func signIn() throws {
        let f = try GuardianWebFixture()
        let page = f.get("/guardian/")
        #expect(page.status == 200)
        #expect(page.text.contains("data-screen=\"sign-in\"") && page.text.contains("data-form=\"sign-in\"") && page.text.contains("name=\"pin\""))
        let reply = f.post("/guardian/sign-in", form: ["pin": GuardianWebFixture.pin])
        #expect(reply.status == 303 && reply.header("Location") == "/guardian/")
        let cookie = try #require(reply.header("Set-Cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/guardian") && !cookie.contains("Secure"))
        let token = try #require(cookie.split(separator: ";").first?.split(separator: "=").last.map(String.init))
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
        let home = f.get("/guardian/", cookie: token)
        #expect(home.status == 200 && home.text.contains("data-screen=\"home\"") && home.text.contains("Mina"))
        #expect(try f.store.guardianState().isUnlocked(at: f.secure.now()) == false)
        // Nothing secret in the page or the redirect.
        #expect(!home.text.contains(token) && !(reply.header("Location") ?? "").contains(GuardianWebFixture.pin))
    }

    @Test("a wrong PIN says how many attempts failed; six lock the pad with the time left, across a restart")
    func lockout() throws {
        let f = try GuardianWebFixture()
        for attempt in 1...6 {
            let reply = f.post("/guardian/sign-in", form: ["pin": "0000"])
            #expect(reply.status == (attempt <= 5 ? 401 : 429), "attempt \(attempt)")
            #expect(reply.header("Set-Cookie") == nil)
        }
        let page = f.get("/guardian/")
        let seconds = try #require(Self.lockedSeconds(page.text))
        #expect(seconds > 0 && seconds <= 30)
        // The right PIN is refused while locked, and a restarted service still knows the lock.
        #expect(f.post("/guardian/sign-in", form: ["pin": GuardianWebFixture.pin]).status == 429)
        try f.restart()
        #expect(Self.lockedSeconds(f.get("/guardian/").text) != nil)
        #expect(f.post("/guardian/sign-in", form: ["pin": GuardianWebFixture.pin]).status == 429)
        // A wall-clock jump does not end it (the boot clock decides); time passing does.
        f.secure.setWall(f.secure.now().wall.addingTimeInterval(86_400 * 365))
        #expect(f.post("/guardian/sign-in", form: ["pin": GuardianWebFixture.pin]).status == 429)
        f.secure.advance(by: 31)
        #expect(f.post("/guardian/sign-in", form: ["pin": GuardianWebFixture.pin]).status == 303)
    }

    @Test("a POST without the CSRF token, with another token or from another origin is refused with 403, nothing changed")
    func csrf() throws {
        let f = try GuardianWebFixture()
        let (cookie, token) = try f.signIn()
        let before = try f.dump()
        let path = "/guardian/child/\(f.child.id.lowercased)/rename"
        #expect(f.post(path, cookie: cookie, form: ["name": "Other", "locale": "en"]).status == 403)
        #expect(f.post(path, cookie: cookie, form: ["name": "Other", "locale": "en", "csrf": String(repeating: "0", count: 64)]).status == 403)
        #expect(f.post(path, cookie: cookie, form: ["name": "Other", "locale": "en", "csrf": token], sameOrigin: false).status == 403)
        #expect(f.post(path, form: ["name": "Other", "locale": "en", "csrf": token]).status == 401)
        #expect(try f.dump() == before)
        // With everything right it saves.
        #expect(f.post(path, cookie: cookie, form: ["name": "Other", "locale": "en", "csrf": token]).status == 303)
        #expect(try f.store.child(id: f.child.id).displayName == "Other")
        #expect(try f.store.child(id: f.child.id).profile.locale == "en")
    }

    @Test("the session ends after 3 minutes without use, on the secure clock; use extends it; sign-out ends it")
    func idleTimeout() throws {
        let f = try GuardianWebFixture()
        let (cookie, token) = try f.signIn()
        f.secure.advance(by: 170)
        #expect(f.get("/guardian/", cookie: cookie).status == 200)
        f.secure.advance(by: 170)
        #expect(f.get("/guardian/", cookie: cookie).status == 200)
        // The routines' clock moving far ahead changes nothing.
        f.wall.advance(by: 86_400)
        #expect(f.get("/guardian/", cookie: cookie).status == 200)
        f.secure.advance(by: 181)
        let after = f.get("/guardian/", cookie: cookie)
        #expect(after.status == 200 && after.text.contains("data-screen=\"sign-in\""))
        #expect(f.get("/guardian/child/\(f.child.id.lowercased)/feedback", cookie: cookie).status == 303)
        let before = try f.dump()
        let refused = f.post("/guardian/children/add", cookie: cookie, form: ["name": "Late", "csrf": token])
        #expect(refused.status == 401 && refused.text.contains("data-screen=\"sign-in\""))
        #expect(try f.dump() == before)
        let (again, csrf2) = try f.signIn()
        #expect(f.post("/guardian/sign-out", cookie: again, form: ["csrf": csrf2]).status == 303)
        #expect(f.get("/guardian/", cookie: again).text.contains("data-screen=\"sign-in\""))
        #expect(f.web.sessionCount == 0)
    }

    @Test("each form's invalid input is refused naming the field, and the database is unchanged", arguments: [
        ("feedback", ["ttsRate": "3"], "ttsRate"),
        ("feedback", ["ttsRate": "fast"], "ttsRate"),
        ("feedback", ["pitch": "120"], "pitch"),
        ("feedback", ["undoDurationSeconds": "7"], "undoDurationSeconds"),
        ("feedback", ["notificationLeadTimes": "0"], "notificationLeadTimes"),
        ("feedback", ["notificationLeadTimes": "ten"], "notificationLeadTimes"),
        ("feedback", ["quietHoursStart": "25:00", "quietHoursEnd": "07:00"], "quietHours"),
        ("feedback", ["intensity": "loud"], "intensity"),
        ("feedback", ["voiceVariant": "../../etc"], "voiceVariant"),
        ("rename", ["name": "", "locale": "en"], "child.name"),
        ("rename", ["name": "Mina", "locale": "fr"], "locale"),
        ("add", ["titleKo": "", "titleEn": ""], "titleKo"),
        ("add", ["titleEn": "Brush", "colorToken": "color.card.black"], "colorToken"),
        ("add", ["titleEn": "Brush", "icon": "../secret"], "icon"),
        ("add", ["titleEn": "Brush", "scheduledTime": "7 o'clock"], "scheduledTime"),
        ("addChild", ["name": String(repeating: "x", count: 200)], "child.name"),
    ])
    func invalidInput(form: String, fields: [String: String], field: String) throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        let child = f.child.id.lowercased
        let set = try #require(try f.store.activeSet(childId: f.child.id)).id.lowercased
        let path = ["feedback": "/guardian/child/\(child)/feedback", "rename": "/guardian/child/\(child)/rename",
                    "add": "/guardian/set/\(set)/add", "addChild": "/guardian/children/add"][form] ?? ""
        var body = fields
        body["csrf"] = csrf
        if form == "feedback" { body.merge(["soundEnabled": "on", "ttsEnabled": "on", "hapticEnabled": "on"]) { a, _ in a } }
        let before = try f.dump()
        let reply = f.post(path, cookie: cookie, form: body)
        #expect(reply.status == 400)
        #expect(reply.text.contains("data-error-field=\"\(field)\""), "\(reply.text.prefix(2000))")
        #expect(reply.text.contains("role=\"alert\""))
        #expect(try f.dump() == before)
        #expect(f.photoFiles().isEmpty)
        // The refused field points at the error, once: no element carries an attribute twice.
        let tags = reply.text.split(separator: "<").map { String($0.prefix { $0 != ">" }) }
        for tag in tags {
            for attribute in ["aria-describedby=", "aria-invalid="] {
                #expect(tag.components(separatedBy: " " + attribute).count <= 2, "\(tag)")
            }
        }
        if let input = tags.first(where: { $0.hasPrefix("input id=\"\(field)\"") }) {
            #expect(input.contains("aria-invalid=\"true\"") && input.contains("form-error"), "\(input)")
            #expect(reply.text.contains("id=\"form-error\""))
        }
        // What the guardian typed is still there to correct (the refused routine form).
        if form == "add", let title = fields["titleEn"] {
            #expect(reply.text.contains("name=\"titleEn\" lang=\"en\" maxlength=\"200\" value=\"\(title)\""), "\(reply.text)")
            if let time = fields["scheduledTime"] { #expect(reply.text.contains("value=\"\(time.replacingOccurrences(of: "'", with: "&#39;"))\"")) }
        }
    }

    @Test("a photo is checked by its content: a renamed text file is refused; a PNG is kept owner-only and shown")
    func photos() throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        let set = try #require(try f.store.activeSet(childId: f.child.id))
        let before = try f.dump()
        let fake = UploadedFile(filename: "photo.jpg", contentType: "image/jpeg", bytes: Array("<html>not a photo</html>".utf8))
        let refused = f.post("/guardian/set/\(set.id.lowercased)/add", cookie: cookie, form: ["titleEn": "Feed the cat", "csrf": csrf],
                             files: ["photo": fake])
        #expect(refused.status == 400 && refused.text.contains("data-error-field=\"photo\""))
        #expect(try f.dump() == before && f.photoFiles().isEmpty)
        let tooBig = UploadedFile(filename: "big.png", contentType: "image/png", bytes: GuardianWebFixture.pngBytes() + Array(repeating: 0, count: GuardianWeb.maxPhotoBytes))
        #expect(f.post("/guardian/set/\(set.id.lowercased)/add", cookie: cookie, form: ["titleEn": "Feed the cat", "csrf": csrf],
                       files: ["photo": tooBig]).status == 400)
        #expect(try f.dump() == before && f.photoFiles().isEmpty)

        let png = UploadedFile(filename: "cat.png", contentType: "image/png", bytes: GuardianWebFixture.pngBytes())
        let added = f.post("/guardian/set/\(set.id.lowercased)/add", cookie: cookie,
                           form: ["titleEn": "Feed the cat", "titleKo": "고양이 밥 주기", "colorToken": "color.card.mint", "scheduledTime": "07:40", "csrf": csrf],
                           files: ["photo": png])
        #expect(added.status == 303)
        let routine = try #require(try f.store.routines(setId: set.id).first { $0.title.value(for: "en") == "Feed the cat" })
        guard case .photo(_, let asset) = routine.icon else { Issue.record("no photo: \(routine.icon)"); return }
        #expect(f.photoFiles() == [asset])
        #expect(routine.colorToken == "color.card.mint" && routine.scheduledTime?.description == "07:40")
        var st = stat()
        #expect(stat(f.photos.path + "/" + asset, &st) == 0 && st.st_mode & 0o777 == 0o600)
        #expect(f.get("/guardian/child/\(f.child.id.lowercased)/routines", cookie: cookie).text.contains("/guardian/photos/\(asset)"))
        let served = f.get("/guardian/photos/\(asset)", cookie: cookie)
        #expect(served.status == 200 && served.contentType == "image/png" && served.body == GuardianWebFixture.pngBytes())
        #expect(f.get("/guardian/photos/\(asset)").status == 303)   // not without a session
        #expect(f.get("/guardian/photos/..%2Fsteppie.db", cookie: cookie).status == 404)
        // Replacing the photo by the icon removes the file (it would otherwise travel in backups).
        let edited = f.post("/guardian/routine/\(routine.id.lowercased)/edit", cookie: cookie,
                            form: ["titleEn": "Feed the cat", "icon": "apple", "removePhoto": "on", "csrf": csrf])
        #expect(edited.status == 303)
        #expect(try f.store.routine(id: routine.id).icon == .builtin(name: "apple"))
        #expect(f.photoFiles().isEmpty)
    }

    /// ▶ plays the form's values as they are now, unsaved (it played the saved ones), checked by
    /// the same rules as a save; "off" says nothing plays instead of "playing" (#26 item 9).
    @Test func playUsesTheFormsValuesAndOffSaysSo() throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        let child = f.child.id.lowercased
        let before = try f.dump()
        let form = ["csrf": csrf, "preview": "form", "event": "completed", "intensity": "strong", "ttsEnabled": "on", "soundEnabled": "on",
                    "pitch": "70", "ttsRate": "0.7", "quietHoursStart": "", "quietHoursEnd": ""]
        let played = f.post("/guardian/child/\(child)/play", cookie: cookie, form: form, json: true)
        #expect(played.status == 200 && played.text.contains("Playing on the device."), "\(played.text)")
        let profile = try #require(f.played.profiles.withLock { $0.last })
        #expect(profile.pitch == 70 && profile.ttsRate == 0.7 && profile.intensity == .strong && !profile.hapticEnabled)
        #expect(try f.dump() == before)   // nothing saved
        var bad = form
        bad["pitch"] = "120"
        let refused = f.post("/guardian/child/\(child)/play", cookie: cookie, form: bad, json: true)
        #expect(refused.status == 400 && f.played.calls.withLock { $0.count } == 1)
        var off = form
        off["intensity"] = "off"
        let silent = f.post("/guardian/child/\(child)/play", cookie: cookie, form: off, json: true)
        #expect(silent.status == 200 && silent.text.contains("Off: nothing plays"), "\(silent.text)")
        #expect(f.played.calls.withLock { $0.count } == 1)
        #expect(try f.dump() == before)
    }

    /// The voice variant is chosen from the installed ones (it was a free-text box).
    @Test func theVoiceIsChosenFromAList() throws {
        let f = try GuardianWebFixture()
        let (cookie, _) = try f.signIn()
        let page = f.get("/guardian/child/\(f.child.id.lowercased)/feedback", cookie: cookie).text
        #expect(page.contains("<select id=\"voiceVariant\" name=\"voiceVariant\""))
        #expect(!page.contains("<input id=\"voiceVariant\""))
    }

    /// A parent on these pages is never sent to a command line (#26 item 9: the backup page said
    /// "the same as the command steppie backup create").
    @Test func thePagesNameNoCommand() throws {
        let f = try GuardianWebFixture()
        let (cookie, _) = try f.signIn()
        let child = f.child.id.lowercased
        for path in ["/guardian/", "/guardian/backup", "/guardian/child/\(child)/feedback", "/guardian/child/\(child)/routines",
                     "/guardian/child/\(child)/history", "/guardian/l10n"] {
            let page = f.get(path, cookie: cookie)
            #expect(page.status == 200, "\(path)")
            #expect(!page.text.contains("steppie "), "\(path) names a command")
        }
    }

    /// A refused feedback form comes back with what the guardian typed (the refused value marked),
    /// not the stored values: nothing typed is lost to one mistake (#26 item 9).
    @Test func aRefusedFeedbackFormKeepsWhatWasTyped() throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        let child = f.child.id.lowercased
        let before = try f.dump()
        let reply = f.post("/guardian/child/\(child)/feedback", cookie: cookie,
                           form: ["csrf": csrf, "intensity": "quiet", "ttsEnabled": "on", "ttsRate": "0.7", "pitch": "120",
                                  "notificationLeadTimes": "20, 3", "quietHoursStart": "20:30", "quietHoursEnd": "06:45"])
        #expect(reply.status == 400)
        #expect(reply.text.contains("data-error-field=\"pitch\""))
        #expect(try f.dump() == before)
        let tags = reply.text.split(separator: "<").map { String($0.prefix { $0 != ">" }) }
        func input(_ id: String) -> String { tags.first { $0.hasPrefix("input id=\"\(id)\"") } ?? "" }
        #expect(input("pitch").contains("value=\"120\"") && input("pitch").contains("aria-invalid=\"true\""), "\(input("pitch"))")
        #expect(input("ttsRate").contains("value=\"0.7\""), "\(input("ttsRate"))")
        #expect(input("notificationLeadTimes").contains("value=\"20, 3\""), "\(input("notificationLeadTimes"))")
        #expect(input("quietHoursStart").contains("value=\"20:30\""), "\(input("quietHoursStart"))")
        // Times are 24-hour text (a `type="time"` field shows a 12-hour placeholder in many browsers).
        #expect(!reply.text.contains("type=\"time\"") && input("quietHoursStart").contains("pattern=\"([01][0-9]|2[0-3]):[0-5][0-9]\""))
        #expect(!input("soundEnabled").contains("checked") && input("ttsEnabled").contains("checked"))
        #expect(reply.text.contains("value=\"quiet\" checked") || reply.text.contains("value=\"quiet\" selected"))
    }

    @Test("feedback is saved from the form; play asks the device for that cue; moves, deletes and restores work")
    func feedbackAndRoutines() throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        let child = f.child.id.lowercased
        let page = f.get("/guardian/child/\(child)/feedback", cookie: cookie)
        #expect(page.text.contains("data-form=\"feedback\"") && page.text.contains("data-screen=\"feedback\""))
        let saved = f.post("/guardian/child/\(child)/feedback", cookie: cookie,
                           form: ["csrf": csrf, "intensity": "quiet", "ttsEnabled": "on", "ttsRate": "0.8", "ttsVolume": "0.6",
                                  "volumeCap": "0.9", "pitch": "40", "undoDurationSeconds": "10", "notificationLeadTimes": "15, 5",
                                  "quietHoursStart": "21:00", "quietHoursEnd": "07:00", "voiceVariant": ""])
        #expect(saved.status == 303)
        let p = try f.store.child(id: f.child.id).profile
        #expect(p.intensity == .quiet && !p.soundEnabled && p.ttsEnabled && !p.hapticEnabled && p.ttsRate == 0.8 && p.pitch == 40)
        #expect(p.undoDurationSeconds == 10 && p.notificationLeadTimes == [15, 5] && p.quietHoursStart?.description == "21:00")
        #expect(f.get("/guardian/child/\(child)/feedback", cookie: cookie).text.contains("role=\"status\""))   // "Saved."

        let play = f.post("/guardian/child/\(child)/play", cookie: cookie, form: ["csrf": csrf, "event": "completed", "intensity": "strong"], json: true)
        #expect(play.status == 200 && play.text.contains("\"ok\":true"))
        #expect(f.played.calls.withLock { $0 } == ["\(child) completed strong"])
        #expect(f.post("/guardian/child/\(child)/play", cookie: cookie, form: ["csrf": csrf, "event": "rm -rf"], json: true).status == 400)

        let set = try #require(try f.store.activeSet(childId: f.child.id))
        let order = try f.store.routines(setId: set.id).filter(\.isVisible).sorted { $0.order < $1.order }.map(\.id)
        #expect(f.post("/guardian/routine/\(order[1].lowercased)/move", cookie: cookie, form: ["csrf": csrf, "direction": "up"]).status == 303)
        var now = try f.store.routines(setId: set.id).filter(\.isVisible).sorted { $0.order < $1.order }.map(\.id)
        #expect(now[0] == order[1] && now[1] == order[0])
        let reversed = order.reversed().map(\.lowercased).joined(separator: ",")
        #expect(f.post("/guardian/set/\(set.id.lowercased)/reorder", cookie: cookie, form: ["csrf": csrf, "order": reversed], json: true).status == 200)
        now = try f.store.routines(setId: set.id).filter(\.isVisible).sorted { $0.order < $1.order }.map(\.id)
        #expect(now == order.reversed())
        #expect(f.post("/guardian/routine/\(order[0].lowercased)/delete", cookie: cookie, form: ["csrf": csrf]).status == 303)
        #expect(try f.store.routine(id: order[0]).deletedAt != nil)
        #expect(f.get("/guardian/child/\(child)/routines", cookie: cookie).text.contains("/guardian/routine/\(order[0].lowercased)/restore"))
        #expect(f.post("/guardian/routine/\(order[0].lowercased)/restore", cookie: cookie, form: ["csrf": csrf]).status == 303)
        #expect(try f.store.routine(id: order[0]).deletedAt == nil)
    }

    @Test("children: add, archive and bring back; the history heatmap's counts are the month calendar's")
    func childrenAndHistory() throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        #expect(f.post("/guardian/children/add", cookie: cookie, form: ["csrf": csrf, "name": "Joon", "locale": "ko"]).status == 303)
        let joon = try #require(try f.store.children().first { $0.displayName == "Joon" })
        #expect(joon.profile.locale == "ko")
        #expect(f.post("/guardian/child/\(joon.id.lowercased)/archive", cookie: cookie, form: ["csrf": csrf]).status == 303)
        #expect(try f.store.child(id: joon.id).archivedAt != nil)
        #expect(f.get("/guardian/", cookie: cookie).text.contains("data-archived=\"true\""))
        #expect(f.post("/guardian/child/\(joon.id.lowercased)/unarchive", cookie: cookie, form: ["csrf": csrf]).status == 303)
        #expect(try f.store.child(id: joon.id).archivedAt == nil)

        let today = LocalDay(f.wall.now(), in: GuardianWebFixture.zone)
        _ = try f.store.complete(childId: f.child.id, day: today, at: f.wall.now())
        let page = f.get("/guardian/child/\(f.child.id.lowercased)/history", cookie: cookie)
        #expect(page.status == 200)
        let calendar = try f.store.monthCalendar(childId: f.child.id, month: YearMonth(today), reference: today)
        for day in calendar.days {
            #expect(page.text.contains("data-day=\"\(day.day)\" data-completed=\"\(day.completed)\" data-total=\"\(day.total)\""))
        }
        let detail = f.get("/guardian/child/\(f.child.id.lowercased)/history", cookie: cookie, query: ["date": today.description])
        #expect(detail.text.contains("data-state=\"done\"") && detail.text.contains("data-state=\"not-done\""))
    }

    static func lockedSeconds(_ html: String) -> Int? {
        guard let r = html.range(of: "data-locked-seconds=\"") else { return nil }
        return Int(html[r.upperBound...].prefix { $0.isNumber })
    }
}
