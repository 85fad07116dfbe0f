import Foundation
import SteppieFeedback
import SteppieTestSupport
import Testing

/// Photos' and recorded prompts' content through sync, against real processes on loopback
/// (docs/sync.md, "Photos and recordings").
extension SyncProcessTests {
    /// A PNG the photo check accepts, its padding bytes `padding` (another value, another photo).
    static func png(padding: UInt8 = 0) -> [UInt8] { TestImages.png(fill: padding) }

    /// The SHA-256 of a file (lowercase hex), "" when it is not there.
    static func sha(_ node: SyncNode, _ path: String) -> String {
        String(node.h.sh("sha256sum '\(path)' 2>/dev/null | cut -c1-64").out.prefix(64))
    }

    static func folder(_ node: SyncNode) -> String { (node.h.db as NSString).deletingLastPathComponent }

    /// Waits until `ok` holds (at most `timeout` seconds).
    static func eventually(_ timeout: Double = 15, _ ok: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if ok() { return true }
            usleep(50_000)
        }
        return ok()
    }

    /// `METHOD url` with curl (certificate not checked: a hostile peer); the status and the body.
    static func blobRequest(_ node: SyncNode, _ method: String, _ url: String, sha: String, file: String? = nil,
                            credential: String) -> (status: Int, body: String) {
        let data = file.map { "--data-binary @\($0)" } ?? ""
        let verb = method == "HEAD" ? "-I" : "-X \(method)"
        // A GET's answer is the blob's bytes: its SHA-256 is printed instead.
        let show = method == "GET" ? "sha256sum $D/answer | cut -c1-64" : "cat $D/answer"
        let r = node.h.sh("""
            curl -sk -o $D/answer -w '%{http_code}' \(verb) -H 'Authorization: Bearer \(credential)' \(data) \(url)/sync/v1/blob/\(sha); \
            echo; \(show)
            """)
        let lines = r.out.split(separator: "\n", maxSplits: 1).map(String.init)
        return (Int(lines.first ?? "") ?? -1, lines.count > 1 ? lines[1] : "")
    }

    @Test func photosAndRecordingsArriveByteIdenticalOnceAndOnlyWhereTheyMayGo() throws {
        let hub = SyncNode(), home = SyncNode(), school = SyncNode()
        defer { [hub, home, school].forEach { $0.stop() } }
        #expect(hub.sh("$S init --child Mina --template morning").status == 0)
        #expect(hub.sh("$S children add Joon").status == 0)
        #expect(hub.sh("$S set create --child Joon --template school --activate").status == 0)
        try hub.start(["--hub", "127.0.0.1:0"])
        let (url, fingerprint) = try #require(hub.hubAddress(), "hub log: \(hub.log)")
        let homeCode = try #require(Self.code(hub.sh("$S sync invite --json")))
        #expect(home.sh("$S sync join \(url) --code \(homeCode) --fingerprint \(fingerprint) --name home").status == 0)
        let schoolCode = try #require(Self.code(hub.sh("$S sync invite --child Mina --json")))
        #expect(school.sh("$S sync join \(url) --code \(schoolCode) --fingerprint \(fingerprint) --name school").status == 0)
        try home.start()
        try school.start()
        // School holds Mina only: its digest is its own; home and the hub hold everything.
        #expect(Self.converge([hub, home]) != nil)

        // On home: one photo on two of Mina's routines, and a recording of the first one's title.
        let routines = home.h.query("""
            SELECT r.id FROM routines r JOIN routine_sets s ON s.id = r.routine_set_id JOIN children c ON c.id = s.child_id
            WHERE c.display_name = 'Mina' ORDER BY r.sort_order LIMIT 2
            """).split(separator: "\n").map(String.init)
        try #require(routines.count == 2)
        let photo = home.h.directory + "/cat.png", take = home.h.directory + "/take.wav"
        FileManager.default.createFile(atPath: photo, contents: Data(Self.png()))
        let samples = (0..<24_000).map { Int16(0.5 * 32767 * sin(2 * .pi * 330 * Double($0) / 48_000)) }
        try SoundFile.writeWAV(samples, to: take, sampleRate: 48_000)
        let photoSha = Self.sha(home, photo), takeSha = Self.sha(home, take)
        for routine in routines {
            let set = home.sh("$S routine photo \(routine) \(photo)")
            #expect(set.status == 0, "\(set.err)")
        }
        #expect(home.sh("$S routine record \(routines[0]) --locale en \(take)").status == 0)

        // School and the hub hold the same bytes under their hash, and the rows point at them.
        let photoName = "assets/routine-photo-\(photoSha).png", takeName = "recordings/\(takeSha).audio"
        for node in [hub, school] {
            #expect(Self.eventually { Self.sha(node, Self.folder(node) + "/" + photoName) == photoSha
                && Self.sha(node, Self.folder(node) + "/" + takeName) == takeSha },
                    "files: \(node.h.sh("ls -R \(Self.folder(node))").out)")
        }
        #expect(Self.converge([hub, home]) != nil)
        #expect(school.h.query("SELECT COUNT(*) FROM routines WHERE json_extract(icon, '$.backupAssetName') = 'routine-photo-\(photoSha).png'") == "2")
        #expect(school.h.query("SELECT file_name || ' ' || sha256 FROM routine_recordings WHERE routine_id = '\(routines[0])' AND locale = 'en'")
                == "\(takeSha).audio \(takeSha)")
        // Sent once: the photo on two routines is one PUT (the hub says each blob it stores).
        #expect(hub.log.components(separatedBy: "stored content").count - 1 == 2, "hub log: \(hub.log)")

        // Bytes that do not hash to their name are refused, and nothing is stored.
        let credential = home.h.query("SELECT credential FROM sync_state")
        let other = home.h.directory + "/other.png"
        FileManager.default.createFile(atPath: other, contents: Data(Self.png(padding: 9)))
        let otherSha = Self.sha(home, other)
        let wrongName = String(repeating: "a", count: 64)
        let refused = Self.blobRequest(home, "PUT", url, sha: wrongName, file: other, credential: credential)
        #expect(refused.status == 409 && refused.body.contains("malformed"), "\(refused)")
        #expect(hub.h.sh("ls \(Self.folder(hub))/assets \(Self.folder(hub))/recordings").out.contains(wrongName) == false)
        #expect(Self.blobRequest(home, "HEAD", url, sha: wrongName, credential: credential).status == 404)
        #expect(Self.blobRequest(home, "HEAD", url, sha: photoSha, credential: credential).status == 200)
        #expect(Self.blobRequest(home, "GET", url, sha: photoSha, credential: String(repeating: "0", count: 64)).status == 401)

        // A photo of Joon's (set on the hub): home, given every child, may read it; school may not.
        let joonId = hub.h.query("""
            SELECT r.id FROM routines r JOIN routine_sets s ON s.id = r.routine_set_id JOIN children c ON c.id = s.child_id
            WHERE c.display_name = 'Joon' LIMIT 1
            """)
        let hubOther = hub.h.directory + "/other.png"
        FileManager.default.createFile(atPath: hubOther, contents: Data(Self.png(padding: 9)))
        #expect(hub.sh("$S routine photo \(joonId) \(hubOther)").status == 0)
        #expect(Self.eventually { Self.sha(home, Self.folder(home) + "/assets/routine-photo-\(otherSha).png") == otherSha })
        let schoolCredential = school.h.query("SELECT credential FROM sync_state")
        #expect(Self.blobRequest(school, "GET", url, sha: otherSha, credential: schoolCredential).status == 404)
        #expect(Self.blobRequest(home, "GET", url, sha: otherSha, credential: credential).status == 200)
        let read = Self.blobRequest(school, "GET", url, sha: photoSha, credential: schoolCredential)
        #expect(read.status == 200 && read.body.hasPrefix(photoSha), "\(read)")
        #expect(!FileManager.default.fileExists(atPath: Self.folder(school) + "/assets/routine-photo-\(otherSha).png"))
    }
}

