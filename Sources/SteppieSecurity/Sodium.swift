import CSodium

/// Initializes libsodium once per process. `sodium_init` is thread-safe and idempotent; the lazy
/// static makes every later caller reuse the first answer.
enum Sodium {
    private static let initialized: Bool = sodium_init() >= 0

    /// Throws `SecurityError.libraryUnavailable` when libsodium could not start.
    static func ready() throws {
        guard initialized else { throw SecurityError.libraryUnavailable }
    }

    /// Copies `text` into a zero-filled C string of at least `capacity` bytes, runs `body` with it and
    /// its length, then wipes it (`sodium_memzero`) so no copy of a secret outlives the call.
    static func withWipedCString<T>(_ text: String, capacity: Int = 0, _ body: (UnsafePointer<CChar>, Int) -> T) -> T {
        let length = text.utf8.count
        let size = max(length + 1, capacity)
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
        buffer.initialize(repeating: 0, count: size)
        defer {
            sodium_memzero(buffer, size)
            buffer.deallocate()
        }
        for (i, byte) in text.utf8.enumerated() { buffer[i] = CChar(bitPattern: byte) }
        return body(UnsafePointer(buffer), length)
    }
}
