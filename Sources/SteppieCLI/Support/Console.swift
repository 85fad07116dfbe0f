import Foundation
import Synchronization

/// Where a command writes: standard output and error, replaceable in tests.
public final class Console: Sendable {
    private let out: @Sendable (String) -> Void
    private let err: @Sendable (String) -> Void

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.err = err
    }

    /// The process's real standard output and error.
    public static func standard() -> Console {
        Console(out: { FileHandle.standardOutput.write(Data($0.utf8)) },
                err: { FileHandle.standardError.write(Data($0.utf8)) })
    }

    /// A console that keeps everything written, for tests.
    public static func capturing() -> (Console, CapturedText) {
        let captured = CapturedText()
        return (Console(out: { captured.append(out: $0) }, err: { captured.append(err: $0) }), captured)
    }

    public func print(_ line: String) { out(line + "\n") }
    public func write(_ text: String) { out(text) }
    public func error(_ line: String) { err(line + "\n") }
    /// Writes to standard error without a newline (prompts).
    public func errorText(_ text: String) { err(text) }
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
