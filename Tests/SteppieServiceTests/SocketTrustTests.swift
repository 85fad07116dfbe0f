import Foundation
import Testing
import SteppieTestSupport

/// What the suite needs of the machine: root, to be other users, and the tools it runs.
enum SocketTrustMachine {
    static let canRunAsOtherUsers = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
}

/// Another local user cannot stand in for the service (issue 24, class 3). With no
/// `XDG_RUNTIME_DIR` the socket is `/tmp/steppie-<uid>/control.sock`, a name any user can take
/// first: a planted folder, socket or symbolic link there must be refused, by the command that
/// would believe a planted socket and by the service that would bind through a planted link. Real
/// processes under real user ids (`setpriv`), so the kernel's ownership and SO_PEERCRED are the
/// ones a device has.
@Suite(.serialized, .enabled(if: SocketTrustMachine.canRunAsOtherUsers,
                             "needs root (to run processes as other users with setpriv) and /usr/bin/python3"))
struct SocketTrustTests {
    /// The service's binary (`ServiceFixture.binary`: the one shipped when the tests are given it).
    static var binary: String { ServiceFixture.binary }

    /// A stand-in for the service, run by the attacker: answers every line with a success (a
    /// completion saved), as a real reply is shaped (ServiceProtocol.swift), and writes each line
    /// it was told to `log`.
    static let impostor = """
    import json, os, socket, sys
    path, log = sys.argv[1], sys.argv[2]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    os.chmod(path, 0o777)
    s.listen(8)
    while True:
        c, _ = s.accept()
        f = c.makefile("rwb")
        for line in f:
            with open(log, "ab") as out:
                out.write(line)
            try:
                rid = json.loads(line).get("id")
            except Exception:
                rid = None
            press = {"child": "Mina", "action": "complete", "saved": True, "completed": 1, "total": 6, "focusTitle": "Wake up"}
            f.write((json.dumps({"id": rid, "ok": True, "press": press}) + "\\n").encode())
            f.flush()
        c.close()
    """

    /// Three user ids no account has and whose fallback folder does not exist: victim, attacker,
    /// a third user. Chosen at random so two runs on one machine never share `/tmp/steppie-<uid>`.
    final class Users {
        let victim: UInt32, attacker: UInt32, third: UInt32
        let base: String
        let victimHome: String
        var db: String { victimHome + "/steppie.db" }
        var fallback: String { "/tmp/steppie-\(victim)" }
        var processes: [SpawnedProcess] = []

        init() throws {
            var picked: [UInt32] = []
            while picked.count < 3 {
                let uid = UInt32.random(in: 41_000...48_999)
                if getpwuid(uid) == nil, !picked.contains(uid), !FileManager.default.fileExists(atPath: "/tmp/steppie-\(uid)") {
                    picked.append(uid)
                }
            }
            (victim, attacker, third) = (picked[0], picked[1], picked[2])
            base = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-trust-\(UUID().uuidString.prefix(8))").path
            victimHome = base + "/victim"
            try FileManager.default.createDirectory(atPath: victimHome, withIntermediateDirectories: true)
            chmod(base, 0o755)
            chown(victimHome, victim, victim)
            chmod(victimHome, 0o700)
            try Self.write(SocketTrustTests.impostor, to: base + "/impostor.py", mode: 0o644)
        }

        deinit {
            processes.forEach { $0.stop(SIGKILL) }
            // The fallback folder (or link) is the one thing outside `base`: removed whoever made it.
            try? FileManager.default.removeItem(atPath: fallback)
            try? FileManager.default.removeItem(atPath: base)
        }

