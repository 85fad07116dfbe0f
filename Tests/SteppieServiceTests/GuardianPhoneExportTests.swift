import Foundation
import SteppieBackup
import SteppieCore
import SteppieGuardianWeb
import Testing

/// The backup page's "Export for the phone app" (issue 26, item 5): the form names the children
/// and both phones; it downloads a zip that passes every reading rule of that phone app; a bad
/// choice is refused on the page with nothing written.
@Suite("Guardian pages: export for the phone app")
struct GuardianPhoneExportTests {
    @Test("the export form downloads an archive that passes every reading rule of the chosen phone", arguments: ["ios", "android"])
    func exportDownloads(_ platform: String) throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        let page = f.get("/guardian/backup", cookie: cookie)
        #expect(page.status == 200 && page.text.contains("data-form=\"backup-phone\""), "\(page.text)")
        #expect(page.text.contains("<option value=\"\(f.child.id.lowercased)\">Mina</option>"))
        #expect(page.text.contains("<option value=\"ios\">iOS</option>") && page.text.contains("<option value=\"android\">Android</option>"))
        #expect(page.text.contains("data-hint=\"phone-left-out\""))

        _ = try f.store.complete(childId: f.child.id, day: LocalDay(f.wall.now(), in: GuardianWebFixture.zone), at: f.wall.now())
        let download = f.post("/guardian/backup/phone", cookie: cookie, form: ["csrf": csrf, "child": f.child.id.lowercased, "platform": platform])
        #expect(download.status == 200 && download.contentType == "application/zip", "\(download.text)")
        // 2025-12-01 09:00 in Seoul.
        #expect(download.header("Content-Disposition") == "attachment; filename=\"steppie-backup-20251201-090000.zip\"")
        let archive = try #require(download.file).contents()
        let zip = f.directory + "/steppie-backup-20251201-090000.zip"
        try Data(archive).write(to: URL(fileURLWithPath: zip))
        let rules = try PhoneReadingRules(archive: zip, target: platform == "ios" ? .ios : .android)
        #expect(!rules.verdicts.isEmpty)
        for verdict in rules.verdicts {
            #expect(verdict.ok, "reading rule \(verdict.rule) is broken: \(verdict.detail)")
        }
        // Our own importer reads it back as that phone's backup of one child.
        let plan = try BackupVerifier().verify(archive: URL(fileURLWithPath: zip), at: f.wall.now())
        #expect(plan.sourcePlatform.rawValue == platform && plan.counts.children == 1 && plan.counts.routines == 6 && plan.counts.dailyLogs == 1)
        // Nothing stays in the upload folder.
        let left = (try? FileManager.default.contentsOfDirectory(atPath: f.directory + "/.steppie-uploads")) ?? []
        #expect(left.isEmpty, "\(left)")
    }

    @Test("an unknown phone or child is refused on the page, naming the field, with nothing changed")
    func badChoicesAreRefused() throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        let before = try f.dump()
        let phone = f.post("/guardian/backup/phone", cookie: cookie, form: ["csrf": csrf, "child": f.child.id.lowercased, "platform": "windows"])
        #expect(phone.status == 400 && phone.text.contains("data-error-field=\"platform\"") && phone.file == nil)
        let child = f.post("/guardian/backup/phone", cookie: cookie, form: ["csrf": csrf, "child": UUID().uuidString, "platform": "ios"])
        #expect(child.status == 400 && child.text.contains("data-error-field=\"child\"") && child.file == nil)
        #expect(try f.dump() == before)
        // Without the page's token: refused like every other form.
        let forged = f.post("/guardian/backup/phone", cookie: cookie, form: ["child": f.child.id.lowercased, "platform": "ios"])
        #expect(forged.status == 403 && forged.file == nil)
    }
}