extension SyncProcessTests {
    /// The same content rules through `steppie hub` on PostgreSQL (issue 28: the blob routes of the
    /// centre's hub): bytes kept once in `blobs` under their hash, byte-identical on the devices
    /// that may have them, refused when they do not hash to their name, and never given to a
    /// device not given their child.
    @Test func theCentresHubKeepsContentOnceAndGivesItOnlyWhereItMayGo() throws {
        guard HubKind.available.contains(.centre) else { return }
        let hub = try SyncHubUnderTest(.centre), home = SyncNode(), school = SyncNode()
        let office = hub.office
        defer { hub.stop(); [home, school].forEach { $0.stop() } }
        #expect(office.sh("$S init --child Mina --template morning").status == 0)
        #expect(office.sh("$S children add Joon").status == 0)
        #expect(office.sh("$S set create --child Joon --template school --activate").status == 0)
        try hub.start()
        let (url, fingerprint) = try #require(hub.address(), "hub log: \(hub.log)")
        let homeCode = try #require(Self.code(hub.invite()))
        #expect(home.sh("$S sync join \(url) --code \(homeCode) --fingerprint \(fingerprint) --name home").status == 0)
        let schoolCode = try #require(Self.code(hub.invite(["Mina"])))
        #expect(school.sh("$S sync join \(url) --code \(schoolCode) --fingerprint \(fingerprint) --name school").status == 0)
        try home.start()
        try school.start()
        #expect(Self.converge([hub, office, home]) != nil)

        // On home: one photo on two of Mina's routines, and a recording of the first one's title.
        let routines = home.h.query("""
            SELECT r.id FROM routines r JOIN routine_sets s ON s.id = r.routine_set_id JOIN children c ON c.id = s.child_id
            WHERE c.display_name = 'Mina' ORDER BY r.sort_order LIMIT 2
            """).split(separator: "\n").map(String.init)
        try #require(routines.count == 2)
        let photo = home.h.directory + "/cat.png", take = home.h.directory + "/take.wav"
        FileManager.default.createFile(atPath: photo, contents: Data(Self.png(padding: 3)))
        let samples = (0..<24_000).map { Int16(0.4 * 32767 * sin(2 * .pi * 440 * Double($0) / 48_000)) }
        try SoundFile.writeWAV(samples, to: take, sampleRate: 48_000)
        let photoSha = Self.sha(home, photo), takeSha = Self.sha(home, take)
        for routine in routines { #expect(home.sh("$S routine photo \(routine) \(photo)").status == 0) }
        #expect(home.sh("$S routine record \(routines[0]) --locale en \(take)").status == 0)

        // The office and school devices hold the same bytes; the hub holds each once, whole.
        let photoName = "assets/routine-photo-\(photoSha).png", takeName = "recordings/\(takeSha).audio"
        for node in [office, school] {
            #expect(Self.eventually { Self.sha(node, Self.folder(node) + "/" + photoName) == photoSha
                && Self.sha(node, Self.folder(node) + "/" + takeName) == takeSha },
                    "files: \(node.h.sh("ls -R \(Self.folder(node))").out)")
        }
        let kept = hub.schema?.query("SELECT sha256 || ' ' || (encode(sha256(bytes), 'hex') = sha256) || ' ' || (size = length(bytes)) FROM blobs ORDER BY sha256") ?? ""
        #expect(kept == [photoSha, takeSha].sorted().map { "\($0) true true" }.joined(separator: "\n"), "\(kept)")

