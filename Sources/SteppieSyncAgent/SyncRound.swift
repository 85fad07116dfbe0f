import Foundation
import SteppieCore
import SteppieStore
import SteppieSync
import SteppieSyncHTTP
import Synchronization

/// One device's exchanges with its hub as use cases shared by `steppie sync now`, the service's
/// background sync and the tests: push what waits, pull what is new, join with a code.
package enum SyncRound {
    /// What one round did.
    package struct Outcome: Equatable, Sendable {
        package var pushed = 0
        package var pulled = 0
        package init() {}
    }

    /// The hub client for a joined device, from what its store keeps.
    /// `keeper`: where the connection waits between this thread's requests (the service's two
    /// sync threads keep one each; a command's single round needs none).
    package static func client(_ state: SyncState, timeouts: SyncHTTPSClient.Timeouts = .init(),
                               keeper: SyncConnectionKeeper? = nil) throws -> SyncHubClient {
        guard let url = state.hubURL, let address = HubAddress(url), let fingerprint = state.hubFingerprint else {
            throw StoreError.syncOff
        }
        return SyncHubClient(transport: SyncHTTPSClient(hub: address, fingerprint: fingerprint, timeouts: timeouts, keeper: keeper),
                             credential: state.credential)
    }

    static func milliseconds(_ clock: any WallClock) -> Int64 {
        SyncProtocol.milliseconds(clock.now())
    }

    /// Pushes every entry waiting, batch by batch, until none waits. A refusal is kept in the
    /// store (status, guardian page) and thrown.
    @discardableResult
    package static func push(_ store: Store, _ client: SyncHubClient, clock: any WallClock) throws -> Int {
        var pushed = 0
        while let request = try store.syncPushRequest(physical: milliseconds(clock)) {
            // The content the entries name goes first, so no device is told of a photo the hub cannot give.
            try SyncBlobTransfer.send(SyncBlob.named(in: request.entries.map(\.entry)), store: store, client: client)
            let reply = try keepingRefusal(store, clock) { () throws(SyncTransportError) in try client.push(request) }
            SyncFault.reached("push-answered")   // the hub took it; this device has not recorded that yet
            try store.syncPushed(reply, physical: milliseconds(clock))
            let taken = request.entries.filter { $0.seq <= reply.acknowledged }.count
            pushed += taken
            if taken == 0 { break }
        }
        return pushed
    }

    /// Pulls until the hub has nothing more right now (`wait`: how long the first request may
    /// be held when nothing is new). While one reply is applied the next is already asked for
    /// (`PulledAhead`: the request a reply leads to is known when it comes), so the hub reads a
    /// page while this device writes the one before; an answer to a request the store would no
    /// longer make is dropped and asked for again.
    @discardableResult
    package static func pull(_ store: Store, _ client: SyncHubClient, clock: any WallClock, waitMilliseconds: Int = 0) throws -> Int {
        var pulled = 0
        var request = try store.syncPullRequest(physical: milliseconds(clock), waitMilliseconds: waitMilliseconds)
        var ahead: PulledAhead?
        var lostFiles = 0
        // A request in flight ends before this returns (the keeper's connection is this thread's alone).
        defer { ahead?.finish() }
        while true {
            let asked = ahead
            ahead = nil
            let reply = try keepingRefusal(store, clock) { () throws(SyncTransportError) in
                if let asked { return try asked.reply() }
                return try client.pull(request)
            }
            SyncFault.reached("pull-answered")   // the reply is here; nothing of it applied yet
            if let file = reply.copyFile {
                // A fresh copy as one file: its name and cursor kept first, so a device stopped
                // while fetching asks for the same file and goes on from the bytes it has.
                try store.syncPulled(reply, physical: milliseconds(clock))
                if let fetched = try SyncCopyFetch.fetch(file, databasePath: store.path, client: client) {
                    defer { fetched.release() }
                    let path = fetched.path
                    let applied: Store.SyncApplied
                    do {
                        applied = try store.syncApplyCopyFile(at: path, reply: reply, physical: milliseconds(clock))
                    } catch let error as StoreError {
                        if case .syncCopyFileRefused = error {
                            try? FileManager.default.removeItem(atPath: path)
                            try store.syncForgetCopyFile()   // the next request asks for another file
                        }
                        throw error
                    }
                    try? FileManager.default.removeItem(atPath: path)
                    pulled += applied.changesTaken + applied.eventsTaken
                } else {
                    lostFiles += 1   // the hub no longer has it: the next request makes another
                    if lostFiles > 3 { throw SyncTransportError.badResponse(reason: "the hub's copy files keep going away") }
                }
                request = try store.syncPullRequest(physical: milliseconds(clock))
                continue
            }
            if reply.more && !SyncProtocol.closesCopy(reply.copyAfter) {
                ahead = PulledAhead(client, PullRequest(device: request.device, sentAt: milliseconds(clock), cursor: reply.cursor,
                                                        waitMilliseconds: 0, copyAfter: reply.copyAfter))
            }
            let applied = try store.syncPulled(reply, physical: milliseconds(clock))
            pulled += applied.changesTaken + applied.eventsTaken
            if !reply.more {
                // The content the rows name that is not here yet (tried again after every pull until it comes).
                SyncBlobTransfer.fetchMissing(store: store, client: client)
                return pulled
            }
            request = try store.syncPullRequest(physical: milliseconds(clock))
            if let next = ahead, next.request.cursor != request.cursor || next.request.copyAfter != request.copyAfter {
                next.finish()
                ahead = nil
            }
        }
    }

    /// Whether `text` is a hub address a device can use (`https://ADDR:PORT`).
    package static func isHubAddress(_ text: String) -> Bool { HubAddress(text) != nil }

    /// Runs one exchange; a refusal from the hub is kept in the store (status, guardian page)
    /// before it is thrown on.
    private static func keepingRefusal<T>(_ store: Store, _ clock: any WallClock,
                                          _ exchange: () throws(SyncTransportError) -> T) throws -> T {
        do {
            return try exchange()
        } catch {
            if case .refused(let refusal) = error { try store.syncRefused(refusal, physical: milliseconds(clock)) }
            throw error
        }
    }

    /// The waits of an exchange a guardian waits for on a page (join, "Sync now"): a hub that is
    /// away or silent is said within about 15 s, never the background's 30 s request.
    package static let pageTimeouts = SyncHTTPSClient.Timeouts(connectMilliseconds: 5_000, handshakeMilliseconds: 5_000,
                                                               requestMilliseconds: 10_000)

    /// Push then pull: what `steppie sync now` does.
    package static func now(_ store: Store, clock: any WallClock, timeouts: SyncHTTPSClient.Timeouts = .init()) throws -> Outcome {
        guard let state = try store.syncState(), state.role == .device else { throw StoreError.syncOff }
        let client = try client(state, timeouts: timeouts)
        var outcome = Outcome()
        outcome.pushed = try push(store, client, clock: clock)
        outcome.pulled = try pull(store, client, clock: clock)
        return outcome
    }

    /// Joins the hub at `url` with the code its guardian was shown, after checking the hub's
    /// certificate against `fingerprint`; this device's rows then wait to be pushed.
    package static func join(_ store: Store, url: String, code: String, fingerprint: String, deviceName: String,
                             clock: any WallClock, timeouts: SyncHTTPSClient.Timeouts = .init()) throws -> JoinReply {
        guard try store.syncState() == nil else { throw StoreError.syncAlreadyOn }
        guard let address = HubAddress(url) else { throw SyncTransportError.invalidAddress(url) }
        let device = DeviceID(UUID())
        let client = SyncHubClient(transport: SyncHTTPSClient(hub: address, fingerprint: fingerprint, timeouts: timeouts), credential: nil)
        let reply = try client.join(JoinRequest(code: code, deviceName: deviceName, device: device))
        try store.joinSyncHub(device: device, hubURL: address.description, fingerprint: fingerprint, hubDevice: reply.hubDevice,
                              credential: reply.credential, at: clock.now())
        return reply
    }
}

