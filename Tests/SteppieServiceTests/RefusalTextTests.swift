import Foundation
import SteppieCore
@testable import SteppieGuardianWeb
import SteppieService
import SteppieStore
import SteppieTestSupport
import Synchronization
import Testing

/// A refusal page says what went wrong in the guardian's words (issue 24, class 10): never a path
/// of the server's data folder, never a Swift value (`notAZip(path: …)`, `errno: 28`), over the
/// home network too. Each failure here is provoked for real: a damaged upload, a folder that
/// cannot be made, a database that refuses the write.
@Suite struct RefusalTextTests {
    /// Text a page must not carry: the data folder (and `/tmp`, where it lives), Swift-ish
    /// descriptions of error values, SQLite's own words and SQL.
    static func leaks(_ page: String, folder: String) -> [String] {
        let tells = [folder, "/tmp/", "Error(", "errno:", "errno ", "path:", "reason:", "sqlite(", "SQLite error", "INSERT", "UPDATE ",
                     "notAZip", "fileSystem(", "system(", "FileRefusal", "StoreError", "BackupError", "code:", "message:"]
        return tells.filter { page.contains($0) }
    }

    static func sqlite(_ db: String, _ sql: String) {
        #expect(SpawnedProcess.run("/usr/bin/sqlite3", [db, sql]) == 0, "sqlite3 \(sql)")
    }