        // Bytes that do not hash to their name are refused, and nothing is stored.
        let credential = home.h.query("SELECT credential FROM sync_state")
        let other = home.h.directory + "/other.png"
        FileManager.default.createFile(atPath: other, contents: Data(Self.png(padding: 11)))
        let otherSha = Self.sha(home, other)
        let wrongName = String(repeating: "b", count: 64)
        let refused = Self.blobRequest(home, "PUT", url, sha: wrongName, file: other, credential: credential)
        #expect(refused.status == 409 && refused.body.contains("malformed"), "\(refused)")
        #expect(hub.schema?.query("SELECT COUNT(*) FROM blobs") == "2")
        #expect(Self.blobRequest(home, "HEAD", url, sha: wrongName, credential: credential).status == 404)
        #expect(Self.blobRequest(home, "HEAD", url, sha: photoSha, credential: credential).status == 200)
        #expect(Self.blobRequest(home, "GET", url, sha: photoSha, credential: String(repeating: "0", count: 64)).status == 401)

        // A photo of Joon's (set on the office device): home, given every child, gets it; school,
        // given Mina only, is told there is none.
        let joonRoutine = office.h.query("""
            SELECT r.id FROM routines r JOIN routine_sets s ON s.id = r.routine_set_id JOIN children c ON c.id = s.child_id
            WHERE c.display_name = 'Joon' LIMIT 1
            """)
        let officeOther = office.h.directory + "/other.png"
        FileManager.default.createFile(atPath: officeOther, contents: Data(Self.png(padding: 11)))
        #expect(office.sh("$S routine photo \(joonRoutine) \(officeOther)").status == 0)
        #expect(Self.eventually { Self.sha(home, Self.folder(home) + "/assets/routine-photo-\(otherSha).png") == otherSha })
        let schoolCredential = school.h.query("SELECT credential FROM sync_state")
        #expect(Self.blobRequest(school, "GET", url, sha: otherSha, credential: schoolCredential).status == 404)
        #expect(Self.blobRequest(home, "GET", url, sha: otherSha, credential: credential).body.hasPrefix(otherSha))
        let read = Self.blobRequest(school, "GET", url, sha: photoSha, credential: schoolCredential)
        #expect(read.status == 200 && read.body.hasPrefix(photoSha), "\(read)")
        #expect(!FileManager.default.fileExists(atPath: Self.folder(school) + "/assets/routine-photo-\(otherSha).png"))
    }
}