/// A pull asked for on its own thread while the caller applies the reply before it.
final class PulledAhead: Sendable {
    let request: PullRequest
    private let answer = Mutex<Result<PullReply, SyncTransportError>?>(nil)
    private let answered = DispatchSemaphore(value: 0)

    init(_ client: SyncHubClient, _ request: PullRequest) {
        self.request = request
        let thread = Thread { [self] in   // the thread keeps `self` until the answer is in
            let result = Result { () throws(SyncTransportError) in try client.pull(request) }
            answer.withLock { $0 = result }
            answered.signal()
        }
        thread.name = "steppie-pull-ahead"
        thread.start()
    }

    /// Waits for the answer (once).
    func reply() throws(SyncTransportError) -> PullReply {
        answered.wait()
        answered.signal()
        guard let result = answer.withLock({ $0 }) else { preconditionFailure("answered without an answer") }
        return try result.get()
    }

    /// Waits for the request to end, its answer unused.
    func finish() { _ = try? reply() }
}

/// Test-only fault injection for the crash tests (`SyncProcessTests`): with
/// `STEPPIE_TEST_KILL_SYNC_AT=<point>` in its environment the process SIGKILLs itself the
/// `STEPPIE_TEST_KILL_SYNC_AFTER`-th time (default the first) it reaches that point, as a power
/// cut would stop it there. Read once; unset, nothing happens.
enum SyncFault {
    static let killAt = ProcessInfo.processInfo.environment["STEPPIE_TEST_KILL_SYNC_AT"]
    static let after = ProcessInfo.processInfo.environment["STEPPIE_TEST_KILL_SYNC_AFTER"].flatMap(Int.init) ?? 1
    static let count = Atomic<Int>(0)

    static func reached(_ point: String) {
        guard let killAt, killAt == point else { return }
        if count.add(1, ordering: .relaxed).newValue >= after { kill(getpid(), SIGKILL) }
    }
}
