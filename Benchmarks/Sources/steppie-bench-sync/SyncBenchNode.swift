import Foundation
import SteppieBenchSupport
import SteppieService
import SteppieTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// One device of the sync benchmark: its own folder, database and socket, the release `steppie`
/// run against it (commands, and `steppie serve` as the hub or a device), as the tests'
/// `SyncProcessTests` start them.
final class SyncBenchNode {
    let name: String
    let directory: String
    let binary: String
    private(set) var service: SpawnedProcess?
    var db: String { directory + "/steppie.db" }
    var socket: String { directory + "/run/s.sock" }
    var logPath: String { directory + "/serve.log" }

    init(_ name: String, under root: String, binary: String) throws {
        self.name = name
        self.binary = binary
        directory = root + "/" + name
        try FileManager.default.createDirectory(atPath: directory + "/run", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["STEPPIE_DB"] = db
        env["STEPPIE_SOCKET"] = socket
        env["XDG_RUNTIME_DIR"] = directory + "/run"
        env["LANG"] = "en_US.UTF-8"
        env["TZ"] = "Asia/Seoul"
        env["STEPPIE_NOW"] = nil
        return env
    }

    /// Runs `steppie ARGS` to its end: exit status, standard output and error.
    @discardableResult
    func run(_ args: [String], timeout: Double = 600) throws -> (status: Int32, out: String, err: String) {
        let out = directory + "/cmd.out", err = directory + "/cmd.err"
        for path in [out, err] { try? FileManager.default.removeItem(atPath: path) }   // opened for appending
        let p = try SpawnedProcess(binary, args, environment: environment, stdoutPath: out, stderrPath: err)
        let status = p.wait(timeout: timeout)
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return (status, read(out), read(err))
    }

    /// Runs `steppie ARGS`, failing the benchmark when it fails.
    @discardableResult
    func must(_ args: [String], timeout: Double = 600) throws -> String {
        let r = try run(args, timeout: timeout)
        guard r.status == 0 else { throw BenchError("\(name): steppie \(args.joined(separator: " ")) exited \(r.status): \(r.err)") }
        return r.out
    }

    /// Starts `steppie serve` (a device's, or the hub's with `--hub 127.0.0.1:0`) and waits until
    /// it answers on its socket.
    func start(_ extra: [String] = [], output: String = "null", timeout: Double = 600) throws {
        try? FileManager.default.removeItem(atPath: logPath)
        service = try SpawnedProcess(binary, ["serve", "--output", output, "--http", "none", "--locale", "en"] + extra,
                                     environment: environment, stdoutPath: logPath, stderrPath: logPath)
        guard waitUntil(timeout: timeout, { ServiceClient.connect(path: socket) != nil }) else {
            throw BenchError("\(name): steppie serve did not answer: \(log)")
        }
    }

    func stop() {
        service?.stop(SIGTERM)
        _ = service?.wait(timeout: 30)
        service = nil
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// The hub's address and fingerprint, from its log line `sync hub on https://… (…FINGERPRINT)`.
    func hubAddress(timeout: Double = 30) throws -> (url: String, fingerprint: String) {
        var found: (String, String)?
        _ = waitUntil(timeout: timeout) {
            guard let line = log.split(separator: "\n").last(where: { $0.contains("sync hub on https://") }),
                  let url = line.split(separator: " ").first(where: { $0.hasPrefix("https://") }),
                  let fp = line.split(separator: " ").last?.dropLast() else { return false }
            found = (String(url), String(fp))
            return true
        }
        guard let found else { throw BenchError("\(name): the hub printed no address: \(log)") }
        return found
    }

    /// Joins `hub` with a fresh code; the join's own wall time (it takes the first copy).
    @discardableResult
    func join(_ hub: SyncBenchNode, address: (url: String, fingerprint: String)) throws -> Double {
        let invite = try hub.must(["sync", "invite", "--json"])
        guard let object = try JSONSerialization.jsonObject(with: Data(invite.utf8)) as? [String: Any],
              let code = object["code"] as? String else { throw BenchError("no joining code in \(invite)") }
        let start = DispatchTime.now().uptimeNanoseconds
        try must(["sync", "join", address.url, "--code", code, "--fingerprint", address.fingerprint, "--name", name], timeout: 3600)
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    func digest() throws -> String { try must(["sync", "digest", "--json"], timeout: 3600) }

    /// The database's bytes once its WAL is folded in and free pages dropped (VACUUM):
    /// page_count × page_size, by the sqlite3 shell; and each table's and index's bytes (dbstat).
    func size() throws -> (bytes: Int, byName: [(String, Int)]) {
        let shell = { (sql: String) throws -> String in
            let out = self.directory + "/sqlite.out"
            try? FileManager.default.removeItem(atPath: out)
            let p = try SpawnedProcess("sqlite3", [self.db, sql], stdoutPath: out, stderrPath: self.directory + "/sqlite.err")
            guard p.wait(timeout: 1800) == 0 else { throw BenchError("sqlite3 \(sql) failed") }
            return (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        }
        _ = try shell("PRAGMA wal_checkpoint(TRUNCATE); VACUUM;")
        let bytes = Int(try shell("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size();")
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let rows = try shell("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC;")
        let byName = rows.split(separator: "\n").compactMap { line -> (String, Int)? in
            let parts = line.split(separator: "|")
            guard parts.count == 2, let n = Int(parts[1]) else { return nil }
            return (String(parts[0]), n)
        }
        return (bytes, byName)
    }
}
