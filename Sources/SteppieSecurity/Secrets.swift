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
}
