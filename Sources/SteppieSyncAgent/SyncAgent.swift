import Foundation
import SteppieCore
import SteppieStore
import SteppieSync
import SteppieSyncHTTP
import Synchronization

/// A joined device's background sync in `steppie serve` (docs/sync.md, "In the service"): one
/// thread pushes whatever waits in the outbox (looked at every `pushCheckMilliseconds`, so a
/// change reaches the hub within a second of its commit, whichever process made it), another
/// long-polls the hub's feed and applies what comes (the child's screen follows the database).
/// Each thread owns its own store. A press never waits for either: they only read and write the
/// database like any other process. When the hub is away, each retries with backoff up to
/// `maxBackoffSeconds`; a refusal is kept for the status page and said once in the log. A
/// service whose device does not sync (yet) looks every `idleCheckSeconds` whether it joined
/// (the guardian's sync page, `steppie sync join`), so it syncs from then on without a restart.
package final class SyncAgent: Sendable {
    package static let pushCheckMilliseconds = 250
    package static let pullWaitMilliseconds = 20_000
    package static let maxBackoffSeconds = 60.0
    package static let idleCheckSeconds = 1.0

    private let databasePath: String
    private let timeZone: TimeZone
    private let clock: any WallClock
    private let log: @Sendable (CatalogMessage) -> Void
    private let stopping = Atomic<Bool>(false)
    private let wake = NSCondition()

    package init(databasePath: String, timeZone: TimeZone, clock: any WallClock, log: @escaping @Sendable (CatalogMessage) -> Void) {
        self.databasePath = databasePath
        self.timeZone = timeZone
        self.clock = clock
        self.log = log
    }

    /// The agent's threads' nice value: their TLS handshakes and JSON give way to the press's
    /// thread when both want a core (a device has two or four).
    package static let niceness: Int32 = 10

    /// Lowers the calling thread's priority (Linux keeps the nice value per thread: `who` 0 is the
    /// calling thread, not the whole service).
    private static func yieldToPresses() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
    }

    package func start() {
        Thread.detachNewThread { [self] in
            Self.yieldToPresses()
            loop(push: true, back: "sync.log.pushBack", failed: "sync.log.pushFailed") { store, client in
                _ = try SyncRound.push(store, client, clock: clock)
            }
        }
        Thread.detachNewThread { [self] in
            Self.yieldToPresses()
            loop(push: false, back: "sync.log.pullBack", failed: "sync.log.pullFailed") { store, client in
                _ = try SyncRound.pull(store, client, clock: clock, waitMilliseconds: Self.pullWaitMilliseconds)
            }
        }
    }

    /// Ends both loops (a pull held by the hub ends with its request).
    package func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        wake.lock()
        wake.broadcast()
        wake.unlock()
    }

    private func pause(seconds: Double) {
        wake.lock()
        if !stopping.load(ordering: .sequentiallyConsistent) { _ = wake.wait(until: Date().addingTimeInterval(seconds)) }
        wake.unlock()
    }

    /// One loop: open a store, run `round` again and again; on a failure, say it once, wait
    /// (doubling up to the limit), and go on; say so when it works again.
    private func loop(push: Bool, back: String, failed: String, _ round: (Store, SyncHubClient) throws -> Void) {
        var backoff = 1.0
        var failing: String?
        var store: Store?
        let keeper = SyncConnectionKeeper()
        defer { keeper.drop() }
        while !stopping.load(ordering: .sequentiallyConsistent) {
            do {
                let current = try store ?? Store(path: databasePath, timeZone: timeZone, mode: .existingOnly)
                let clock = self.clock
                if store == nil {
                    current.setSyncClock { clock.now() }
                    try current.relaxCommitSync()
                }
                store = current
                guard let state = try current.syncState(), state.role == .device else {
                    // Not joined (yet, or it left the hub): look again shortly.
                    keeper.drop()
                    pause(seconds: Self.idleCheckSeconds)
                    continue
                }
                let client = try SyncRound.client(state, keeper: keeper)
                if push, try current.syncPendingCount() == 0 {
                    keeper.dropIfIdle()
                    pause(seconds: Double(Self.pushCheckMilliseconds) / 1000)
                    continue
                }
                try round(current, client)
                if failing != nil {
                    log(CatalogMessage(back))
                    failing = nil
                }
                backoff = 1
            } catch {
                let message = (error as? any CatalogDescribable)?.catalogMessage ?? CatalogMessage.log(error)
                let text = String(describing: message)
                keeper.drop()   // the next try starts on a new connection
                if failing != text {
                    log(CatalogMessage(failed, ["reason": .message(message)]))
                    failing = text
                }
                pause(seconds: backoff)
                backoff = min(backoff * 2, Self.maxBackoffSeconds)
            }
        }
    }
}
