import Foundation
import SteppieService
import SteppieTestSupport
import SteppieStore
import SteppieCore

/// A real `steppie serve` process on a temporary database and socket, started with a clean
/// signal mask and stopped by its PID.
final class ServiceFixture {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `STEPPIE_SERVICE_BIN` (a build of another commit: a test is checked against the code
    /// before its fix that way), else the binary the process tests run (`BuiltBinary`).
    static var binary: String {
        ProcessInfo.processInfo.environment["STEPPIE_SERVICE_BIN"] ?? BuiltBinary.path(repository: repository)
    }

    let directory: String
    let db: String
    let socket: String
    var process: SpawnedProcess?
    let log: String

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-svc-\(UUID().uuidString.prefix(8))").path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        db = directory + "/steppie.db"
        socket = directory + "/run/control.sock"
        log = directory + "/serve.log"
    }

    deinit {
        process?.stop(SIGKILL)
        try? FileManager.default.removeItem(atPath: directory)
    }

    var environment: [String: String] {
        var e = ProcessInfo.processInfo.environment
        for key in ["STEPPIE_NOW", "STEPPIE_DATA_DIR", "XDG_RUNTIME_DIR"] { e[key] = nil }
        e["STEPPIE_DB"] = db
        e["STEPPIE_SOCKET"] = socket
        e["LANG"] = "en_US.UTF-8"
        e["TZ"] = "Asia/Seoul"
        return e
    }

    /// Runs one command of the real binary to the end: status, standard output, standard error.
    @discardableResult
    func run(_ args: [String], extra: [String: String] = [:], timeout: Double = 30) -> (status: Int32, out: String, err: String) {
        let out = directory + "/out-\(UUID().uuidString)", err = directory + "/err-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: err) }
        var env = environment
        for (k, v) in extra { env[k] = v }
        guard let p = try? SpawnedProcess(Self.binary, args, environment: env, stdoutPath: out, stderrPath: err) else { return (-1, "", "") }
        let status = p.wait(timeout: timeout)
        return (status, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "", (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }

    /// Starts `steppie serve` (with `args`) and waits until its socket answers.
    func start(_ args: [String] = ["--output", "null"], extra: [String: String] = [:], shell: String? = nil) throws {
        // Tests run in parallel: no two services may want the default page port.
        let args = args.contains("--http") ? args : args + ["--http", "none"]
        var env = environment
        for (k, v) in extra { env[k] = v }
        if let shell {
            process = try SpawnedProcess("/bin/sh", ["-c", shell + " exec \"$0\" serve \"$@\"", Self.binary] + args,
                                         environment: env, stdoutPath: log, stderrPath: log)
        } else {
            process = try SpawnedProcess(Self.binary, ["serve"] + args, environment: env, stdoutPath: log, stderrPath: log)
        }
        guard waitUntil(timeout: 20, { ServiceClient.connect(path: socket) != nil }) else {
            throw ServiceFailure(code: .failed, message: "the service did not start: \(logText)")
        }
    }

    /// The log so far; a line being written may end in half a character, so bytes are decoded leniently.
    var logText: String { (FileManager.default.contents(atPath: log)).map { String(decoding: $0, as: UTF8.self) } ?? "" }

    func client() throws -> ServiceClient {
        guard let c = ServiceClient.connect(path: socket) else { throw ServiceFailure(code: .failed, message: "no service") }
        return c
    }

    /// A store on the same file, as another process would open it.
    func store() throws -> Store { try Store(path: db, timeZone: TimeZone(identifier: "Asia/Seoul") ?? .current) }

    /// The permission bits of a path.
    func mode(_ path: String) -> mode_t {
        var st = stat()
        return stat(path, &st) == 0 ? st.st_mode & 0o7777 : 0
    }

    /// Resident memory of the service, in kB (VmRSS).
    var residentKB: Int {
        guard let pid = process?.pid, let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        let line = text.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
