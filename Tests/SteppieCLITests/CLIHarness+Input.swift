import Foundation
import Synchronization
import SteppieCore
@testable import SteppieCLI

extension CLIHarness {
    /// Runs one command line with `input` as its standard input lines (for `--pin-stdin`).
    @discardableResult
    func run(_ args: [String], input: [String], locale: String = "en", variables: [String: String] = [:]) -> Result {
        let (console, captured) = Console.capturing()
        let lines = Mutex(input)
        let env = CLIEnvironment(variables: variables, console: console, clock: clock, secureClock: ManualSecureClock.following(clock), timeZone: zone,
                                 dataDirectory: CLIHarness.repository, executablePath: "",
                                 readLine: { lines.withLock { $0.isEmpty ? nil : $0.removeFirst() } })
        let status = Steppie.run(args + ["--db", db, "--locale", locale], in: env)
        return Result(status: status, out: captured.out, err: captured.err)
    }
}
