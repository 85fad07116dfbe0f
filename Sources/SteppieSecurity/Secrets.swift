import CSodium

/// Random secrets from libsodium's CSPRNG (`randombytes_*`, backed by the kernel's getrandom).
public enum Secrets {
    /// A uniformly random 6-digit recovery code, `000000`…`999999`.
    ///
    /// randombytes works without `sodium_init` on Linux; it is still attempted first so the
    /// generator is set up the documented way.
    public static func randomRecoveryCode() -> String {
        try? Sodium.ready()
        let value = randombytes_uniform(1_000_000)
        let digits = String(value)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// `count` uniformly random decimal digits (a joining code).
    public static func randomDigits(_ count: Int) -> String {
        try? Sodium.ready()
        return String((0..<count).map { _ in Character(String(randombytes_uniform(10))) })
    }

    /// `byteCount` random bytes as lowercase hex (a 256-bit session token is `randomToken()`).
    public static func randomToken(byteCount: Int = 32) -> String {
        try? Sodium.ready()
        var bytes = [UInt8](repeating: 0, count: byteCount)
        randombytes_buf(&bytes, byteCount)
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// Compares two secrets in time that does not depend on where they differ.
    public static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<x.count { diff |= x[i] ^ y[i] }
        return diff == 0
    }
}
