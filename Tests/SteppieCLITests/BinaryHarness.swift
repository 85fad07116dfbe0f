import Foundation

/// Runs the real `steppie` binary through `/bin/sh` (for umask, ulimit, redirections to
/// /dev/full and the like) in a temporary folder, and reads back the database dump and the file
/// tree, so a refused command can be shown to have changed nothing.
final class BinaryHarness {
    let directory: String
    let db: String

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-bin-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        db = directory + "/data/steppie.db"
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    struct Result {
        let status: Int32
        let out: String
        let err: String
    }

    /// Runs `script` with `$S` naming the binary and `$D` this folder, in this folder, with
    /// `STEPPIE_DB` set, the English locale and no `STEPPIE_NOW` unless given.
    @discardableResult
    func sh(_ script: String, env: [String: String] = [:], input: String? = nil, timeout: Double = 60) -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script]
        p.currentDirectoryURL = URL(fileURLWithPath: directory)
        var e = ProcessInfo.processInfo.environment
        for key in ["STEPPIE_NOW", "STEPPIE_DB", "STEPPIE_DATA_DIR", "TZ", "LANG", "LC_ALL", "LC_MESSAGES"] { e[key] = nil }
        e["S"] = CLIHarness.binary
        e["D"] = directory
        e["STEPPIE_DB"] = db
        e["LANG"] = "en_US.UTF-8"
        e["TZ"] = "Asia/Seoul"
        e["SWIFT_BACKTRACE"] = nil
        for (k, v) in env { e[k] = v }
        p.environment = e
        let outPath = directory + "/.out-\(UUID().uuidString)", errPath = directory + "/.err-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: outPath, contents: nil)
        FileManager.default.createFile(atPath: errPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: outPath); try? FileManager.default.removeItem(atPath: errPath) }
        p.standardOutput = FileHandle(forWritingAtPath: outPath)
        p.standardError = FileHandle(forWritingAtPath: errPath)
        let inPipe = Pipe()
        p.standardInput = input == nil ? FileHandle.nullDevice : inPipe
        do { try p.run() } catch { return Result(status: -1, out: "", err: "\(error)") }
        if let input {
            try? inPipe.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try? inPipe.fileHandleForWriting.close()
        }
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(5_000) }
        if p.isRunning { p.terminate() }
        p.waitUntilExit()
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return Result(status: p.terminationStatus, out: out, err: err)
    }

    /// The database as `sqlite3 .dump` prints it (another program's view, not ours).
    func dump() -> String { dumpOf(db) }

    /// `sqlite3 .dump` of `path`.
    func dumpOf(_ path: String) -> String {
        let r = sh("sqlite3 -readonly -cmd '.timeout 5000' '\(path)' .dump")
        return r.status == 0 ? r.out : "(dump failed: \(r.err))"
    }

    /// One query through the sqlite3 tool.
    func query(_ sql: String) -> String {
        // A reader that meets a service's checkpoint waits (up to 5 s) instead of reading nothing.
        sh("sqlite3 -readonly -cmd '.timeout 5000' '\(db)' \"\(sql)\"").out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every path below this folder (our own capture files left out) with its kind and mode.
    func tree() -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
        var rows: [String] = []
        for case let rel as String in walker where !rel.hasPrefix(".out-") && !rel.hasPrefix(".err-") {
            var st = stat()
            guard lstat(directory + "/" + rel, &st) == 0 else { continue }
            rows.append("\(rel) \(String(st.st_mode, radix: 8))")
        }
        return rows.sorted()
    }

    /// The permission bits of a path.
    func mode(_ path: String) -> String {
        var st = stat()
        guard stat(path, &st) == 0 else { return "missing" }
        return String(st.st_mode & 0o7777, radix: 8)
    }

    /// True when the text shows a Swift runtime trap or backtrace.
    static func trapped(_ text: String) -> Bool {
        ["Fatal error", "Backtrace", "Crash", "Program crashed", "Illegal instruction", "Segmentation"].contains { text.contains($0) }
    }
}
