import Synchronization

/// A lock over state its owner keeps in its own stored properties (`FeedbackEngine`): a
/// `Synchronization.Mutex` guarding nothing but the section it runs. Where the state can live
/// inside the mutex, use `Mutex<State>` instead, and the compiler checks the owner's `Sendable`.
struct CriticalSection: ~Copyable {
    private let mutex = Mutex<Void>(())

    /// Runs `body` with the lock held.
    func run<T>(_ body: () throws -> T) rethrows -> T {
        try mutex.withLock { _ in try body() }
    }
}
