import Foundation

/// Actions read from `--keys-from` for automation, one a line: `done`, `undo`, `next`,
/// `wait SECONDS`, `quit`. Blank lines and `#` comments are skipped.
enum KeyAction: Equatable {
    case done, undo, next, quit
    case wait(Double)

    static func parse(_ line: String, number: Int) throws -> KeyAction? {
        let t = line.trimmingCharacters(in: .whitespaces)
        if t.isEmpty || t.hasPrefix("#") { return nil }
        let parts = t.split(separator: " ", omittingEmptySubsequences: true)
        switch (parts[0].lowercased(), parts.count) {
        case ("done", 1): return .done
        case ("undo", 1): return .undo
        case ("next", 1): return .next
        case ("quit", 1): return .quit
        case ("wait", 2):
            guard let s = Double(parts[1]), s.isFinite, s >= 0, s <= 86_400 else { break }
            return .wait(s)
        default: break
        }
        throw UsageError.invalidValue(option: "--keys-from line \(number)", value: t,
                                      expected: "done, undo, next, wait SECONDS (0…86400) or quit")
    }
}

/// Reads key actions from a file or standard input, line by line, without blocking the loop.
final class KeyScriptReader {
    private let handle: FileHandle
    private var buffer = Data()
    private var number = 0
    private(set) var finished = false

    init(path: String) throws {
        if path == "-" {
            handle = .standardInput
        } else {
            guard let h = FileHandle(forReadingAtPath: path) else {
                throw UsageError.invalidValue(option: "--keys-from", value: path, expected: "a readable file or -")
            }
            handle = h
        }
    }

    var fileDescriptor: Int32 { handle.fileDescriptor }

    /// Reads what is available (call when the descriptor is readable) and returns complete lines.
    func readAvailable() throws -> [KeyAction] {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = read(handle.fileDescriptor, &chunk, chunk.count)
        if n <= 0 { finished = true } else { buffer.append(contentsOf: chunk[0..<n]) }
        var actions: [KeyAction] = []
        while let nl = buffer.firstIndex(of: 10) {
            let line = String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self)
            buffer.removeSubrange(buffer.startIndex...nl)
            number += 1
            if let a = try KeyAction.parse(line, number: number) { actions.append(a) }
        }
        if finished, !buffer.isEmpty {
            number += 1
            let line = String(decoding: buffer, as: UTF8.self)
            buffer.removeAll()
            if let a = try KeyAction.parse(line, number: number) { actions.append(a) }
        }
        return actions
    }
}
