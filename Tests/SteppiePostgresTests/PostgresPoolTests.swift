import Foundation
import SteppieTestSupport
import Synchronization
import Testing
@testable import SteppiePostgres

/// Values gathered from several threads.
final class Collected<Value: Sendable>: Sendable {
    private let list = Mutex<[Value]>([])
    func append(_ value: Value) { list.withLock { $0.append(value) } }
    var values: [Value] { list.withLock { $0 } }
}

extension PostgresTests {
    /// The bounded pool: never more connections than its size, callers waiting with a deadline,
    /// a connection broken by a server restart dropped and replaced.
    @Suite struct Pool {
        /// Runs `body` on `count` threads let go together, and waits for them all.
        static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
            let ready = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
            for index in 0..<count {
                Thread {
                    ready.signal()
                    go.wait()
                    body(index)
                    done.signal()
                }.start()
            }
            for _ in 0..<count { ready.wait() }
            for _ in 0..<count { go.signal() }
            for _ in 0..<count { done.wait() }
        }

        @Test func aPoolOfTwoServesEightConcurrentCallers() throws {
            let pool = PostgresPool(conninfo: try #require(PostgresTestDatabase.conninfo), size: 2)
            let results = Collected<Result<[[Int64]], any Error>>()
            Self.onThreads(8) { index in
                results.append(Result {
                    try pool.withConnection(timeout: .seconds(20)) { c in
                        // Held a while, so that callers really queue for the two connections.
                        try c.query("SELECT pg_backend_pid(), $1::bigint FROM pg_sleep(0.2)", [.int(index)]) { [try $0.int(0), try $0.int(1)] }
                    }
                })
            }
            let rows = try results.values.map { try $0.get() }
            #expect(rows.count == 8)
            #expect(Set(rows.compactMap { $0.first?[1] }) == Set((0..<8).map { Int64($0) }))
            #expect(Set(rows.compactMap { $0.first?[0] }).count <= 2)
            let statistics = pool.statistics
            #expect(statistics.peakInUse == 2)
            #expect(statistics.made == 2)
            #expect(statistics.inUse == 0)
            #expect(statistics.timedOut == 0)
        }

        @Test func aCallerGivesUpAtItsDeadline() throws {
            let pool = PostgresPool(conninfo: try #require(PostgresTestDatabase.conninfo), size: 1)
            let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
            Thread {
                _ = try? pool.withConnection { _ in
                    held.signal()
                    release.wait()
                }
                finished.signal()
            }.start()
            held.wait()
            #expect(throws: PostgresError.poolExhausted(waitedMilliseconds: 50)) {
                try pool.withConnection(timeout: .milliseconds(50)) { _ in }
            }
            release.signal()
            finished.wait()
            #expect(try pool.withConnection(timeout: .seconds(5)) { try $0.queryFirst("SELECT 1") { try $0.int(0) } } == 1)
            #expect(pool.statistics.timedOut == 1)
            #expect(pool.statistics.made == 1)
            #expect(PostgresError.poolExhausted(waitedMilliseconds: 50).isRetryable)
        }

        static var pgctl: String? { ProcessInfo.processInfo.environment["STEPPIE_TEST_POSTGRES_PGCTL"] }

        @Test(.enabled(if: pgctl != nil, "STEPPIE_TEST_POSTGRES_PGCTL is unset: a server of scripts/with-postgres.sh is needed to restart it"))
        func afterTheServerRestartsTheNextCallReconnects() throws {
            let pgctl = try #require(Self.pgctl)
            let pool = PostgresPool(conninfo: try #require(PostgresTestDatabase.conninfo), size: 1)
            let before = try pool.withConnection { c in try #require(try c.queryFirst("SELECT pg_backend_pid()") { try $0.int(0) }) }

            #expect(SpawnedProcess.run(pgctl, ["restart", "-m", "fast", "-w", "-t", "30"], timeout: 60) == 0)

            // The call on the old session is told to retry, never given a wrong answer.
            let error = try #require(throws: PostgresError.self) {
                try pool.withConnection { c in try c.queryFirst("SELECT pg_backend_pid()") { try $0.int(0) } }
            }
            guard case .unavailable = error else { Issue.record("expected unavailable, got \(error)"); return }
            #expect(error.isRetryable)
            #expect(error.catalogMessage.key == "postgres.error.unavailable")
            // The broken connection was dropped: the next call gets a new session, and it works.
            let after = try pool.withConnection { c in try #require(try c.queryFirst("SELECT pg_backend_pid()") { try $0.int(0) }) }
            #expect(after != before)
            let statistics = pool.statistics
            #expect(statistics.made == 2)
            #expect(statistics.dropped == 1)
        }
    }
}
