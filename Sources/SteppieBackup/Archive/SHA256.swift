import CSodium

/// Incremental SHA-256 from libsodium (`crypto_hash_sha256_*`).
struct SHA256 {
    private var state = crypto_hash_sha256_state()

    init() throws {
        // sodium_init: 0 done now, 1 already done, -1 failed.
        guard sodium_init() >= 0 else {
            throw BackupError.crypto(operation: "sodium_init", code: -1)
        }
        try Self.check(crypto_hash_sha256_init(&state), "crypto_hash_sha256_init")
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        try Self.check(crypto_hash_sha256_update(&state, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count)),
                       "crypto_hash_sha256_update")
    }

    mutating func update(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try update($0) }
    }

    /// The digest as lowercase hexadecimal.
    mutating func finalHex() throws -> String {
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        try Self.check(crypto_hash_sha256_final(&state, &digest), "crypto_hash_sha256_final")
        let hex = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(digest.count * 2)
        for b in digest { out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// SHA-256 of `bytes` as lowercase hexadecimal.
    static func hex(of bytes: [UInt8]) throws -> String {
        var h = try SHA256()
        try h.update(bytes)
        return try h.finalHex()
    }

    private static func check(_ rc: Int32, _ operation: String) throws {
        guard rc == 0 else { throw BackupError.crypto(operation: operation, code: rc) }
    }
}
