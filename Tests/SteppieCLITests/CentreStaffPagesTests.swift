import Foundation
import SteppiePostgres
import SteppieTestSupport
import Testing

/// The staff pages of `steppie hub` (docs/centre.md, "The staff pages") against real hub
/// processes on the private PostgreSQL of `scripts/with-postgres.sh`, through curl over HTTPS.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["STEPPIE_TEST_POSTGRES"] != nil,
                             "STEPPIE_TEST_POSTGRES is unset: run under scripts/with-postgres.sh (scripts/test.sh does)"))
struct CentreStaffPagesTests {
    /// A centre: its schema, Ada (admin), Eve (editor), Vic (viewer), and hub processes on it.
    final class Centre {
        let conninfo: String
        let drop: () -> Void
        let h = BinaryHarness()
        var hubs: [SpawnedProcess] = []

        init() throws {
            (conninfo, drop) = try CentreHubProcessTests.schema()
            #expect(hub("staff add Ada --role admin --password-stdin", "ada password 1\n").status == 0)
            #expect(hub("staff add Eve --role editor --as Ada --password-stdin", "ada password 1\neve password 1\n").status == 0)
            #expect(hub("staff add Vic --role viewer --as Ada --password-stdin", "ada password 1\nvic password 1\n").status == 0)
        }

        deinit {
            hubs.forEach { $0.stop(SIGTERM) }
            drop()
        }

        @discardableResult
        func hub(_ command: String, _ input: String? = nil) -> BinaryHarness.Result {
            h.sh("$S hub \(command) --postgres \"$PG\"", env: ["PG": conninfo], input: input)
        }

        /// Starts one more hub process; its base URL (`https://127.0.0.1:PORT`).
        func start() throws -> String {
            let log = h.directory + "/hub\(hubs.count).log"
            var environment = ProcessInfo.processInfo.environment
            environment["LANG"] = "en_US.UTF-8"
            hubs.append(try SpawnedProcess(CLIHarness.binary, ["hub", "--postgres", conninfo, "--listen", "127.0.0.1:0"],
                                           environment: environment, stdoutPath: log, stderrPath: log))
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                if let line = text.split(separator: "\n").last(where: { $0.contains("sync hub on https://") }),
                   let url = line.split(separator: " ").first(where: { $0.hasPrefix("https://") }) {
                    return String(url)
                }
                usleep(50_000)
            }
            Issue.record("hub did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            throw CancellationError()
        }

        func count(_ sql: String) throws -> Int64 {
            try PostgresConnection(conninfo: conninfo).queryFirst(sql, [], { try $0.int(0) }) ?? -1
        }
    }

    /// A browser's cookies and requests, through curl (the hub's self-signed certificate not checked).
    final class Browser {
        let directory: String
        var base: String
        init(_ base: String, in directory: String) {
            self.base = base
            self.directory = directory + "/browser-" + UUID().uuidString
            mkdir(self.directory, 0o700)
        }

        struct Answer {
            let status: Int
            let body: String
            let headers: String
        }

        func request(_ path: String, form: [String: String]? = nil, origin: String? = nil, accept: String? = nil) -> Answer {
            var args = ["-sk", "-o", directory + "/body", "-D", directory + "/headers", "-w", "%{http_code}",
                        "-b", directory + "/jar", "-c", directory + "/jar"]
            args += ["-H", "Accept-Language: en-GB,en;q=0.9"]
            if let accept { args += ["-H", "Accept: \(accept)"] }
            if let form {
                args += ["-H", "Origin: \(origin ?? base)", "--data", ""]
                for (k, v) in form.sorted(by: { $0.key < $1.key }) { args += ["--data-urlencode", "\(k)=\(v)"] }
            }
            args.append(base + path)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            p.arguments = args
            let out = Pipe()
            p.standardOutput = out
            try? p.run()
            let code = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            return Answer(status: Int(code) ?? -1, body: (try? String(contentsOfFile: directory + "/body", encoding: .utf8)) ?? "",
                          headers: (try? String(contentsOfFile: directory + "/headers", encoding: .utf8)) ?? "")
        }

        /// The first `name="csrf" value="…"` of a page.
        static func csrf(_ page: String) -> String? {
            guard let range = page.range(of: "name=\"csrf\" value=\"") else { return nil }
            return String(page[range.upperBound...].prefix(64))
        }

        /// Signs in (the sign-in page first, for its CSRF cookie); the overview's CSRF token.
        func signIn(_ name: String, _ password: String) -> (Answer, csrf: String?) {
            let page = request("/staff/sign-in")
            let answer = request("/staff/sign-in", form: ["csrf": Self.csrf(page.body) ?? "", "name": name, "password": password])
            let admin = request("/staff/admin")
            return (answer, Self.csrf(admin.body))
        }
    }

