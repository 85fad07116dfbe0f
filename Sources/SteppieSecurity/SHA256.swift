import CNettle
import Foundation

/// SHA-256 through nettle's `sha256_*`, incrementally or in one call. nettle uses the CPU's SHA
/// extensions where there are any: a backup hashes its whole data.json (hundreds of MiB) once when
/// it is written and twice when it is restored.
public struct SHA256 {
    private var context = sha256_ctx()

    /// Starts a new digest.
    public init() {
        nettle_sha256_init(&context)
    }

    /// Feeds more bytes.
    public mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// Feeds more bytes.
    public mutating func update(_ raw: UnsafeRawBufferPointer) {
        guard let base = raw.bindMemory(to: UInt8.self).baseAddress, raw.count > 0 else { return }   // empty: nothing to add
        nettle_sha256_update(&context, raw.count, base)
    }

    /// Feeds more bytes.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of everything fed so far as 64 lowercase hex digits. The state is spent afterwards.
    public mutating func finalHex() -> String { Self.hex(finalize()) }

    /// The 32-byte digest of everything fed so far. The state is spent afterwards.
    public mutating func finalize() -> [UInt8] {
        let size = cnettle_sha256_digest_size()
        var digest = [UInt8](repeating: 0, count: size)
        nettle_sha256_digest(&context, size, &digest)
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
