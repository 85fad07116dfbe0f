import Foundation
import Glibc
import SteppieBenchSupport
import SteppieSyncHTTP
import SteppieTestSupport

/// The private PostgreSQL (scripts/with-postgres.sh) and the `steppie hub` processes on it.
struct Centre {
    let root: String
    let binary: String
    /// `STEPPIE_TEST_POSTGRES` of with-postgres.sh: `host=FOLDER dbname=steppie_test user=…`.
    let baseConninfo: String
    let psqlPath: String

    init(root: String, binary: String) throws {
        self.root = root
        self.binary = binary
        guard let conninfo = ProcessInfo.processInfo.environment["STEPPIE_TEST_POSTGRES"], !conninfo.isEmpty else {
            throw BenchError("STEPPIE_TEST_POSTGRES is not set: run under scripts/with-postgres.sh")
        }
        baseConninfo = conninfo
        let bin = ProcessInfo.processInfo.environment["STEPPIE_PG_BIN"] ?? "/usr/lib/postgresql/15/bin"
        psqlPath = bin + "/psql"
    }

    /// The connection string of database `name` on the same cluster.
    func conninfo(_ name: String) -> String {
        baseConninfo.split(separator: " ").map { $0.hasPrefix("dbname=") ? "dbname=\(name)" : String($0) }.joined(separator: " ")
    }

    /// Runs `psql` on `database` (`-c SQL` or `-f FILE`); its output, unaligned, tuples only.
    @discardableResult
    func psql(_ database: String, _ args: [String], timeout: Double = 600) throws -> String {
        let out = root + "/psql-\(UUID().uuidString).out", err = out + ".err"
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: err) }
        let p = try SpawnedProcess(psqlPath, ["-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", conninfo(database)] + args,
                                   stdoutPath: out, stderrPath: err)
        guard p.wait(timeout: timeout) == 0 else {
            throw BenchError("psql \(args.prefix(2).joined(separator: " ")) failed: \((try? String(contentsOfFile: err, encoding: .utf8)) ?? "")")
        }
        return (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    }

    func createDatabase(_ name: String) throws {
        try psql("steppie_test", ["-c", "DROP DATABASE IF EXISTS \(name)"])
        try psql("steppie_test", ["-c", "CREATE DATABASE \(name)"])
    }

    /// PostgreSQL sessions on `database`, the asking one left out.
    func connections(_ database: String) -> Int {
        let out = try? psql(database, ["-c", "SELECT count(*) - 1 FROM pg_stat_activity WHERE datname = current_database()"])
        return Int(out?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1
    }

    /// Runs `steppie ARGS`; its standard output, failing the bench when it fails.
    @discardableResult
    func steppie(_ args: [String], timeout: Double = 120) throws -> String {
        let out = root + "/cmd-\(UUID().uuidString).out", err = out + ".err"
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: err) }
        var env = ProcessInfo.processInfo.environment
        env["LANG"] = "en_US.UTF-8"
        let p = try SpawnedProcess(binary, args, environment: env, stdoutPath: out, stderrPath: err)
        guard p.wait(timeout: timeout) == 0 else {
            throw BenchError("steppie \(args.prefix(2).joined(separator: " ")) failed: \((try? String(contentsOfFile: err, encoding: .utf8)) ?? "")")
        }
        return (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    }

    /// `steppie hub --postgres … --listen 127.0.0.1:0`, its address and fingerprint from its log
    /// line (`… sync hub on https://ADDR:PORT (certificate fingerprint AA:…)`), as the tests read it.
    func startHub(_ database: String, name: String) throws -> (process: SpawnedProcess, hub: Fleet.Hub) {
        let log = root + "/\(name).log"
        var env = ProcessInfo.processInfo.environment
        env["LANG"] = "en_US.UTF-8"
        let process = try SpawnedProcess(binary, ["hub", "--postgres", conninfo(database), "--listen", "127.0.0.1:0"],
                                         environment: env, stdoutPath: log, stderrPath: log)
        var found: Fleet.Hub?
        _ = waitUntil(timeout: 60) {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            guard let line = text.split(separator: "\n").last(where: { $0.contains("sync hub on https://") }),
                  let url = line.split(separator: " ").first(where: { $0.hasPrefix("https://") }),
                  let address = HubAddress(String(url)),
                  let fp = line.split(separator: " ").last?.dropLast() else { return false }
            found = Fleet.Hub(address: address, fingerprint: String(fp))
            return true
        }
        guard let found else {
            process.stop(SIGTERM)
            throw BenchError("\(name) printed no address: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
        return (process, found)
    }

    /// `steppie hub invite --json` `count` times, `parallel` at once: the codes' digits.
    func invites(_ database: String, count: Int, parallel: Int = 4) throws -> [String] {
        let codes = Locked<[String]>([]), errors = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: parallel) { lane in
            for _ in stride(from: lane, to: count, by: parallel) {
                do {
                    let json = try steppie(["hub", "invite", "--postgres", conninfo(database), "--json"])
                    guard let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
                          let code = object["code"] as? String else { throw BenchError("no code in \(json)") }
                    codes.with { $0.append(code.filter(\.isNumber)) }
                } catch { errors.with { $0.append("\(error)") } }
            }
        }
        if let first = errors.with({ $0.first }) { throw BenchError(first) }
        return codes.with { $0 }
    }

    /// `steppie hub grant DEVICE --child ID…` for every (device, children), `parallel` at once.
    func grants(_ database: String, _ grants: [(String, [String])], parallel: Int = 4) throws {
        let errors = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: parallel) { lane in
            for k in stride(from: lane, to: grants.count, by: parallel) {
                let (device, children) = grants[k]
                do {
                    try steppie(["hub", "grant", device, "--postgres", conninfo(database)] + children.flatMap { ["--child", $0] })
                } catch { errors.with { $0.append("\(error)") } }
            }
        }
        if let first = errors.with({ $0.first }) { throw BenchError(first) }
    }
}

