import SteppieSecurity
import SteppieFiles
import Foundation

/// Compact JSON written straight to a file through a buffer, hashed (SHA-256) as it goes, so a
/// data.json of a million rows never has to sit in memory. Owns its file handle.
final class JSONOutput {
    private let file: FileHandle
    private let path: String
    private var buffer: [UInt8] = []
    private var hash: SHA256
    private(set) var byteCount: UInt64 = 0
    private static let flushAt = 1 << 20

    /// Creates the file at `path`, owner-only (0600): it holds the PIN hashes.
    init(path: String) throws {
        let fd = try StagingArea.files(path) { try OwnerOnly.openForWriting(path, exclusive: true) }
        self.file = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        self.path = path
        hash = SHA256()
        buffer.reserveCapacity(JSONOutput.flushAt + 4096)
    }

    deinit { try? file.close() }

    func raw(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    /// A JSON string literal with the escapes RFC 8259 requires.
    func string(_ s: String) {
        buffer.append(0x22)
        for b in s.utf8 {
            switch b {
            case 0x22: buffer.append(0x5C); buffer.append(0x22)
            case 0x5C: buffer.append(0x5C); buffer.append(0x5C)
            case 0x0A: buffer.append(0x5C); buffer.append(0x6E)
            case 0x0D: buffer.append(0x5C); buffer.append(0x72)
            case 0x09: buffer.append(0x5C); buffer.append(0x74)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                buffer.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]])
            default: buffer.append(b)
            }
        }
        buffer.append(0x22)
    }

    func optionalString(_ s: String?) {
        if let s { string(s) } else { raw("null") }
    }

    func int(_ v: Int) { buffer.append(contentsOf: String(v).utf8) }

    /// A double in its shortest round-tripping form (`1.0`, `0.75`).
    func double(_ v: Double) { buffer.append(contentsOf: String(v).utf8) }

    func bool(_ v: Bool) { if v { raw("true") } else { raw("false") } }

    /// `"key":` (keys are plain identifiers; no escaping needed).
    func key(_ k: StaticString) {
        buffer.append(0x22)
        k.withUTF8Buffer { buffer.append(contentsOf: $0) }
        buffer.append(0x22); buffer.append(0x3A)
    }

    /// A string-to-string object with sorted keys (LocalizedText).
    func stringMap(_ map: [String: String]) {
        buffer.append(0x7B)
        for (n, k) in map.keys.sorted().enumerated() {
            if n > 0 { buffer.append(0x2C) }
            string(k); buffer.append(0x3A); string(map[k] ?? "")
        }
        buffer.append(0x7D)
    }

    /// Flushes when the buffer is full; call between records.
    func maybeFlush() throws { if buffer.count >= JSONOutput.flushAt { try flush() } }

    func flush() throws {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { hash.update($0) }
        do { try file.write(contentsOf: buffer) } catch {
            throw BackupError.fileSystem(path: path, reason: error.localizedDescription)
        }
        byteCount += UInt64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, syncs and closes the file; returns the SHA-256 of everything written.
    func finish() throws -> String {
        try flush()
        do {
            try file.synchronize()
            try file.close()
        } catch {
            throw BackupError.fileSystem(path: path, reason: error.localizedDescription)
        }
        return hash.finalHex()
    }
}
