import Foundation
import SteppieFiles
import Synchronization

/// Where a command writes: standard output and error, replaceable in tests.
///
/// A failed write (a full disk, a closed pipe) never traps: the first failure is kept, later
/// output is dropped, and `Steppie.run` ends the command with exit status 1 and one line naming
/// it (`outputFailure`).
public final class Console: Sendable {
    private let out: @Sendable (String) throws(FileRefusal) -> Void
    private let err: @Sendable (String) throws(FileRefusal) -> Void
    private let failure = Mutex<OutputFailure?>(nil)
    /// Standard output is a terminal: colours and the like go only there, never into a pipe or a file.
    public let outputIsTerminal: Bool

    /// The first output that could not be written: which stream and why.
    public struct OutputFailure: Equatable, Sendable {
        public let standardOutput: Bool
        public let error: FileRefusal
    }

    public init(out: @escaping @Sendable (String) throws(FileRefusal) -> Void,
                err: @escaping @Sendable (String) throws(FileRefusal) -> Void, outputIsTerminal: Bool = false) {
        self.out = out
        self.err = err
        self.outputIsTerminal = outputIsTerminal
    }

    /// The process's real standard output and error, written whole with every failure reported.
    public static func standard() -> Console {
        Console(out: { text throws(FileRefusal) in try Descriptor.writeAll(STDOUT_FILENO, text, path: "standard output") },
                err: { text throws(FileRefusal) in try Descriptor.writeAll(STDERR_FILENO, text, path: "standard error") },
                outputIsTerminal: isatty(STDOUT_FILENO) == 1)
    }

    /// A console that keeps everything written, for tests (`terminal`: as if output were a terminal).
    public static func capturing(terminal: Bool = false) -> (Console, CapturedText) {
        let captured = CapturedText()
        return (Console(out: { captured.append(out: $0) }, err: { captured.append(err: $0) }, outputIsTerminal: terminal), captured)
    }

    /// The first failed write, if any.
    public var outputFailure: OutputFailure? { failure.withLock { $0 } }

    public func print(_ line: String) { send(line + "\n", toOutput: true) }
    public func write(_ text: String) { send(text, toOutput: true) }
    public func error(_ line: String) { send(line + "\n", toOutput: false) }
    /// Writes to standard error without a newline (prompts).
    public func errorText(_ text: String) { send(text, toOutput: false) }

    private func send(_ text: String, toOutput: Bool) {
        // After a failure on a stream, nothing more goes to it (a half-written document must
        // not continue as if nothing happened).
        if let f = outputFailure, f.standardOutput == toOutput { return }
        do throws(FileRefusal) {
            if toOutput { try out(text) } else { try err(text) }
        } catch {
            failure.withLock { if $0 == nil { $0 = OutputFailure(standardOutput: toOutput, error: error) } }
        }
    }
}

/// Text captured from a `Console`.
public final class CapturedText: Sendable {
    private let state = Mutex<(out: String, err: String)>(("", ""))
    public init() {}
    func append(out s: String) { state.withLock { $0.out += s } }
    func append(err s: String) { state.withLock { $0.err += s } }
    public var out: String { state.withLock { $0.out } }
    public var err: String { state.withLock { $0.err } }
}
