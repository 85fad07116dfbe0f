import Foundation
import SteppieCore
import SteppieGuardianWeb
import SteppieService
import SteppieStore
import Testing

/// Uploads waiting for a confirmation and downloads (issue 24, class 9): an archive waits only as
/// long as its session — sign-out, idle end (the service's sweep, not the next sign-in), eviction
/// by newer sessions, a PIN change — and a restart removes what a stopped or killed service left;
/// a download is sent from its file.
@Suite("Guardian pages: uploads and downloads are bounded")
struct GuardianUploadTests {
    /// A fixture, a session and the archive of its database (downloaded from the pages).
    static func staged() throws -> (f: GuardianWebFixture, cookie: String, csrf: String, archive: [UInt8]) {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        let download = f.post("/guardian/backup/create", cookie: cookie, form: ["csrf": csrf])
        let archive = try #require(download.file).contents()
        #expect(download.status == 200 && !archive.isEmpty)
        return (f, cookie, csrf, archive)
    }

    static func upload(_ f: GuardianWebFixture, cookie: String, csrf: String, _ archive: [UInt8]) -> WebResponse {
        f.post("/guardian/backup/restore", cookie: cookie, form: ["csrf": csrf],
               files: ["archive": UploadedFile(filename: "b.zip", contentType: "application/zip", bytes: archive)])
    }

    static func waiting(_ f: GuardianWebFixture) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: f.directory + "/.steppie-uploads")) ?? []).sorted()
    }

    @Test("a download is an open file already unlinked, with its headers; nothing stays in the upload folder")
    func downloadFromFile() throws {
        let (f, cookie, csrf, _) = try Self.staged()
        let download = f.post("/guardian/backup/create", cookie: cookie, form: ["csrf": csrf])
        let file = try #require(download.file)
        #expect(download.body.isEmpty && file.size > 0 && file.contents().count == Int(file.size))
        #expect(download.contentType == "application/zip")
        #expect(download.header("Content-Disposition")?.hasPrefix("attachment; filename=\"") == true)
        #expect(Self.waiting(f).isEmpty, "\(Self.waiting(f))")
    }

    @Test("an idle session's waiting archive is removed by the sweep, without a new sign-in")
    func idleEnd() throws {
        let (f, cookie, csrf, archive) = try Self.staged()
        #expect(Self.upload(f, cookie: cookie, csrf: csrf, archive).status == 200)
        #expect(Self.waiting(f).count == 1)
        f.web.sweepSessions()
        #expect(Self.waiting(f).count == 1, "a live session keeps its archive")
        f.secure.advance(by: GuardianSession.idleTimeout + 1)
        f.web.sweepSessions()
        #expect(Self.waiting(f).isEmpty, "\(Self.waiting(f))")
        #expect(f.web.sessionCount == 0)
        #expect(f.web.uploads.diskBytes == 0)
    }

    @Test("sign-out removes the session's waiting archive")
    func signOut() throws {
        let (f, cookie, csrf, archive) = try Self.staged()
        #expect(Self.upload(f, cookie: cookie, csrf: csrf, archive).status == 200)
        #expect(f.web.uploads.diskBytes == archive.count)
        #expect(f.post("/guardian/sign-out", cookie: cookie, form: ["csrf": csrf]).status == 303)
        #expect(Self.waiting(f).isEmpty, "\(Self.waiting(f))")
        #expect(f.web.uploads.diskBytes == 0)
    }

    @Test("a session evicted by newer ones takes its waiting archive with it")
    func eviction() throws {
        let (f, cookie, csrf, archive) = try Self.staged()
        #expect(Self.upload(f, cookie: cookie, csrf: csrf, archive).status == 200)
        #expect(Self.waiting(f).count == 1)
        // 16 more sign-ins (a second apart, so the first is the one idle longest): it is evicted.
        for _ in 0..<16 {
            f.secure.advance(by: 1)
            _ = try f.signIn()
        }
        #expect(f.get("/guardian/", cookie: cookie).text.contains("data-screen=\"sign-in\""))
        #expect(Self.waiting(f).isEmpty, "\(Self.waiting(f))")
    }

    @Test("a new PIN (recovery) signs everyone out and removes their waiting archives")
    func pinChange() throws {
        let (f, cookie, csrf, archive) = try Self.staged()
        #expect(Self.upload(f, cookie: cookie, csrf: csrf, archive).status == 200)
        let recovered = f.post("/guardian/recover", form: ["code": GuardianWebFixture.recoveryCode, "newPin": "9753", "newPin2": "9753"])
        #expect(recovered.status == 200)
        #expect(Self.waiting(f).isEmpty, "\(Self.waiting(f))")
    }

    @Test("a restart removes what a killed service left in the upload folder; a second upload replaces the first")
    func leftovers() throws {
        let (f, cookie, csrf, archive) = try Self.staged()
        #expect(Self.upload(f, cookie: cookie, csrf: csrf, archive).status == 200)
        #expect(Self.upload(f, cookie: cookie, csrf: csrf, archive).status == 200)
        #expect(Self.waiting(f).count == 1, "the second upload replaced the first: \(Self.waiting(f))")
        // What a SIGKILL leaves: an archive waiting and a download half written.
        let folder = f.directory + "/.steppie-uploads"
        for name in ["upload-0123456789abcdef0123456789abcdef.zip", "download-0123456789abcdef.zip"] {
            #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(archive)))
        }
        #expect(Self.waiting(f).count == 3)
        try f.restart()
        #expect(Self.waiting(f).isEmpty, "\(Self.waiting(f))")
    }
}