    @Test func wrongPasswordsBackOffAndTheCookieIsSecureHttpOnlyStrict() throws {
        let centre = try Centre()
        let url = try centre.start()
        let browser = Browser(url, in: centre.h.directory)
        let page = browser.request("/staff/sign-in")
        #expect(page.status == 200 && page.body.contains("data-screen=\"sign-in\""), "\(page.status) \(page.body)")
        // Four free wrong passwords, the fifth locks the name: then even the right one waits.
        for attempt in 1...5 {
            let (wrong, _) = browser.signIn("Ada", "not the password \(attempt)")
            #expect(wrong.status == 401 && wrong.body.contains("Wrong name or password"), "attempt \(attempt): \(wrong.status)")
        }
        let (locked, _) = browser.signIn("Ada", "ada password 1")
        #expect(locked.status == 429 && locked.body.contains("Try again in"), "\(locked.status) \(locked.body)")
        #expect(try centre.count("SELECT COUNT(*) FROM staff_sessions") == 0)
        // Another name is not locked; its session cookie is Secure, HttpOnly, SameSite=Strict.
        let (signedIn, csrf) = browser.signIn("Eve", "eve password 1")
        #expect(signedIn.status == 303, "\(signedIn.status) \(signedIn.body)")
        let cookie = signedIn.headers.split(whereSeparator: \.isNewline).first { $0.lowercased().hasPrefix("set-cookie: steppie_staff=") } ?? ""
        #expect(cookie.contains("Secure") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "\(signedIn.headers.debugDescription)")
        #expect(csrf?.count == 64)
        // The database keeps the token's hash, not the token.
        let token = cookie.split(separator: "=", maxSplits: 1).last.map { String($0.prefix(64)) } ?? ""
        let hashes = try PostgresConnection(conninfo: centre.conninfo).query("SELECT token_hash FROM staff_sessions", [], { try $0.text(0) })
        #expect(hashes.count == 1 && !hashes.contains(token))
        // Signed out: the session is gone from the database and the cookie no longer opens a page.
        let out = browser.request("/staff/sign-out", form: ["csrf": csrf ?? ""])
        #expect(out.status == 303)
        #expect(try centre.count("SELECT COUNT(*) FROM staff_sessions") == 0)
        #expect(browser.request("/staff/").status == 302)
    }

    @Test func postsWithoutTheCSRFTokenOrFromAnotherOriginAreRefused() throws {
        let centre = try Centre()
        let browser = Browser(try centre.start(), in: centre.h.directory)
        let (_, csrf) = browser.signIn("Ada", "ada password 1")
        let token = try #require(csrf)
        #expect(browser.request("/staff/invite", form: [:]).status == 403)
        #expect(browser.request("/staff/invite", form: ["csrf": String(repeating: "0", count: 64)]).status == 403)
        #expect(browser.request("/staff/invite", form: ["csrf": token], origin: "https://evil.example").status == 403)
        // A sign-in form without its cookie's token is refused too.
        #expect(Browser(browser.base, in: centre.h.directory).request("/staff/sign-in", form: ["name": "Ada", "password": "ada password 1"]).status == 403)
        #expect(try centre.count("SELECT COUNT(*) FROM invites") == 0)
        // With it, the same form works.
        let made = browser.request("/staff/invite", form: ["csrf": token])
        #expect(made.status == 200 && made.body.contains("data-code"), "\(made.status)")
        #expect(try centre.count("SELECT COUNT(*) FROM invites") == 1)
    }