    @Test func aDamagedArchiveIsRefusedInPlainWords() throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        for (name, bytes) in [("not a zip", Array("PK\u{03}\u{04}this is not really an archive".utf8)),
                              ("text", Array("hello".utf8)),
                              ("empty zip", [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18))] {
            let page = f.post("/guardian/backup/restore", cookie: cookie, form: ["csrf": csrf],
                              files: ["archive": UploadedFile(filename: "b.zip", contentType: "application/zip", bytes: bytes)])
            #expect(page.status == 400, "\(name)")
            #expect(page.text.contains("data-error-field=\"archive\""), "\(name)")
            #expect(Self.leaks(page.text, folder: f.directory).isEmpty, "\(name): \(Self.leaks(page.text, folder: f.directory)) in \(Self.errorText(page.text))")
            print("refusal page (\(name)): \(Self.errorText(page.text).prefix(300))")
        }
    }

    @Test func aFolderThatCannotBeMadeIsNamedAsAFileProblemNotByItsPath() throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        // The uploads folder and the photos folder are files: nothing can be written under them.
        let uploads = (f.db as NSString).deletingLastPathComponent + "/.steppie-uploads"
        _ = FileManager.default.createFile(atPath: uploads, contents: Data("x".utf8))
        _ = FileManager.default.createFile(atPath: f.photos.path, contents: Data("x".utf8))
        let download = f.post("/guardian/backup/create", cookie: cookie, form: ["csrf": csrf])
        #expect(download.status == 500)
        #expect(Self.leaks(download.text, folder: f.directory).isEmpty, "\(Self.leaks(download.text, folder: f.directory)) in \(Self.errorText(download.text))")
        let upload = f.post("/guardian/backup/restore", cookie: cookie, form: ["csrf": csrf],
                            files: ["archive": UploadedFile(filename: "b.zip", contentType: "application/zip", bytes: Array("PK".utf8))])
        #expect(upload.status == 500)
        #expect(Self.leaks(upload.text, folder: f.directory).isEmpty, "\(Self.leaks(upload.text, folder: f.directory)) in \(Self.errorText(upload.text))")

        let set = try #require(try f.store.activeSet(childId: f.child.id))
        let photo = f.post("/guardian/set/\(set.id.lowercased)/add", cookie: cookie, form: ["titleEn": "Cat", "csrf": csrf],
                           files: ["photo": UploadedFile(filename: "c.png", contentType: "image/png", bytes: GuardianWebFixture.pngBytes())])
        #expect(photo.status == 400 && photo.text.contains("data-error-field=\"photo\""))
        #expect(Self.leaks(photo.text, folder: f.directory).isEmpty, "\(Self.leaks(photo.text, folder: f.directory)) in \(Self.errorText(photo.text))")
    }

    @Test func aStoreFailureIsNamedAsOneWithoutSQLAndTheLogHasTheDetail() throws {
        let f = try GuardianWebFixture()
        // Pages of their own on the fixture's database, whose log lines are kept.
        let log = LogLines()
        var config = try GuardianWebFixture.config(db: f.db, photos: f.photos, secure: f.secure, wall: f.wall, played: f.played)
        config.report = { line in log.lines.withLock { $0.append(line) } }
        let web = try GuardianWeb(config: config)
        let signIn = web.handle(WebRequest(method: "POST", path: ["guardian", "sign-in"], form: ["pin": GuardianWebFixture.pin]))
        let cookie = try #require(signIn.header("Set-Cookie")?.split(separator: ";").first?.split(separator: "=").last.map(String.init))
        let home = web.handle(WebRequest(method: "GET", path: ["guardian"], cookies: [GuardianWeb.cookieName: cookie]))
        let csrf = try #require(GuardianWebFixture.csrf(in: home.text))
        // Another program makes the database refuse new routines (as a failing disk would).
        Self.sqlite(f.db, "CREATE TRIGGER refuse BEFORE INSERT ON routines BEGIN SELECT RAISE(ABORT, 'refused by a test'); END;")
        let set = try #require(try f.store.activeSet(childId: f.child.id))
        let before = try f.dump()
        let page = web.handle(WebRequest(method: "POST", path: ["guardian", "set", set.id.lowercased, "add"], cookies: [GuardianWeb.cookieName: cookie],
                                         form: ["titleEn": "Feed the cat", "csrf": csrf], sameOrigin: true))
        #expect(page.status == 400)
        #expect(page.text.contains("data-screen"), "a page, not a crash")
        #expect(Self.leaks(page.text, folder: f.directory).isEmpty, "\(Self.leaks(page.text, folder: f.directory)) in \(Self.errorText(page.text))")
        #expect(!page.text.contains("refused by a test"), "SQLite's message stays in the log")
        print("refusal page (store): \(Self.errorText(page.text).prefix(300))")
        // The whole detail went to the log: which page, and SQLite's own words.
        let lines = log.lines.withLock { $0 }
        #expect(lines.count == 1 && lines.first?.contains("refused by a test") == true, "\(lines)")
        // …as arguments of catalog sentences in the device's language, not Swift's description.
        #expect(lines.first?.contains("SQLite code 1811: refused by a test; in: INSERT") == true, "\(lines)")
        for tell in ["Error(", "sqlite(", "SQLite error", "code:", "message:", "StoreError"] { #expect(lines.first?.contains(tell) == false, "\(lines)") }
        #expect(lines.first?.contains("/guardian/set/\(set.id.lowercased)/add") == true, "\(lines)")
        #expect(try f.dump() == before)
    }

    /// The pages' generic failure text and the command line say the same sentence for the same
    /// error in the same language (issue 25, item 5): both go through the one renderer of
    /// catalog messages. The command line's is its real standard error, on the fixture's database.
    @Test(arguments: ["ko", "en"])
    func thePageFallbackSaysTheCommandLinesSentence(_ locale: String) throws {
        let f = try GuardianWebFixture()
        let cli = ServiceFixture()
        let lang = locale == "ko" ? "ko_KR.UTF-8" : "en_US.UTF-8"
        let run = cli.run(["undo", "--child", "Mina", "--no-service"], extra: ["STEPPIE_DB": f.db, "LANG": lang, "LC_ALL": lang])
        #expect(run.status == 1, "\(run.err)")
        let said = run.err.trimmingCharacters(in: .newlines)
        let sentence = try #require(said.hasPrefix("steppie: ") ? String(said.dropFirst("steppie: ".count)) : nil, "\(said)")

        let log = LogLines()
        var config = try GuardianWebFixture.config(db: f.db, photos: f.photos, secure: f.secure, wall: f.wall, played: f.played)
        config.report = { line in log.lines.withLock { $0.append(line) } }
        var request = GuardianWeb.Request(web: WebRequest(method: "POST", path: ["guardian", "undo"]), store: f.store, config: config)
        request.locale = locale
        let shown = request.pageError(StoreError.nothingToUndo)
        #expect(shown.field == nil)
        #expect(shown.message == request.t("web.error.failed", ["reason": sentence]), "\(shown.message) vs \(sentence)")
        // A failure that would show a server path keeps the pages' own words; the log has the path.
        let full = request.pageError(StoreError.file(.system(path: f.db, operation: "open", errno: ENOSPC, reason: "No space left on device")))
        #expect(full.message == request.t("web.error.failed", ["reason": request.t("web.failure.noSpace")]))
        #expect(Self.leaks(full.message, folder: f.directory).isEmpty)
        let lines = log.lines.withLock { $0 }
        #expect(lines.count == 2 && lines.last?.contains(f.directory) == true, "the log has the path: \(lines)")
        for line in lines {
            for tell in ["Error(", "errno:", "path:", "file(", "system(", "StoreError", "FileRefusal"] { #expect(!line.contains(tell), "\(line)") }
        }
    }

    /// The error block of a page, for the failure message.
    static func errorText(_ html: String) -> String {
        guard let at = html.range(of: "data-error") else { return String(html.prefix(400)) }
        return String(html[at.lowerBound...].prefix(600))
    }
}

/// The log lines pages reported, from any thread.
final class LogLines: Sendable {
    let lines = Mutex<[String]>([])
}
