import CSodium

/// Hashes and verifies short secrets (the guardian PIN and recovery code) with argon2id through
/// libsodium's `crypto_pwhash_str_alg`, producing self-describing `$argon2id$v=19$m=…,t=…,p=1$…` strings.
///
/// Default limits are libsodium's *interactive* ones (2 passes, 64 MiB): about 0.1–0.3 s per hash on
/// the project's 2-core machine (see docs/guardian.md). A 4-digit PIN has only 10 000 values, so the
/// hash alone cannot protect it: the stored backoff (`PinBackoffPolicy`) limits online guessing.
public struct PasswordHasher: Sendable {
    /// argon2id cost parameters.
    public struct Limits: Hashable, Sendable {
        /// Number of passes (`opslimit`).
        public let operations: UInt64
        /// Memory in bytes (`memlimit`).
        public let memoryBytes: Int

        public init(operations: UInt64, memoryBytes: Int) {
            self.operations = operations
            self.memoryBytes = memoryBytes
        }

        /// libsodium's interactive limits (2 passes, 64 MiB): the default.
        public static let interactive = Limits(operations: UInt64(csodium_pwhash_opslimit_interactive()),
                                               memoryBytes: Int(csodium_pwhash_memlimit_interactive()))
        /// libsodium's moderate limits (3 passes, 256 MiB): about 4× slower.
        public static let moderate = Limits(operations: UInt64(csodium_pwhash_opslimit_moderate()),
                                            memoryBytes: Int(csodium_pwhash_memlimit_moderate()))
    }

    /// The prefix of every hash this type writes and accepts.
    public static let prefix = "$argon2id$"

    public let limits: Limits

    /// Creates a hasher, initializing libsodium on first use.
    public init(limits: Limits = .interactive) throws {
        try Sodium.ready()
        self.limits = limits
    }

    /// A fresh salted argon2id hash of `secret`. The copy of the secret handed to libsodium is wiped afterwards.
    public func hash(_ secret: String) throws -> String {
        var out = [CChar](repeating: 0, count: csodium_pwhash_strbytes())
        let rc = Sodium.withWipedCString(secret) { pointer, length in
            crypto_pwhash_str_alg(&out, pointer, UInt64(length), limits.operations, limits.memoryBytes,
                                  csodium_pwhash_alg_argon2id13())
        }
        guard rc == 0 else { throw SecurityError.hashingFailed(reason: "crypto_pwhash_str_alg returned \(rc) (out of memory?)") }
        let hash = String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard hash.hasPrefix(PasswordHasher.prefix) else { throw SecurityError.hashingFailed(reason: "unexpected hash format") }
        return hash
    }

    /// True when `secret` matches `hash` (checked by libsodium in constant time). A malformed hash,
    /// or one not made with argon2id, never matches.
    public func verify(_ secret: String, against hash: String) -> Bool {
        let capacity = csodium_pwhash_strbytes()
        guard hash.hasPrefix(PasswordHasher.prefix), hash.utf8.count < capacity else { return false }
        return Sodium.withWipedCString(hash, capacity: capacity) { stored, _ in
            Sodium.withWipedCString(secret) { pointer, length in
                crypto_pwhash_str_verify(stored, pointer, UInt64(length)) == 0
            }
        }
    }

    /// True when `hash` was made with other limits (or is not a valid argon2id hash) and should be
    /// replaced by a fresh `hash(_:)` after the next successful verification.
    public func needsRehash(_ hash: String) -> Bool {
        let capacity = csodium_pwhash_strbytes()
        guard hash.hasPrefix(PasswordHasher.prefix), hash.utf8.count < capacity else { return true }
        return Sodium.withWipedCString(hash, capacity: capacity) { stored, _ in
            crypto_pwhash_str_needs_rehash(stored, limits.operations, limits.memoryBytes) != 0
        }
    }
}
