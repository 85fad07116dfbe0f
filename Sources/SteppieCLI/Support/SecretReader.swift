import CTerminal
import Foundation

/// Reads a PIN or recovery code: from the terminal without echo, or one line of standard input
/// with `--pin-stdin`. Never from an argument or an environment variable.
struct SecretReader {
    let fromStandardInput: Bool
    let context: Context

    init(_ c: Context) {
        context = c
        fromStandardInput = c.invocation.flag("--pin-stdin")
    }

    /// Reads one secret, showing the prompt (catalog key) on standard error when reading the terminal.
    func read(_ promptKey: String) throws -> String {
        if fromStandardInput {
            guard let line = context.env.readLine() else { throw GuardianError.noInput }
            return line.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard isatty(STDIN_FILENO) == 1 else { throw GuardianError.noTerminal }
        context.console.errorText(context.text(promptKey) + ": ")
        var buffer = [CChar](repeating: 0, count: 64)
        let length = cterminal_read_hidden_line(STDIN_FILENO, &buffer, Int32(buffer.count))
        context.console.errorText("\n")
        defer { for i in buffer.indices { buffer[i] = 0 } }
        guard length >= 0 else { throw GuardianError.noInput }
        let bytes = buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
