import SteppieSecurity
import SteppieFiles
import Foundation

/// Compact JSON written straight to a file through a fixed buffer, hashed (SHA-256) as it goes,
/// so a data.json of a million rows never has to sit in memory. Owns its descriptor and buffer.
///
/// The buffer is raw memory rather than an array: appending a few bytes at a time to an array
/// held by a class costs an exclusivity check and a uniqueness check per append, which was most
/// of the time of a backup (see docs/backup.md, "Backups at scale").
final class JSONOutput {
    private let fd: Int32
    private let path: String
    private let storage: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var hash = SHA256()
    private var closed = false
    private(set) var byteCount: UInt64 = 0
    /// Bytes written per `write(2)`; `reserve` never asks for more than `slack` at once.
    private static let flushAt = 1 << 20
    static let slack = 1 << 14

    /// Creates the file at `path`, owner-only (0600): it holds the PIN hashes.
    init(path: String) throws {
        fd = try StagingArea.files(path) { try OwnerOnly.openForWriting(path, exclusive: true) }
        self.path = path
        storage = .allocate(capacity: JSONOutput.flushAt + JSONOutput.slack)
    }

    deinit {
        storage.deallocate()
        if !closed { close(fd) }
    }

    /// Room for `n` (≤ `slack`) bytes at the returned pointer; `advance(by:)` then says how many were written.
    @inline(__always)
    func reserve(_ n: Int) throws -> UnsafeMutablePointer<UInt8> {
        if count + n > JSONOutput.flushAt + JSONOutput.slack { try flush() }
        return storage + count
    }

    @inline(__always)
    func advance(by n: Int) { count += n }

    func raw(_ text: StaticString) {
        text.withUTF8Buffer { put($0) }
    }

    private func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > JSONOutput.flushAt + JSONOutput.slack { try? flushLater() }
        if count + bytes.count <= JSONOutput.flushAt + JSONOutput.slack {
            (storage + count).update(from: base, count: bytes.count)
            count += bytes.count
        } else {
            // Longer than the whole buffer: byte by byte through the same checks.
            for b in bytes { byte(b) }
        }
    }

    @inline(__always)
    private func byte(_ b: UInt8) {
        if count == JSONOutput.flushAt + JSONOutput.slack { try? flushLater() }
        storage[count] = b
        count += 1
    }

    /// A failed write while appending is kept and thrown by the next `maybeFlush`, `flush` or `finish`.
    private var pending: (any Error)?

    private func flushLater() throws {
        do { try flush() } catch { pending = pending ?? error; count = 0 }
    }

    /// A JSON string literal with the escapes RFC 8259 requires.
    func string(_ s: String) {
        var s = s
        s.withUTF8 { string(utf8: $0) }
    }

    /// A JSON string literal of UTF-8 bytes, with the escapes RFC 8259 requires.
    func string(utf8: UnsafeBufferPointer<UInt8>) {
        byte(0x22)
        for b in utf8 {
            switch b {
            case 0x22: byte(0x5C); byte(0x22)
            case 0x5C: byte(0x5C); byte(0x5C)
            case 0x0A: byte(0x5C); byte(0x6E)
            case 0x0D: byte(0x5C); byte(0x72)
            case 0x09: byte(0x5C); byte(0x74)
            case 0..<0x20:
                for e in [0x5C, 0x75, 0x30, 0x30, Self.hex(b >> 4), Self.hex(b & 15)] as [UInt8] { byte(e) }
            default: byte(b)
            }
        }
        byte(0x22)
    }

    private static func hex(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x57 + v }

    func optionalString(_ s: String?) {
        if let s { string(s) } else { raw("null") }
    }

    func int(_ v: Int) { ascii(String(v)) }

    /// A double in its shortest round-tripping form (`1.0`, `0.75`).
    func double(_ v: Double) { ascii(String(v)) }

    private func ascii(_ s: String) {
        var s = s
        s.withUTF8 { put($0) }
    }

    func bool(_ v: Bool) { if v { raw("true") } else { raw("false") } }

    /// `"key":` (keys are plain identifiers; no escaping needed).
    func key(_ k: StaticString) {
        byte(0x22)
        raw(k)
        byte(0x22); byte(0x3A)
    }

    /// A string-to-string object with sorted keys (LocalizedText).
    func stringMap(_ map: [String: String]) {
        byte(0x7B)
        for (n, k) in map.keys.sorted().enumerated() {
            if n > 0 { byte(0x2C) }
            string(k); byte(0x3A); string(map[k] ?? "")
        }
        byte(0x7D)
    }

    /// Flushes when the buffer is full; call between records.
    func maybeFlush() throws {
        if let pending { throw pending }
        if count >= JSONOutput.flushAt { try flush() }
    }

    func flush() throws {
        if let pending { throw pending }
        guard count > 0 else { return }
        let chunk = UnsafeRawBufferPointer(start: storage, count: count)
        hash.update(chunk)
        do { try Descriptor.writeAll(fd, chunk, path: path) } catch {
            throw BackupError.fileSystem(path: path, reason: "\(error)")
        }
        byteCount += UInt64(count)
        count = 0
    }

    /// Flushes and closes the file; returns the SHA-256 of everything written. The file is an
    /// intermediate (the archive is what is synced), so it is not synced itself.
    func finish() throws -> String {
        try flush()
        closed = true
        guard close(fd) == 0 else { throw BackupError.fileSystem(path: path, reason: String(cString: strerror(errno))) }
        return hash.finalHex()
    }
}