    @Test func aViewerChangesNothingAndAnEditorMakesNoJoiningCodeButAnAdminDoes() throws {
        let centre = try Centre()
        let url = try centre.start()
        let viewer = Browser(url, in: centre.h.directory)
        let (signedIn, csrf) = viewer.signIn("vic", "vic password 1")
        #expect(signedIn.status == 303)
        let token = try #require(csrf)
        let admin = viewer.request("/staff/admin")
        #expect(admin.status == 200 && !admin.body.contains("data-form=\"invite\"") && !admin.body.contains("data-form=\"add-staff\""))
        let before = (try centre.count("SELECT COUNT(*) FROM invites"), try centre.count("SELECT COUNT(*) FROM staff"),
                      try centre.count("SELECT COUNT(*) FROM devices"))
        for (path, form) in [("/staff/invite", [String: String]()),
                             ("/staff/staff/add", ["name": "Mallory", "password": "mallory password", "role": "admin"]),
                             ("/staff/device/remove", ["device": UUID().uuidString.lowercased()])] {
            let answer = viewer.request(path, form: form.merging(["csrf": token]) { a, _ in a })
            #expect(answer.status == 403, "\(path): \(answer.status)")
        }
        #expect(before == (try centre.count("SELECT COUNT(*) FROM invites"), try centre.count("SELECT COUNT(*) FROM staff"),
                           try centre.count("SELECT COUNT(*) FROM devices")))
        // The editor: no joining code either.
        let editor = Browser(url, in: centre.h.directory)
        let (_, editorToken) = editor.signIn("Eve", "eve password 1")
        #expect(editor.request("/staff/invite", form: ["csrf": editorToken ?? ""]).status == 403)
        #expect(try centre.count("SELECT COUNT(*) FROM invites") == 0)
        // The admin: a code and the hub's fingerprint.
        let ada = Browser(url, in: centre.h.directory)
        let (_, adaToken) = ada.signIn("Ada", "ada password 1")
        let made = ada.request("/staff/invite", form: ["csrf": adaToken ?? ""])
        let fingerprint = try PostgresConnection(conninfo: centre.conninfo).queryFirst("SELECT fingerprint FROM hub_identity", [], { try $0.text(0) })
        #expect(made.status == 200 && made.body.contains("data-code>") && made.body.contains(fingerprint ?? "none"), "\(made.body)")
        #expect(try centre.count("SELECT COUNT(*) FROM invites") == 1)
        // A device (its row as a join leaves it): the editor cannot remove it, the admin can.
        let device = UUID().uuidString.lowercased()
        try PostgresConnection(conninfo: centre.conninfo).run("""
            INSERT INTO devices (id, name, credential_hash, children, joined_at) VALUES ($1, 'Room 9', $2, '[]', '2026-12-04T09:00:00.000Z')
            """, [.text(device), .text(String(repeating: "a", count: 64))])
        #expect(editor.request("/staff/device/remove", form: ["csrf": editorToken ?? "", "device": device]).status == 403)
        #expect(try centre.count("SELECT COUNT(*) FROM devices") == 1)
        #expect(ada.request("/staff/admin").body.contains("data-device-id=\"\(device)\""))
        #expect(ada.request("/staff/device/remove", form: ["csrf": adaToken ?? "", "device": device]).status == 303)
        #expect(try centre.count("SELECT COUNT(*) FROM devices") == 0)
    }

    @Test func aSessionMadeOnOneHubProcessIsAcceptedByAnother() throws {
        let centre = try Centre()
        let a = try centre.start(), b = try centre.start()
        #expect(a != b)
        let browser = Browser(a, in: centre.h.directory)
        let (signedIn, csrf) = browser.signIn("Eve", "eve password 1")
        #expect(signedIn.status == 303)
        browser.base = b
        // A device last heard from 11 minutes ago (past the 10 minutes of docs/centre.md) and one just now.
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        for (name, contact) in [("Quiet room", now - 11 * 60_000), ("Busy room", now)] {
            try PostgresConnection(conninfo: centre.conninfo).run("""
                INSERT INTO devices (id, name, credential_hash, children, joined_at, last_contact)
                VALUES ($1, $2, $3, '[]', '2026-12-04T09:00:00.000Z', $4)
                """, [.text(UUID().uuidString.lowercased()), .text(name), .text(String(repeating: "b", count: 64)), .integer(contact)])
        }
        let overview = browser.request("/staff/")
        #expect(overview.body.contains("data-silent=\"true\"><span>Quiet room</span> <span data-cell=\"status\">not heard from since "),
                "\(overview.body)")
        #expect(overview.body.contains("data-silent=\"false\"><span>Busy room</span> <span data-cell=\"status\">heard from at "))
        #expect(overview.status == 200 && overview.body.contains("data-screen=\"overview\""), "\(overview.status)")
        // Without scripts the overview reloads itself; with them it polls the JSON every second.
        #expect(overview.body.contains("<noscript><meta http-equiv=\"refresh\" content=\"5\"></noscript>"))
        #expect(overview.body.contains("data-poll-ms=\"1000\""))
        #expect(browser.request("/staff/overview.json", accept: "application/json").body.contains("\"children\""))
        // Signed out on B: A no longer knows the cookie.
        #expect(browser.request("/staff/sign-out", form: ["csrf": csrf ?? ""]).status == 303)
        browser.base = a
        #expect(browser.request("/staff/").status == 302)
        #expect(browser.request("/staff/overview.json", accept: "application/json").status == 401)
    }

    @Test func hostileNamesShowEscapedAndRoundTripAsText() throws {
        let centre = try Centre()
        let hostile = "'); DROP TABLE staff; --<script>x</script>"
        #expect(centre.hub("group add \"$G\" --as Eve --password-stdin".replacingOccurrences(of: "$G", with: "'); DROP TABLE groups; --<b>"),
                           "eve password 1\n").status == 0)
        let browser = Browser(try centre.start(), in: centre.h.directory)
        let (_, csrf) = browser.signIn("Ada", "ada password 1")
        let added = browser.request("/staff/staff/add", form: ["csrf": csrf ?? "", "name": hostile, "password": "a long password", "role": "viewer"])
        #expect(added.status == 303, "\(added.status) \(added.body)")
        let admin = browser.request("/staff/admin").body
        #expect(admin.contains("&#39;); DROP TABLE staff; --&lt;script&gt;x&lt;/script&gt;"), "\(admin)")
        #expect(!admin.contains("<script>x"))
        let overview = browser.request("/staff/").body
        #expect(overview.contains("&#39;); DROP TABLE groups; --&lt;b&gt;") && !overview.contains("--<b>"), "\(overview)")
        #expect(try centre.count("SELECT COUNT(*) FROM staff WHERE name = '\(hostile.replacingOccurrences(of: "'", with: "''"))'") == 1)
        // The new member signs in with the name as typed.
        #expect(Browser(browser.base, in: centre.h.directory).signIn(hostile, "a long password").0.status == 303)
    }
}
