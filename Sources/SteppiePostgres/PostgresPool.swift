import Dispatch
import Synchronization

/// A bounded pool of connections to one database: at most `size` at once, made when first
/// needed. A caller waits for a free one until its deadline (then `poolExhausted`). A connection
/// whose session broke (the server restarted) is dropped when it comes back, so the next caller
/// gets a new one: the caller that saw the break got `unavailable`, which it maps to "retry".
package final class PostgresPool: Sendable {
    /// What the pool has done, for tests, logs and the benchmark's "connections used".
    package struct Statistics: Equatable, Sendable {
        /// Connections made, and dropped because their session broke.
        package var made = 0
        package var dropped = 0
        /// Connections handed out now, and the most at once.
        package var inUse = 0
        package var peakInUse = 0
        /// Callers that gave up waiting.
        package var timedOut = 0
    }

    /// A connection parked in the pool. Not Sendable by design, it moves between threads only
    /// through the pool's lock, and is used by one caller at a time.
    private final class Parked: @unchecked Sendable {
        let connection: PostgresConnection
        init(_ connection: PostgresConnection) { self.connection = connection }
    }

    package let size: Int
    private let conninfo: String
    /// One permit per connection the pool may have out at once.
    private let permits: DispatchSemaphore
    private let idle = Mutex<[Parked]>([])
    private let counters = Mutex(Statistics())

    /// A pool of at most `size` connections (at least one) made with `conninfo`.
    package init(conninfo: String, size: Int) {
        self.conninfo = conninfo
        self.size = max(size, 1)
        permits = DispatchSemaphore(value: self.size)
    }

    package var statistics: Statistics { counters.withLock { $0 } }

    /// A connection of its own, outside the pool's bound and never returned to it: for a caller
    /// that holds one for a long time (the hub's listener waiting for notifications).
    package func dedicatedConnection() throws -> PostgresConnection {
        try PostgresConnection(conninfo: conninfo)
    }

    /// Runs `body` on a connection of the pool, waiting at most `timeout` for one. A connection
    /// left broken by `body` is dropped; a connection left inside a transaction is dropped too
    /// (the next caller must not inherit it).
    package func withConnection<T>(timeout: Duration = .seconds(5), _ body: (PostgresConnection) throws -> T) throws -> T {
        let parts = timeout.components
        let nanoseconds = max(0, parts.seconds) * 1_000_000_000 + max(0, parts.attoseconds / 1_000_000_000)
        guard permits.wait(timeout: .now() + .nanoseconds(Int(clamping: nanoseconds))) == .success else {
            counters.withLock { $0.timedOut += 1 }
            throw PostgresError.poolExhausted(waitedMilliseconds: Int(clamping: nanoseconds / 1_000_000))
        }
        defer { permits.signal() }
        let parked: Parked
        if let reused = idle.withLock({ $0.popLast() }) {
            parked = reused
        } else {
            parked = Parked(try PostgresConnection(conninfo: conninfo))
            counters.withLock { $0.made += 1 }
        }
        counters.withLock {
            $0.inUse += 1
            $0.peakInUse = max($0.peakInUse, $0.inUse)
        }
        defer {
            counters.withLock { $0.inUse -= 1 }
            if parked.connection.isBroken || parked.connection.inTransaction {
                counters.withLock { $0.dropped += 1 }
            } else {
                idle.withLock { $0.append(parked) }
            }
        }
        return try body(parked.connection)
    }
}