/// A process's peak and current resident memory (kB), from /proc/PID/status.
func memory(of pid: pid_t) -> (peak: Int, now: Int) {
    let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    func field(_ name: String) -> Int {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return -1 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
    return (field("VmHWM"), field("VmRSS"))
}

/// CPU time (user + system, clock ticks) from /proc/PID/stat; nil once the process is gone.
func cpuTicks(of pid: String) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = text.lastIndex(of: ")") else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // After the name: state is field 3, utime 14 and stime 15 (proc(5)).
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
    return user + system
}

/// Where the CPU went while something ran: the hub processes, PostgreSQL's processes (every
/// process named `postgres`: the private cluster's server and its sessions) and this process (the
/// simulated devices), in seconds. Sessions that ended in between (the sampler's `psql`) are
/// not counted.
struct CPUSplit {
    var hub = 0.0, database = 0.0, devices = 0.0

    struct Mark { let hub: [String: Int]; let database: [String: Int]; let devices: Int }

    static func mark(hubs: [pid_t]) -> Mark {
        var database: [String: Int] = [:]
        for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where pid.allSatisfy(\.isNumber) {
            guard (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("postgres") == true else { continue }
            database[pid] = cpuTicks(of: pid)
        }
        return Mark(hub: Dictionary(uniqueKeysWithValues: hubs.map { ("\($0)", cpuTicks(of: "\($0)") ?? 0) }), database: database,
                    devices: cpuTicks(of: "self") ?? 0)
    }

    /// From `start` to now.
    init(since start: Mark) {
        let end = Self.mark(hubs: start.hub.keys.compactMap { pid_t($0) })
        let tick = Double(sysconf(Int32(_SC_CLK_TCK)))
        func delta(_ a: [String: Int], _ b: [String: Int]) -> Double {
            Double(b.reduce(0) { $0 + max(0, $1.value - (a[$1.key] ?? 0)) }) / tick
        }
        hub = delta(start.hub, end.hub)
        database = delta(start.database, end.database)
        devices = Double(end.devices - start.devices) / tick
    }

    init() {}

    var total: Double { hub + database + devices }
}
