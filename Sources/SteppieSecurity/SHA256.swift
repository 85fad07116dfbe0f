import CSodium
import Foundation

/// SHA-256 through libsodium's `crypto_hash_sha256`, incrementally or in one call.
public struct SHA256 {
    private var state = crypto_hash_sha256_state()

    /// Starts a new digest.
    public init() {
        _ = try? Sodium.ready()   // SHA-256 needs no random source; init only settles CPU features
        crypto_hash_sha256_init(&state)
    }

    /// Feeds more bytes.
    public mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// Feeds more bytes.
    public mutating func update(_ raw: UnsafeRawBufferPointer) {
        guard let base = raw.bindMemory(to: UInt8.self).baseAddress, raw.count > 0 else { return }   // empty: nothing to add
        crypto_hash_sha256_update(&state, base, UInt64(raw.count))
    }

    /// Feeds more bytes.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of everything fed so far as 64 lowercase hex digits. The state is spent afterwards.
    public mutating func finalHex() -> String { Self.hex(finalize()) }

    /// The 32-byte digest of everything fed so far. The state is spent afterwards.
    public mutating func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: csodium_hash_sha256_bytes())
        crypto_hash_sha256_final(&state, &digest)
        return digest
    }

    /// The digest of `data` as 64 lowercase hex digits.
    public static func hex(of data: Data) -> String {
        var hasher = SHA256()
        hasher.update(data)
        return hex(hasher.finalize())
    }

    /// Lowercase hex of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
