/// What the security adapter refuses, as values tests can compare.
public enum SecurityError: Error, Equatable, Sendable {
    /// `sodium_init` failed: the library cannot be used on this system.
    case libraryUnavailable
    /// libsodium could not hash (usually: not enough memory for the argon2id limits).
    case hashingFailed(reason: String)
}
