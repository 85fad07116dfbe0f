import Foundation
import SteppieCore
import SteppieGuardianWeb
import SteppieService
import SteppieStore
import Testing

/// The printable pages (#26 item 8): a set's picture schedule and a child's month report, behind
/// the session, with the paper's class for the stylesheet's `@page`.
@Suite("Guardian pages: on paper")
struct GuardianPrintTests {
    /// The values of `attribute` in `html`, in order.
    static func values(_ attribute: String, in html: String) -> [String] {
        html.components(separatedBy: "\(attribute)=\"").dropFirst().compactMap { $0.split(separator: "\"", maxSplits: 1).first.map(String.init) }
    }

    @Test("the schedule: every visible card in order, 6 to a sheet with the child and the set, a photo behind the session, titles escaped, the paper chosen")
    func schedule() throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        let set = try #require(try f.store.activeSet(childId: f.child.id))
        let sid = set.id.lowercased
        // A photo routine (through the form, as a guardian adds one), a title that is markup, a
        // deleted routine (not printed), up to 12 cards.
        let png = UploadedFile(filename: "cat.png", contentType: "image/png", bytes: GuardianWebFixture.pngBytes())
        #expect(f.post("/guardian/set/\(sid)/add", cookie: cookie, form: ["titleEn": "Feed the cat", "titleKo": "고양이 밥 주기",
                                                                              "scheduledTime": "07:40", "csrf": csrf],
                       files: ["photo": png]).status == 303)
        _ = try f.store.addRoutine(setId: set.id, title: LocalizedText(["en": "<b>Shoes</b> & \"socks\""]), icon: .builtin(name: "hat"), at: f.wall.now())
        for n in 1...4 { _ = try f.store.addRoutine(setId: set.id, title: LocalizedText(["en": "Extra \(n)", "ko": "더하기 \(n)"]), at: f.wall.now()) }
        let gone = try f.store.addRoutine(setId: set.id, title: LocalizedText(["en": "Gone"]), at: f.wall.now())
        _ = try f.store.deleteRoutine(id: gone.id, at: f.wall.now())
        let routines = try f.store.routines(setId: set.id).filter(\.isVisible).sorted { $0.order < $1.order }
        #expect(routines.count == 12)

        let page = f.get("/guardian/set/\(sid)/print", cookie: cookie)
        #expect(page.status == 200)
        let text = page.text
        #expect(text.contains("data-screen=\"print-schedule\" class=\"paper-a4\""), "\(text)")
        #expect(Self.values("data-routine-id", in: text) == routines.map(\.id.lowercased))
        #expect(Self.values("data-order", in: text) == (1...12).map(String.init))
        #expect(Self.values("data-sheet", in: text) == ["1", "2"])
        #expect(text.components(separatedBy: "<span class=\"who\">Mina</span><span class=\"set\">Morning routine</span>").count == 3, "\(text)")
        #expect(text.contains("Page 1 of 2") && text.contains("Page 2 of 2"))
        #expect(!text.contains("Gone"))
        #expect(text.contains("&lt;b&gt;Shoes&lt;/b&gt; &amp; &quot;socks&quot;") && !text.contains("<b>Shoes"))
        let photo = try #require(routines.first { $0.title.value(for: "en") == "Feed the cat" })
        guard case .photo(_, let asset) = photo.icon else { Issue.record("no photo"); return }
        #expect(text.contains("<img src=\"/guardian/photos/\(asset)\" alt=\"\" class=\"photo\">"))
        #expect(text.contains("<span class=\"title\">Feed the cat</span><span class=\"time\">07:40</span>"))
        #expect(f.get("/guardian/photos/\(asset)", cookie: cookie).status == 200)
        #expect(text.contains("button type=\"button\" data-print"))
        #expect(f.get("/guardian/child/\(f.child.id.lowercased)/routines", cookie: cookie).text.contains("href=\"/guardian/set/\(sid)/print\""))

        // Letter; anything else is A4.
        #expect(f.get("/guardian/set/\(sid)/print", cookie: cookie, query: ["paper": "letter"]).text.contains("class=\"paper-letter\""))
        #expect(f.get("/guardian/set/\(sid)/print", cookie: cookie, query: ["paper": "\"><x"]).text.contains("class=\"paper-a4\""))
        // The cards speak the child's language (Korean here) while the controls keep the guardian's.
        var patch = ProfilePatch()
        patch.locale = .set("ko")
        _ = try f.store.updateProfile(childId: f.child.id, patch, at: f.wall.now())
        let ko = f.get("/guardian/set/\(sid)/print", cookie: cookie).text
        #expect(ko.contains("<div class=\"sheets\" lang=\"ko\"") && ko.contains("<span class=\"title\">고양이 밥 주기</span>"), "\(ko)")
        #expect(ko.contains("2쪽 중 1쪽") && ko.contains(">Print</button>"))
    }

    @Test("the pages are behind the session: signed out they go to the PIN pad; an unknown set or child is 404")
    func signedOut() throws {
        let f = try GuardianWebFixture()
        let set = try #require(try f.store.activeSet(childId: f.child.id))
        for path in ["/guardian/set/\(set.id.lowercased)/print", "/guardian/child/\(f.child.id.lowercased)/report"] {
            let page = f.get(path)
            #expect(page.status == 303 && page.header("Location") == "/guardian/", "\(path)")
            #expect(!page.text.contains("Morning routine") && !page.text.contains("Mina"))
        }
        let (cookie, _) = try f.signIn()
        #expect(f.get("/guardian/set/\(UUID().lowercased)/print", cookie: cookie).status == 404)
        #expect(f.get("/guardian/child/\(UUID().lowercased)/report", cookie: cookie).status == 404)
    }

    @Test("the month report: days done of days scheduled, rates and streaks by the history's rules, every correction with when it was made")
    func report() throws {
        let f = try GuardianWebFixture()
        let set = try #require(try f.store.activeSet(childId: f.child.id))
        let routines = try f.store.routines(setId: set.id).sorted { $0.order < $1.order }
        let first = try #require(routines.first), second = routines[1]
        try f.store.renameChild(id: f.child.id, to: "Mina <3", at: f.wall.now())
        f.wall.advance(by: 9 * 86_400)   // 2025-12-10 09:00
        let (cookie, csrf) = try f.signIn()
        let child = f.child.id.lowercased
        func correct(_ routine: Routine, _ day: Int, _ done: Bool) {
            let date = String(format: "2025-12-%02d", day)
            #expect(f.post("/guardian/child/\(child)/correct", cookie: cookie,
                           form: ["csrf": csrf, "date": date, "routine": routine.id.lowercased, "done": done ? "yes" : "no"]).status == 303)
        }
        for day in 1...3 { correct(first, day, true) }
        correct(first, 5, true)
        f.wall.advance(by: 3600)   // 10:00: the second correction of the 5th, an hour later
        correct(first, 5, false)
        correct(second, 9, true)
        let page = f.get("/guardian/child/\(child)/report", cookie: cookie, query: ["month": "2025-12"])
        #expect(page.status == 200)
        let text = page.text
        #expect(text.contains("data-screen=\"print-report\" class=\"paper-a4\""))
        #expect(text.contains("<h1>Month report of Mina &lt;3</h1>") && text.contains("<p class=\"who\">December 2025</p>"), "\(text)")
        #expect(text.contains("Counted up to 10 Dec 2025; made on 10 Dec 2025."))
        // The first routine: 3 of 10 days (today, not yet done, counts as the history's rate does).
        #expect(text.contains("<tr data-routine-id=\"\(first.id.lowercased)\"><th scope=\"row\">\(first.title.value(for: "en") ?? "")</th><td data-value=\"3/10\">3 of 10 days</td><td>30%</td>"
                              + "<td data-value=\"3\">3 days <span class=\"hint\">1 Dec 2025 – 3 Dec 2025</span></td>"
                              + "<td data-value=\"0\">0 days <span class=\"hint\">–</span></td><td data-value=\"5\">5</td></tr>"), "\(text)")
        // The month is the whole history here: the figures equal the history page's statistics.
        let stats = try f.store.childStatistics(childId: f.child.id, reference: LocalDay(f.wall.now(), in: GuardianWebFixture.zone))
        let s = try #require(stats.perRoutine[second.id])
        #expect(text.contains("<td data-value=\"\(s.completedDays)/\(s.eligibleDays)\">"))
        #expect(text.contains("<td data-stat=\"days\" data-value=\"\(stats.days.completedDays)/\(stats.days.eligibleDays)\">"))
        #expect(text.contains("<td data-stat=\"currentStreak\" data-value=\"\(stats.days.currentStreak)\">"))
        // Every correction: routine, day, what changed, when it was made; by routine, then day.
        let rows = Self.values("data-day", in: text.components(separatedBy: "data-table=\"corrections\"").last ?? "")
        #expect(rows == ["2025-12-01", "2025-12-02", "2025-12-03", "2025-12-05", "2025-12-05", "2025-12-09"])
        #expect(text.contains("data-day=\"2025-12-05\" data-done=\"no\"><th scope=\"row\">\(first.title.value(for: "en") ?? "")</th><td>Fri 5 Dec</td><td>done → not done</td><td>10 Dec 2025, 10:00</td></tr>"), "\(text)")
        #expect(text.contains("<td>Tue 9 Dec</td><td>not done → done</td><td>10 Dec 2025, 10:00</td>"))
        // In Korean, through the same date words.
        let ko = f.get("/guardian/child/\(child)/report", cookie: cookie, query: ["month": "2025-12", "lang": "ko"]).text
        #expect(ko.contains("10일 중 3일") && ko.contains("12월 5일 (금)") && ko.contains("함 → 안 함") && ko.contains("2025년 12월 10일 10:00"), "\(ko)")
        // The history page links to it with its month.
        #expect(f.get("/guardian/child/\(child)/history", cookie: cookie, query: ["month": "2025-12"]).text
            .contains("href=\"/guardian/child/\(child)/report?month=2025-12\""))
        // A month before any routine: nothing counted, nothing corrected; a month not begun: said so.
        let november = f.get("/guardian/child/\(child)/report", cookie: cookie, query: ["month": "2025-11", "paper": "letter", "lang": "en"]).text
        #expect(november.contains("class=\"paper-letter\"") && november.contains("No routine was part of this month&#39;s days.")
                && november.contains("data-report=\"no-corrections\""), "\(november)")
        // Another language keeps the month and the paper.
        #expect(november.contains("href=\"/guardian/child/\(child)/report?month=2025-11&amp;paper=letter&amp;lang=ko\""), "\(november)")
        #expect(f.get("/guardian/child/\(child)/report", cookie: cookie, query: ["month": "2026-01"]).text.contains("data-report=\"not-yet\""))
    }
}
