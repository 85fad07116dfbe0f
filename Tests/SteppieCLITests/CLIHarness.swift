import Foundation
import SteppieCore
import SteppieTestSupport
@testable import SteppieCLI

/// Runs `steppie` in-process against a temporary database with a manual clock.
final class CLIHarness {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let directory: URL
    let db: String
    let clock: ManualWallClock
    let zone: TimeZone

    init(now: String = "2026-03-02T07:00:00+09:00", zone: String = "Asia/Seoul") {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-cli-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        db = directory.appendingPathComponent("steppie.db").path
        clock = ManualWallClock(Timestamp.parse(now) ?? Date())
        self.zone = TimeZone(identifier: zone) ?? .current
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    struct Result {
        let status: Int32
        let out: String
        let err: String
    }

    /// Runs one command line (the database and locale options are added unless given).
    @discardableResult
    func run(_ args: [String], locale: String = "en", variables: [String: String] = [:], terminal: Bool = false,
             readLine: @escaping @Sendable () -> String? = { nil }) -> Result {
        let (console, captured) = Console.capturing(terminal: terminal)
        let env = CLIEnvironment(variables: variables, console: console, clock: clock, secureClock: ManualSecureClock.following(clock), timeZone: zone,
                                 dataDirectory: CLIHarness.repository, executablePath: "", readLine: readLine)
        var full = args
        if !args.contains("--db") { full += ["--db", db] }
        if !args.contains("--locale") { full += ["--locale", locale] }
        let status = Steppie.run(full, in: env)
        return Result(status: status, out: captured.out, err: captured.err)
    }

    /// The built `steppie` binary, for tests that need real processes (`BuiltBinary`).
    static var binary: String { BuiltBinary.path(repository: repository) }
}
