import Foundation

/// A real `steppie child` process fed through a pipe, with its JSON-lines events read back.
final class ChildProcess {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    let eventsPath: String

    init(db: String, directory: URL, variables: [String: String] = [:], extra: [String] = []) throws {
        eventsPath = directory.appendingPathComponent("events-\(UUID().uuidString).jsonl").path
        process.executableURL = URL(fileURLWithPath: CLIHarness.binary)
        process.arguments = ["child", "--db", db, "--locale", "en", "--output", "null", "--events", eventsPath, "--keys-from", "-"] + extra
        var env = ProcessInfo.processInfo.environment
        for (k, v) in variables { env[k] = v }
        process.environment = env
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Every event written so far.
    var events: [[String: Any]] {
        guard let text = try? String(contentsOfFile: eventsPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Waits (polling, with a deadline) until an event matching `match` appears; returns it.
    @discardableResult
    func waitFor(timeout: Double = 10, _ match: ([String: Any]) -> Bool) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let hit = events.first(where: match) { return hit }
            usleep(20_000)
        }
        return nil
    }

    /// Ends the key script and waits for the process to exit; returns (status, stdout, stderr).
    func finish() -> (Int32, String, String) {
        send("quit")
        try? input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    static func type(_ t: String) -> ([String: Any]) -> Bool { { $0["type"] as? String == t } }
}
