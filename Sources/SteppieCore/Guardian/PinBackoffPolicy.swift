import Foundation

/// How long PIN entry is refused after failed attempts. Pure: the store keeps the count and the
/// time of the last failure, so the backoff survives restarts and holds across processes.
///
/// With the defaults: failures 1–4 lock nothing; the 5th locks for 30 s, and each further failure
/// doubles the lock (60 s, 120 s, …) up to one hour. A successful attempt resets the count.
public struct PinBackoffPolicy: Hashable, Sendable {
    /// Failures allowed before the first lock.
    public let freeFailures: Int
    /// The lock after the first locking failure.
    public let baseLock: TimeInterval
    /// The longest lock.
    public let maximumLock: TimeInterval

    /// The policy of docs/guardian.md: 5 failures → 30 s, doubling, capped at 1 h.
    public static let standard = PinBackoffPolicy(freeFailures: 4, baseLock: 30, maximumLock: 3600)

    public init(freeFailures: Int, baseLock: TimeInterval, maximumLock: TimeInterval) {
        self.freeFailures = max(0, freeFailures)
        self.baseLock = max(0, baseLock)
        self.maximumLock = max(baseLock, maximumLock)
    }

    /// The lock that follows the `failures`-th consecutive failure (0 while still free).
    public func lockDuration(afterFailures failures: Int) -> TimeInterval {
        let doublings = failures - freeFailures - 1
        guard doublings >= 0 else { return 0 }
        // 2^7 × 30 s already exceeds an hour; stop doubling early so huge counts cannot overflow.
        var lock = baseLock
        for _ in 0..<min(doublings, 62) where lock < maximumLock { lock *= 2 }
        return min(lock, maximumLock)
    }

    /// Until when entry is refused after `failures` failures, the last at `lastFailure`; nil when not locked.
    public func lockedUntil(failures: Int, lastFailure: SecureInstant) -> SecureDeadline? {
        let lock = lockDuration(afterFailures: failures)
        return lock > 0 ? SecureDeadline(after: lock, from: lastFailure) : nil
    }

    /// Seconds of lock left at `now` after `failures` failures (zero or less when not locked).
    /// Never more than the lock those failures earn, whatever the stored deadline says: a lock
    /// written while the wall clock was far ahead cannot lock the guardian out for longer.
    public func lockRemaining(until deadline: SecureDeadline?, failures: Int, now: SecureInstant) -> TimeInterval {
        guard let deadline else { return 0 }
        return deadline.remaining(at: now, longest: lockDuration(afterFailures: failures), acrossBoots: true)
    }
}
