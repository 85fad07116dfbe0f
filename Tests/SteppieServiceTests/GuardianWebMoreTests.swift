import Foundation
import SteppieBackup
import SteppieCore
import SteppieGuardianWeb
import SteppieService
import SteppieStore
import Testing

/// The rest of the guardian pages: sets and the weekly schedule, correcting a past day, the
/// statistics, backups both ways, and the prompts review.
@Suite("Guardian pages: sets, history, backups, prompts")
struct GuardianWebMoreTests {
    @Test("sets are renamed and deleted (never the one in use); the weekly schedule gets and loses slots")
    func setsAndSchedule() throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        let child = f.child.id.lowercased
        #expect(f.post("/guardian/child/\(child)/sets", cookie: cookie, form: ["csrf": csrf, "template": "bedtime"]).status == 303)
        let sets = try f.store.sets(childId: f.child.id)
        let activeSet = sets.first { $0.isActive }, otherSet = sets.first { !$0.isActive }
        let active = try #require(activeSet), bedtime = try #require(otherSet)
        #expect(f.post("/guardian/set/\(bedtime.id.lowercased)/rename", cookie: cookie, form: ["csrf": csrf, "name": "Night"]).status == 303)
        #expect(try f.store.set(id: bedtime.id).name.value(for: "en") == "Night")
        let before = try f.dump()
        let refused = f.post("/guardian/set/\(active.id.lowercased)/delete", cookie: cookie, form: ["csrf": csrf])
        #expect(refused.status == 400 && refused.text.contains("role=\"alert\""))
        #expect(try f.dump() == before)
        // A schedule slot: weekdays from 19:00 the bedtime set; refused without days; removed again.
        let noDays = f.post("/guardian/child/\(child)/schedule", cookie: cookie, form: ["csrf": csrf, "from": "19:00", "set": bedtime.id.lowercased])
        #expect(noDays.status == 400 && noDays.text.contains("data-error-field=\"days\""))
        #expect(try f.dump() == before)
        #expect(f.post("/guardian/child/\(child)/schedule", cookie: cookie,
                       form: ["csrf": csrf, "day-mon": "on", "day-fri": "on", "from": "19:00", "set": bedtime.id.lowercased]).status == 303)
        let slots = try f.store.schedule(childId: f.child.id).slots
        #expect(slots.map(\.weekday) == [.monday, .friday] && slots.allSatisfy { $0.start.description == "19:00" && $0.routineSetId == bedtime.id })
        #expect(f.post("/guardian/child/\(child)/schedule", cookie: cookie, form: ["csrf": csrf, "remove": "mon"]).status == 303)
        #expect(try f.store.schedule(childId: f.child.id).slots.map(\.weekday) == [.friday])
        #expect(f.post("/guardian/set/\(bedtime.id.lowercased)/delete", cookie: cookie, form: ["csrf": csrf]).status == 303)
        #expect(try f.store.sets(childId: f.child.id).count == 1)
    }

    @Test("a guardian marks a past day's routine done and not done; a future day is refused naming the date")
    func corrections() throws {
        let f = try GuardianWebFixture()
        let today = LocalDay(f.wall.now(), in: GuardianWebFixture.zone)
        f.wall.advance(by: 2 * 86_400)
        let (cookie, csrf) = try f.signIn()
        let child = f.child.id.lowercased
        let set = try #require(try f.store.activeSet(childId: f.child.id))
        let routine = try #require(try f.store.routines(setId: set.id).first)
        let day = today.adding(days: 1)
        let page = f.get("/guardian/child/\(child)/history", cookie: cookie, query: ["date": day.description])
        #expect(page.text.contains("data-state=\"not-done\"") && page.text.contains("data-form=\"correct\""))
        #expect(f.post("/guardian/child/\(child)/correct", cookie: cookie,
                       form: ["csrf": csrf, "date": day.description, "routine": routine.id.lowercased, "done": "yes"]).status == 303)
        #expect(try f.store.dayEntries(childId: f.child.id, day: day, reference: today.adding(days: 2))
            .first { $0.routine.id == routine.id }?.state == .completed)
        let after = f.get("/guardian/child/\(child)/history", cookie: cookie, query: ["date": day.description])
        #expect(after.text.contains("data-state=\"done\""))
        // Dates as a guardian reads them, in the page's language (ISO only in links and data-).
        for (lang, lines) in [("en", ["<h2 id=\"day-h\">Tuesday, 2 December 2025</h2>", "corrected at 3 Dec 2025, 09:00",
                                      "<span aria-current=\"page\">December 2025</span>", "<th scope=\"row\">Tue 2 Dec</th>",
                                      "aria-label=\"Tuesday, 2 December 2025: 1 of 6 done\""]),
                              ("ko", ["<h2 id=\"day-h\">2025년 12월 2일 화요일</h2>", "2025년 12월 3일 09:00에 고침",
                                      "<span aria-current=\"page\">2025년 12월</span>", "<th scope=\"row\">12월 2일 (화)</th>"])] {
            let page = f.get("/guardian/child/\(child)/history", cookie: cookie, query: ["date": day.description, "lang": lang])
            for line in lines { #expect(page.text.contains(line), "\(lang): \(line)") }
            #expect(!page.text.contains("class=\"child-name\""))
        }
        let before = try f.dump()
        let future = f.post("/guardian/child/\(child)/correct", cookie: cookie,
                            form: ["csrf": csrf, "date": today.adding(days: 9).description, "routine": routine.id.lowercased, "done": "yes"])
        #expect(future.status == 400 && future.text.contains("data-error-field=\"date\""))
        let nonsense = f.post("/guardian/child/\(child)/correct", cookie: cookie,
                              form: ["csrf": csrf, "date": "2025-02-30", "routine": routine.id.lowercased, "done": "yes"])
        #expect(nonsense.status == 400 && nonsense.text.contains("data-error-field=\"date\""))
        #expect(try f.dump() == before)
        #expect(after.text.contains("data-stat=\"longestStreak\""))
        // Streaks read as days; the bare number stays in data-value. One routine of six done on
        // one day: no whole day yet.
        #expect(after.text.contains("<td data-stat=\"longestStreak\" data-value=\"0\">0 days</td>"), "\(after.text)")
        // "Whole days" shows the whole days' rate (0 of them), not the routine-day rate, which has
        // its own line (#26 item 9).
        #expect(after.text.contains("<td data-stat=\"dayRate\">0%</td>"), "\(after.text)")
        let routineRate = try #require(after.text.range(of: "<p data-stat=\"routineRate\">Each routine on each day, all together: "))
        #expect(!after.text[routineRate.upperBound...].hasPrefix("0%"), "\(after.text)")
    }

    @Test("a downloaded backup is a valid archive; a damaged upload is refused with nothing changed; a good one asks first, then restores")
    func backups() throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        let download = f.post("/guardian/backup/create", cookie: cookie, form: ["csrf": csrf])
        #expect(download.status == 200 && download.contentType == "application/zip")
        #expect(download.header("Content-Disposition")?.contains("attachment") == true)
        // The archive is sent from its file (issue 24, class 9), not from memory.
        let archive = try #require(download.file).contents()
        #expect(download.body.isEmpty && archive.count > 0)
        let zip = URL(fileURLWithPath: f.directory + "/download.zip")
        try Data(archive).write(to: zip)
        let plan = try BackupVerifier().verify(archive: zip, at: f.wall.now())
        #expect(plan.counts.children == 1 && plan.counts.routines == 6)

        // Another child added after the backup, with a schedule; a damaged archive changes nothing.
        let joon = try f.store.addChild(name: "Joon", at: f.wall.now())
        let school = try f.store.createSet(childId: joon.id, name: LocalizedText(["en": "School"]), at: f.wall.now())
        try f.store.setSchedule(childId: joon.id, entries: [ScheduleEntry(weekdays: [.monday, .tuesday], start: LocalTime(hour: 8, minute: 0)!, routineSetId: school.id)],
                                at: f.wall.now())
        let before = try f.dump()
        var damaged = archive
        for i in stride(from: damaged.count / 3, to: damaged.count / 3 + 64, by: 1) { damaged[i] ^= 0x5A }
        let refused = f.post("/guardian/backup/restore", cookie: cookie, form: ["csrf": csrf],
                             files: ["archive": UploadedFile(filename: "b.zip", contentType: "application/zip", bytes: damaged)])
        #expect(refused.status == 400 && refused.text.contains("data-error-field=\"archive\""))
        #expect(try f.dump() == before)
        let text = f.post("/guardian/backup/restore", cookie: cookie, form: ["csrf": csrf],
                          files: ["archive": UploadedFile(filename: "b.zip", contentType: "application/zip", bytes: Array("hello".utf8))])
        #expect(text.status == 400)
        #expect(try f.dump() == before)

        // A good one: the confirmation names what is replaced (both children now) and what comes.
        let staged = f.post("/guardian/backup/restore", cookie: cookie, form: ["csrf": csrf],
                            files: ["archive": UploadedFile(filename: "b.zip", contentType: "application/zip", bytes: archive)])
        #expect(staged.status == 200 && staged.text.contains("data-screen=\"backup-confirm\""))
        #expect(staged.text.contains("Joon") && staged.text.contains("Mina") && staged.text.contains("Morning routine"))
        // Child by child, with the device's counts and whose sets come, as the command line says it (#26 item 9).
        #expect(staged.text.contains("<ul data-list=\"scope\">"), "\(staged.text)")
        #expect(staged.text.contains("<li>Replaced: Joon (sets: School; 0 routines, 0 log entries, 0 photos).</li>"), "\(staged.text)")
        #expect(staged.text.contains("<li>From the backup: Mina (sets: Morning routine;"), "\(staged.text)")
        // When it was made, in the device's time zone, as a guardian reads it.
        #expect(staged.text.contains("A backup from Linux, made 1 Dec 2025, 09:00."), "\(staged.text)")
        // The backup had no slots; Joon's two go with him.
        #expect(staged.text.contains("<p data-count=\"schedules\">Weekly schedules: 0 slots from the backup, in place of the 2 slots here.</p>"), "\(staged.text)")
        #expect(try f.dump() == before)   // nothing yet
        let token = try #require(staged.text.range(of: "name=\"upload\" value=\"").map { String(staged.text[$0.upperBound...].prefix(32)) })
        #expect(f.post("/guardian/backup/confirm", cookie: cookie, form: ["csrf": csrf, "upload": String(repeating: "0", count: 32)]).status == 409)
        #expect(try f.dump() == before)
        // The confirmation says what happens to the PIN (this device's backup: its PIN comes back)
        // and asks for it: none, a malformed one or a wrong one restores nothing, and the upload waits.
        #expect(staged.text.contains("data-pin-change=\"replaced\"") && staged.text.contains("id=\"restore-pin\""), "\(staged.text)")
        let noPin = f.post("/guardian/backup/confirm", cookie: cookie, form: ["csrf": csrf, "upload": token])
        #expect(noPin.status == 400 && noPin.text.contains("data-error-field=\"pin\"") && noPin.text.contains("data-restore=\"pending\""))
        let wrong = f.post("/guardian/backup/confirm", cookie: cookie, form: ["csrf": csrf, "upload": token, "pin": "1111"])
        #expect(wrong.status == 401 && wrong.text.contains("data-error-field=\"pin\"") && wrong.text.contains("aria-invalid=\"true\""))
        // Only the backoff's count moved (the failure is counted, as on the sign-in page).
        func rows(_ dump: String) -> [Substring] { dump.split(separator: "\n").filter { !$0.hasPrefix("'singleton'") } }
        #expect(try rows(f.dump()) == rows(before))
        #expect(try f.store.guardianState().failedAttempts == 1)
        #expect(f.post("/guardian/backup/confirm", cookie: cookie, form: ["csrf": csrf, "upload": token, "pin": GuardianWebFixture.pin]).status == 303)
        #expect(try f.store.children().map(\.displayName) == ["Mina"])
        // Nothing is left waiting: the page offers a new upload, and the old token is refused.
        let after = f.get("/guardian/backup", cookie: cookie)
        #expect(after.text.contains("data-screen=\"backup\"") && after.text.contains("role=\"status\""))
        #expect(f.post("/guardian/backup/confirm", cookie: cookie, form: ["csrf": csrf, "upload": token, "pin": GuardianWebFixture.pin]).status == 409)
        // The staged upload is gone.
        let uploads = (try? FileManager.default.contentsOfDirectory(atPath: f.directory + "/.steppie-uploads")) ?? []
        #expect(uploads.isEmpty, "\(uploads)")
    }

    @Test("the prompts review shows every spoken prompt in ko and en with a real title, and plays one on the device")
    func promptsReview() throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        let page = f.get("/guardian/l10n", cookie: cookie, query: ["pseudo": "on"])
        #expect(page.status == 200 && page.text.contains("data-screen=\"l10n\""))
        #expect(page.text.contains("data-key=\"tts.completed\"") && page.text.contains("lang=\"ko\"") && page.text.contains("lang=\"en\""))
        let active = try #require(try f.store.activeSet(childId: f.child.id))
        let first = try #require(try f.store.routines(setId: active.id).first)
        #expect(page.text.contains(esc(first.title.value(for: "en") ?? "?")))
        let reply = f.post("/guardian/l10n/play", cookie: cookie, form: ["csrf": csrf, "key": "tts.completed", "locale": "ko",
                                                                         "routine": first.id.lowercased], json: true)
        #expect(reply.status == 200)
        let said = f.played.calls.withLock { $0 }
        #expect(said.count == 1 && said[0].hasPrefix("say ko ") && said[0].contains(first.title.value(for: "ko") ?? "?"))
        #expect(f.post("/guardian/l10n/play", cookie: cookie, form: ["csrf": csrf, "key": "cli.error.unexpected", "locale": "ko"], json: true).status == 400)
    }

    private func esc(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "'", with: "&#39;")
    }
}