        static func write(_ text: String, to path: String, mode: mode_t) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, mode)
        }

        /// The environment every command of the victim gets: its own database, no runtime folder,
        /// no explicit socket (so the fallback in /tmp is the socket), English text.
        var environment: [String: String] {
            var e = ProcessInfo.processInfo.environment
            for key in ["XDG_RUNTIME_DIR", "STEPPIE_SOCKET", "STEPPIE_NOW", "STEPPIE_DATA_DIR", "SWIFT_BACKTRACE"] { e[key] = nil }
            e["HOME"] = victimHome
            e["STEPPIE_DB"] = db
            e["LANG"] = "en_US.UTF-8"
            e["TZ"] = "Asia/Seoul"
            return e
        }

        /// `setpriv` arguments that run the rest as `uid` with no supplementary groups.
        static func asUser(_ uid: UInt32) -> [String] {
            ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "--"]
        }

        /// Runs `steppie ARGS` as the victim to the end.
        func victimRuns(_ args: [String], timeout: Double = 30) throws -> (status: Int32, out: String, err: String) {
            let out = base + "/out-\(UUID().uuidString)", err = base + "/err-\(UUID().uuidString)"
            let p = try SpawnedProcess("/usr/bin/setpriv", Self.asUser(victim) + [SocketTrustTests.binary] + args,
                                       environment: environment, stdoutPath: out, stderrPath: err)
            let status = p.wait(timeout: timeout)
            return (status, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "", (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
        }

        /// Runs a command as `uid` to the end (for the attacker's preparations).
        @discardableResult
        func runs(as uid: UInt32, _ program: String, _ args: [String]) throws -> Int32 {
            let p = try SpawnedProcess("/usr/bin/setpriv", Self.asUser(uid) + [program] + args, environment: environment)
            return p.wait(timeout: 30)
        }

        /// The attacker's stand-in listening at `socket`, its log of what it was told at `log`.
        func startImpostor(at socket: String, log: String) throws {
            let p = try SpawnedProcess("/usr/bin/setpriv", Self.asUser(attacker) + ["/usr/bin/python3", base + "/impostor.py", socket, log],
                                       environment: environment, stderrPath: base + "/impostor.err")
            processes.append(p)
            // Polled, not slept: it is ready when the socket it binds is there.
            guard waitUntil(timeout: 20, { FileManager.default.fileExists(atPath: socket) }) else {
                throw CocoaError(.fileNoSuchFile, userInfo: ["reason": "the impostor did not start"])
            }
        }

        /// The victim's own database with a child and the morning routine.
        func makeVictimDatabase() throws {
            let r = try victimRuns(["init", "--child", "Mina"])
            #expect(r.status == 0, "init: \(r.err)")
        }

        /// What the victim's database says is done today (read as the victim, without any service).
        func completedToday() throws -> Int? {
            let r = try victimRuns(["today", "--json"])
            let json = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
            return (json?["progress"] as? [String: Any])?["completed"] as? Int
        }

        /// Owner and permission bits of `path` itself (a link is not followed).
        func owner(_ path: String) -> (uid: UInt32, mode: mode_t)? {
            var st = stat()
            return lstat(path, &st) == 0 ? (st.st_uid, st.st_mode & 0o7777) : nil
        }
    }

    // MARK: A planted socket is not believed

    /// The attacker makes the victim's fallback folder first and listens in it: `complete` must
    /// neither say "done" nor tell it anything, and nothing is saved.
    @Test func aSocketInAFolderAnotherUserPlantedIsRefused() throws {
        let u = try Users()
        try u.makeVictimDatabase()
        #expect(try u.runs(as: u.attacker, "/bin/mkdir", ["-m", "0755", u.fallback]) == 0)
        let log = u.base + "/told-folder.log"
        try Users.write("", to: log, mode: 0o666)
        try u.startImpostor(at: u.fallback + "/control.sock", log: log)

        let r = try u.victimRuns(["complete"])
        #expect(r.status != 0, "complete believed the impostor: \(r.out)")
        #expect(!r.out.contains("done"), "\(r.out)")
        #expect(r.err.contains(u.fallback) && r.err.contains("belongs to another user"), "\(r.err)")
        #expect(try u.completedToday() == 0)
        #expect((try? String(contentsOfFile: log, encoding: .utf8)) == "", "the impostor was told something")
    }

    /// The victim's own folder, left open to others, with the attacker's socket in it: the folder
    /// passes, the peer's credentials do not.
    @Test func aSocketOfAnotherUserInTheVictimsOwnFolderIsRefused() throws {
        let u = try Users()
        try u.makeVictimDatabase()
        #expect(try u.runs(as: u.victim, "/bin/mkdir", ["-m", "0777", u.fallback]) == 0)
        chmod(u.fallback, 0o777)   // whatever the umask
        let log = u.base + "/told-peer.log"
        try Users.write("", to: log, mode: 0o666)
        try u.startImpostor(at: u.fallback + "/control.sock", log: log)

        for args in [["complete"], ["undo"], ["service", "status"]] {
            let r = try u.victimRuns(args)
            #expect(r.status != 0, "\(args) believed the impostor: \(r.out)")
            #expect(!r.out.contains("done") && !r.out.contains("running"), "\(args): \(r.out)")
            #expect(r.err.contains("another user (uid \(u.attacker)") && r.err.contains(u.fallback + "/control.sock"), "\(args): \(r.err)")
        }
        #expect(try u.completedToday() == 0)
        #expect((try? String(contentsOfFile: log, encoding: .utf8)) == "", "the impostor was told something")
    }

    /// The control: the victim's own service in the fallback folder is still trusted, and a
    /// `complete` through it is saved.
    @Test func theUsersOwnServiceIsStillTrusted() throws {
        let u = try Users()
        try u.makeVictimDatabase()
        let log = u.base + "/serve.log"
        let serve = try SpawnedProcess("/usr/bin/setpriv",
                                       Users.asUser(u.victim) + [Self.binary, "serve", "--http", "none", "--output", "null"],
                                       environment: u.environment, stdoutPath: log, stderrPath: log)
        u.processes.append(serve)
        #expect(waitUntil(timeout: 20) { FileManager.default.fileExists(atPath: u.fallback + "/control.sock") },
                "serve did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        #expect(u.owner(u.fallback)?.uid == u.victim && u.owner(u.fallback)?.mode == 0o700)
        let r = try u.victimRuns(["complete"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("done"), "\(r.out)")
        serve.stop(SIGTERM)
        #expect(try u.completedToday() == 1)
    }

    // MARK: A planted link is not followed

    /// The fallback folder is a link to a third user's folder: `serve` refuses, naming the link,
    /// and the folder it points to keeps its mode and gets no socket.
    @Test func serveRefusesALinkToAnotherUsersFolder() throws {
        let u = try Users()
        try u.makeVictimDatabase()
        let target = u.base + "/third"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        chown(target, u.third, u.third)
        chmod(target, 0o755)
        #expect(try u.runs(as: u.attacker, "/bin/ln", ["-s", target, u.fallback]) == 0)

        let r = try u.victimRuns(["serve", "--http", "none", "--output", "null"], timeout: 20)
        #expect(r.status == 1, "\(r.err)")
        #expect(r.err.contains(u.fallback) && r.err.contains("symbolic link"), "\(r.err)")
        #expect(u.owner(target)?.uid == u.third && u.owner(target)?.mode == 0o755)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: target)) == [])
    }

    /// The link leads to a folder of the victim's own that others may read (0755): today's
    /// service would tighten it to 0700 and bind there. It must refuse and leave it as it is.
    @Test func serveRefusesALinkToTheUsersOwnFolder() throws {
        let u = try Users()
        try u.makeVictimDatabase()
        let target = u.victimHome + "/shared"
        #expect(try u.runs(as: u.victim, "/bin/mkdir", ["-m", "0755", target]) == 0)
        chmod(target, 0o755)
        #expect(try u.runs(as: u.attacker, "/bin/ln", ["-s", target, u.fallback]) == 0)

        let r = try u.victimRuns(["serve", "--http", "none", "--output", "null"], timeout: 20)
        #expect(r.status == 1, "serve started through the link: \(r.err)")
        #expect(r.err.contains(u.fallback) && r.err.contains("symbolic link"), "\(r.err)")
        #expect(u.owner(target)?.uid == u.victim && u.owner(target)?.mode == 0o755)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: target)) == [])
        // And a client does not connect through it either.
        let c = try u.victimRuns(["complete"])
        #expect(c.status != 0 && c.err.contains("symbolic link"), "\(c.out)\(c.err)")
        #expect(try u.completedToday() == 0)
    }

    /// `STEPPIE_SOCKET` in a folder every user shares (sticky, as /tmp): root's service would have
    /// closed it to everyone (mode 0700). It refuses and leaves the mode as it is.
    @Test func serveDoesNotCloseASharedFolder() throws {
        let u = try Users()
        let shared = u.base + "/shared-tmp"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        chmod(shared, 0o1777)
        var env = u.environment
        env["STEPPIE_SOCKET"] = shared + "/control.sock"
        env["STEPPIE_DB"] = u.base + "/root.db"
        let log = u.base + "/shared.log"
        let serve = try SpawnedProcess(Self.binary, ["serve", "--http", "none", "--output", "null"], environment: env,
                                       stdoutPath: log, stderrPath: log)
        let status = serve.wait(timeout: 20)
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(status == 1, "\(text)")
        #expect(text.contains(shared) && text.contains("shared by every user"), "\(text)")
        #expect(u.owner(shared)?.mode == 0o1777)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: shared)) == [])
    }

    /// The same check for `$XDG_RUNTIME_DIR/steppie`: a link there is refused and what it points
    /// to keeps its mode (today's service would have made it 0700 and bound in it).
    @Test func serveRefusesALinkAsTheRuntimeFolder() throws {
        let u = try Users()
        let runtime = u.base + "/runtime", elsewhere = u.base + "/elsewhere"
        for folder in [runtime, elsewhere] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            chmod(folder, 0o755)
        }
        try FileManager.default.createSymbolicLink(atPath: runtime + "/steppie", withDestinationPath: elsewhere)
        var env = u.environment
        env["XDG_RUNTIME_DIR"] = runtime
        env["STEPPIE_DB"] = u.base + "/root.db"
        let log = u.base + "/runtime.log"
        let serve = try SpawnedProcess(Self.binary, ["serve", "--http", "none", "--output", "null"], environment: env,
                                       stdoutPath: log, stderrPath: log)
        let status = serve.wait(timeout: 20)
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(status == 1, "\(text)")
        #expect(text.contains(runtime + "/steppie") && text.contains("symbolic link"), "\(text)")
        #expect(u.owner(elsewhere)?.mode == 0o755)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: elsewhere)) == [])
    }
}
