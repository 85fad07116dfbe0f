import Foundation
import SteppieCore
import SteppiePostgres
import SteppieSecurity
import SteppieSync
import SteppieSyncHTTP
import Synchronization

/// The centre's hub (`steppie hub`, docs/centre.md): the sync protocol answered from PostgreSQL
/// through a bounded pool, every request on its own connection thread. A pull with nothing new
/// is held until the feed moves — a push taken by this process wakes it at once; one taken by
/// another process on the same database wakes it through PostgreSQL's NOTIFY at that push's commit
/// (`startListening`), and is read at the next poll in any case (`nudgedPollMilliseconds` while the
/// listener is connected, `pollMilliseconds` while it is not) — or its wait is over.
/// While the listener runs, the process keeps the feed's newest entries (`FeedTail`): a push it
/// takes puts its own entries there as it committed them, other processes' pushes are read once
/// for the whole process (`catchUp`), and the held pulls they concern are woken and answer from
/// it. A push that woke two devices' pulls was two reads of the feed, each with its device's row
/// (docs/centre.md, "One read of the feed for every held pull").
/// A database that cannot answer now (a lost connection, a busy pool, a restart) is `unavailable`:
/// the device keeps its changes and asks again.
package final class PostgresSyncHub: SyncHubHandling {
    package let store: CentreStore
    package let clock: any WallClock
    /// The longest a pull is held, whatever the device asked (the household hub's).
    package static let maxWaitMilliseconds = 25_000
    package static let pollMilliseconds = 200
    /// How often a held pull reads the feed while the listener is connected: the notification is
    /// the fast path (PostgreSQL loses none while the session lasts, and a new session wakes every
    /// pull), this is only a safety net; each read is a transaction, so 500 held pulls at 1 s were
    /// 500 reads a second for nothing.
    package static let nudgedPollMilliseconds = 5_000
    /// How long a held pull woken while this process has another device's push of its children
    /// under way waits for it, so one answer carries both (`pull`): a device whose children two
    /// groups of pushes concern was answered and came back for each.
    package static let lingerMilliseconds = 10
    /// What moved and when, in wake-up numbers, and the held pulls waiting, each on a condition
    /// of its own under the children it gets: a wake-up that comes between a pull's read and its
    /// wait is not missed, a held pull goes back to the database only for a change that may
    /// concern it (every push waking every pull was hundreds of reads a push, which filled the
    /// pool), and a push wakes only those pulls' threads (one condition for all made every push
    /// wake all 500 held pulls' threads, one after another through its lock, to find most had
    /// nothing to do).
    let board = BlockingLock(WakeBoard())
    /// This process's pushes under way, by child (`PendingPushes`).
    let pending = BlockingLock(PendingPushes())
    let stopping = Atomic<Bool>(false)
    /// The hub's time when a pull last looked for feed entries past the horizon.
    private let lastForget = Atomic<Int64>(Int64.min / 2)
    /// How often pulls look for entries past the horizon (180 days): every 10 s of the hub's clock.
    package static let forgetEveryMilliseconds: Int64 = 10_000
    private let listening = Atomic<Bool>(false)
    /// Notifications received from PostgreSQL, for tests and the benchmark.
    private let nudges = Atomic<Int>(0)
    /// Reads of the feed by pulls (each a transaction), for tests and the benchmark.
    private let reads = Atomic<Int>(0)
    /// What each device was last answered from the feed, while it may come straight back for
    /// more (`Answered`); taken by its next pull.
    private let answered = BlockingLock<[String: Answered]>([:])
    /// Pulls held without reading the feed (`quietHold`), for tests and the benchmark.
    private let quietHolds = Atomic<Int>(0)
    /// Pulls answered from the tail (with no read of the database's feed), for tests and the benchmark.
    let tailAnswers = Atomic<Int>(0)
    /// Held pulls that lingered after their wake-up (`lingerMilliseconds`), for tests and the benchmark.
    private let lingered = Atomic<Int>(0)
    /// The feed's newest entries as the follower last read them (`FeedTail`).
    let tail = BlockingLock(FeedTail())
    /// Whether the follower should read again (a push was taken, a nudge came), under `followLock`.
    let followLock = NSCondition()
    nonisolated(unsafe) var followAgain = false
    /// `catchUp`'s rounds: asked for, covered by a round done, one under way.
    let rounds = Rounds()
    /// Whether the last round failed.
    let failing = Atomic<Bool>(false)
    /// Whether `startListening` started the follower (the tail is then kept).
    let followerStarted = Atomic<Bool>(false)
    /// How often the follower reads the feed with no push nor nudge to tell it (a safety net for a
    /// lost notification), and while the listener is away (no other process's push is told then).
    package static let followPollMilliseconds = 1_000
    /// The most entries one read of the follower takes (it reads again at once after a full one).
    static let followReadLimit = 2_000
    /// Pushes that arrive while others are being written, taken together (`runGroup`): at most
    /// two groups at once a process (each a pooled connection), 64 pushes or 4,000 entries each.
    let pushGroups = Grouping<CentreStore.GroupedPush, GroupAnswer>(maxRunning: 2, maxInputs: 64, maxWeight: 4_000)
    /// Groups that failed as a whole (each push then went alone), for tests.
    let groupsFailed = Atomic<Int>(0)
    /// How long an answer stays usable for the device's next pull, in the hub's clock.
    package static let answeredForMilliseconds: Int64 = 30_000
    /// The most answers kept (past it they are all dropped: a pull then reads, as it would anyway).
    static let maxAnswered = 100_000
    let log: @Sendable (CatalogMessage) -> Void
    /// What a sent photo or recording is (the command line's photo and audio checks), given its
    /// bytes and a file holding them; nil: the hub keeps no content.
    package let checkBlob: (@Sendable ([UInt8], String) -> Result<SyncBlob.Kind, SyncRefusal>)?

    package init(store: CentreStore, clock: any WallClock,
                 checkBlob: (@Sendable ([UInt8], String) -> Result<SyncBlob.Kind, SyncRefusal>)? = nil,
                 log: @escaping @Sendable (CatalogMessage) -> Void) {
        self.store = store
        self.clock = clock
        self.checkBlob = checkBlob
        self.log = log
    }

    var now: Int64 { SyncProtocol.milliseconds(clock.now()) }

    package static func credentialHash(_ credential: String) -> String { SHA256.hex(of: Data(credential.utf8)) }

    /// Runs a request on the database: its refusal, or PostgreSQL's failure as the device is told it.
    func answer<T>(_ body: () throws -> Result<T, SyncRefusal>) throws(SyncRefusal) -> T {
        let result: Result<T, SyncRefusal>
        do {
            result = try body()
        } catch {
            let refusal = Self.refusal(for: error)
            if refusal == .unavailable {
                log(CatalogMessage("sync.log.hubStore", ["reason": .message(CatalogMessage.log(error))]))
            }
            throw refusal
        }
        return try result.get()
    }

    /// What a device is told when PostgreSQL refused: text it sent that the database cannot hold
    /// (a NUL: `22P05`, or a NUL in a text parameter; another data exception or a check) is
    /// malformed; anything else — retryable or not — is `unavailable`, nothing was taken.
    static func refusal(for error: any Error) -> SyncRefusal {
        guard let error = error as? PostgresError else { return .unavailable }
        if case .invalidParameter = error { return .malformed(reason: "text holds a NUL character") }
        if error.isRetryable { return .unavailable }
        if let state = error.sqlState {
            if state == "22P05" { return .malformed(reason: "text holds a NUL character") }
            if state.hasPrefix("22") || state.hasPrefix("23") { return .malformed(reason: "refused by the hub's tables (\(state))") }
        }
        return .unavailable
    }

    /// Wakes the held pulls of devices that get one of `children` (nil: every held pull).
    func wake(children: Set<String>? = nil, from origin: String? = nil) {
        let waiting = board.withLock { $0.moved(children, from: origin) }
        for waiter in waiting { waiter.signal() }
    }

    /// Wake-ups so far (a pull's "seen" mark).
    package var wakeupCount: Int { board.withLock { $0.count } }

    /// True while the listener holds its connection with `LISTEN` in effect.
    package var isListening: Bool { listening.load(ordering: .sequentiallyConsistent) }
    /// The notifications the listener has received and acted on (their wake-ups on the board).
    package var nudgesReceived: Int { nudges.load(ordering: .sequentiallyConsistent) }
    /// The looks at the feed pulls have made (a held pull's first and each after a wake-up or a
    /// poll), from the database or from the process's tail (`pullsAnsweredFromTail`).
    package var pullReads: Int { reads.load(ordering: .sequentiallyConsistent) }
    /// The pulls held without a first read, their device's last answer being still whole.
    package var pullsHeldQuietly: Int { quietHolds.load(ordering: .sequentiallyConsistent) }
    /// The looks counted in `pullReads` that were answered from the process's tail, not the database's feed.
    package var pullsAnsweredFromTail: Int { tailAnswers.load(ordering: .sequentiallyConsistent) }
    /// Held pulls that lingered after their wake-up for other pushes under way.
    package var pullsLingered: Int { lingered.load(ordering: .sequentiallyConsistent) }
    /// Pulls held now, waiting for a wake-up.
    package var pullsWaiting: Int { board.withLock { $0.waiters } }
    /// Groups of pushes run, pushes taken in them and the largest (`pushGroups`).
    package var pushGroupCounts: (groups: Int, pushes: Int, largest: Int) {
        let c = pushGroups.counts
        return (c.groups, c.inputs, c.largest)
    }
    /// Pushes waiting for a group now.
    package var pushesWaitingForAGroup: Int { pushGroups.waitingCount }
    /// Groups that failed as a whole, each of their pushes then tried alone.
    package var pushGroupsFailed: Int { groupsFailed.load(ordering: .sequentiallyConsistent) }
    /// Whether the follower holds the feed's newest entries now (pulls may answer from them).
    package var isFollowing: Bool { tail.withLock { $0.base != nil } }

    /// Listens on a connection of its own (outside the pool) for the NOTIFY every process sends
    /// when it commits a push or changes what a device gets (`CentreStore.nudge`), and wakes the
    /// held pulls. A lost connection (the database restarted) is made again after a second; in
    /// between, held pulls read at `pollMilliseconds`. Ends when the hub stops.
    /// The follower starts with it (`follow`).
    package func startListening() {
        let thread = Thread { [self] in listen() }
        thread.name = "steppie-hub-listen"
        thread.start()
        followerStarted.store(true, ordering: .sequentiallyConsistent)
        let follower = Thread { [self] in follow() }
        follower.name = "steppie-hub-follow"
        follower.start()
    }

    private func listen() {
        while !stopping.load(ordering: .sequentiallyConsistent) {
            do {
                let connection = try store.pool.dedicatedConnection()
                try connection.listen(CentreStore.feedChannel)
                listening.store(true, ordering: .sequentiallyConsistent)
                // What was committed while nobody listened is read now.
                wake()
                feedMoved()
                while !stopping.load(ordering: .sequentiallyConsistent) {
                    let arrived = try connection.notifications(waitingUpTo: 500)
                    if !arrived.isEmpty {
                        // A nudge without a payload (a grant, a removal, a group's change): everyone.
                        if arrived.contains(where: { $0.payload.isEmpty }) {
                            wake()
                            feedMoved()
                        } else {
                            let followed = isFollowing
                            var read = false
                            for nudge in arrived {
                                // This process's own pushes woke its pulls when they returned.
                                let (sender, origin, children) = CentreStore.nudged(nudge.payload)
                                guard sender != store.sender else { continue }
                                if followed { read = true } else { wake(children: children, from: origin) }
                            }
                            // Followed: a round that began after these commits puts their entries
                            // in the tail and wakes the pulls they concern, before they are counted.
                            if read { catchUp(wait: true) }
                        }
                        // Counted once acted on: whoever sees the count has the wake-ups on the
                        // board (counted before, a test reading right after could begin its read
                        // before the wake-up it had just seen counted, and then not be held quietly).
                        nudges.add(arrived.count, ordering: .sequentiallyConsistent)
                    }
                }
            } catch {
                if listening.exchange(false, ordering: .sequentiallyConsistent) {
                    log(CatalogMessage("sync.log.hubStore", ["reason": .message(CatalogMessage.log(error))]))
                }
            }
            listening.store(false, ordering: .sequentiallyConsistent)
            let retry = Date().addingTimeInterval(1)
            while !stopping.load(ordering: .sequentiallyConsistent), Date() < retry { usleep(50_000) }
        }
    }

    package func pull(_ request: PullRequest, credential: String) throws(SyncRefusal) -> PullReply {
        let hash = Self.credentialHash(credential)
        let wait = min(max(request.waitMilliseconds, 0), Self.maxWaitMilliseconds)
        let deadline = Date().addingTimeInterval(Double(wait) / 1000)
        var request = request
        // A device coming straight back after an answer, with nothing new since, is held at once.
        var quiet = wait > 0 ? try quietHold(request, credentialHash: hash) : nil
        // The device as this request last found it admitted: the wake-up number before that and
        // its children (the tail answers with no admission of its own until something that
        // concerns every device moves: a grant, a removal, a group's change).
        var admission: (seen: Int, children: Set<String>)? = quiet
        while true {
            let seen: Int, children: Set<String>
            if let held = quiet {
                (seen, children) = (held.seen, held.children)
                quiet = nil
            } else {
                let current = request, now = self.now
                seen = wakeupCount
                reads.add(1, ordering: .sequentiallyConsistent)
                let reply = try answer { () throws -> Result<PullReply, SyncRefusal> in
                    // The feed keeps its horizon (one indexed read when there is nothing to forget),
                    // looked at once in `forgetEveryMilliseconds` of the hub's clock, not at every read.
                    let last = lastForget.load(ordering: .sequentiallyConsistent)
                    if now - last >= Self.forgetEveryMilliseconds || now < last {
                        lastForget.store(now, ordering: .sequentiallyConsistent)
                        if let forgotten = try store.forget(now: now) { tail.withLock { $0.forget(through: forgotten) } }
                    }
                    if let fromTail = try tailAnswer(current, credentialHash: hash, now: now, seen: seen, admission: &admission) {
                        return fromTail
                    }
                    let read = try store.pull(current, credentialHash: hash, now: now)
                    if case .success(let r) = read, !r.freshCopy, r.copyAfter == nil {
                        admission = (seen, Set(r.children))
                    } else {
                        admission = nil
                    }
                    return read
                }
                if !reply.entries.isEmpty || reply.more || reply.freshCopy || Date() >= deadline
                    || stopping.load(ordering: .sequentiallyConsistent) {
                    if !reply.more, !reply.freshCopy, reply.copyAfter == nil {
                        remember(Answered(cursor: reply.cursor, seen: seen, children: Set(reply.children), at: now), for: request.device.text)
                    }
                    return reply
                }
                children = Set(reply.children)
                // Nothing for this device yet: wait from where this reply left off.
                request = PullRequest(protocolVersion: request.protocolVersion, device: request.device, sentAt: request.sentAt,
                                      cursor: reply.cursor, waitMilliseconds: request.waitMilliseconds, copyAfter: nil)
            }
            let poll = isListening ? Self.nudgedPollMilliseconds : Self.pollMilliseconds
            let until = min(deadline, Date().addingTimeInterval(Double(poll) / 1000))
            // Registered before it looks, its own lock held from the look to the wait: a wake-up
            // after `seen` is either on the board already or signals this waiter once it waits.
            let waiter = PullWaiter(children: children, device: request.device.text)
            board.withLock { $0.add(waiter) }
            waiter.condition.lock()
            while !board.withLock({ $0.moved(since: seen, for: children) }), !stopping.load(ordering: .sequentiallyConsistent),
                  waiter.condition.wait(until: until) {}
            // Woken while this process has another device's push of its children under way: a
            // moment more, until that push's wake-up or the linger's end, so one answer carries
            // both (docs/centre.md, "Pushes taken together"). Otherwise answered at once.
            if board.withLock({ $0.moved(since: seen, for: children) }),
               pending.withLock({ $0.concerns(children, except: request.device.text) }) {
                let woken = wakeupCount
                let linger = min(deadline, Date().addingTimeInterval(Double(Self.lingerMilliseconds) / 1000))
                lingered.add(1, ordering: .sequentiallyConsistent)
                while !board.withLock({ $0.moved(since: woken, for: children) }), !stopping.load(ordering: .sequentiallyConsistent),
                      waiter.condition.wait(until: linger) {}
            }
            waiter.condition.unlock()
            board.withLock { $0.remove(waiter) }
        }
    }

    /// A device's last answer from the feed: the cursor it gave, the wake-up number before its
    /// read, the children it was read for, and the hub's time.
    struct Answered {
        let cursor: UInt64
        let seen: Int
        let children: Set<String>
        let at: Int64
    }

    private func remember(_ answer: Answered, for device: String) {
        answered.withLock {
            if $0.count >= Self.maxAnswered { $0.removeAll() }
            $0[device] = answer
        }
    }

    /// Whether a pull may be held without reading the feed first, and from which wake-up number:
    /// when it comes back with the cursor its device was last answered (by this process, within
    /// `answeredForMilliseconds`) and nothing concerning its children moved since that answer's
    /// read began. Every entry past that cursor was committed after that read's snapshot, so its
    /// push's wake-up (this process's, or its notification) comes after that number: the pull is
    /// woken by it as a held pull is. Only while the listener is connected (without it, another
    /// process's push wakes nobody), with no copy under way, and with the device admitted as a
    /// read would (a refusal is the same refusal), still getting the same children and owed no
    /// copy (a grant, a removal or a group's change nudges everyone anyway).
    private func quietHold(_ request: PullRequest, credentialHash: String) throws(SyncRefusal) -> (seen: Int, children: Set<String>)? {
        guard request.copyAfter == nil, isListening,
              let last = answered.withLock({ $0.removeValue(forKey: request.device.text) }) else { return nil }
        let now = self.now
        guard last.cursor == request.cursor, now >= last.at, now - last.at <= Self.answeredForMilliseconds,
              !board.withLock({ $0.moved(since: last.seen, for: last.children) }) else { return nil }
        let device = try answer { try store.admitPull(request, credentialHash: credentialHash, now: now) }
        guard device.children == last.children, !device.needsCopy else { return nil }
        quietHolds.add(1, ordering: .sequentiallyConsistent)
        return (last.seen, last.children)
    }

    /// Answers every held pull now (the hub is stopping: its server waits for them).
    package func shutdown() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        wake()
    }

    package func join(_ request: JoinRequest) throws(SyncRefusal) -> JoinReply {
        guard request.protocolVersion == SyncProtocol.version else {
            throw .protocolVersion(hub: SyncProtocol.version, device: request.protocolVersion)
        }
        let credential = Secrets.randomToken()
        let name = request.deviceName.trimmingCharacters(in: .whitespacesAndNewlines)
        let now = self.now
        let joined = try answer {
            try store.join(codeHash: Self.codeHash(request.code), device: request.device, name: name.isEmpty ? request.device.text : name,
                           credentialHash: Self.credentialHash(credential), now: now)
        }
        log(CatalogMessage("sync.log.joined", ["device": .text(name), "count": .text(String(joined.children.count))]))
        return JoinReply(credential: credential, hubDevice: joined.hub, children: joined.children)
    }

    /// A joining code as the hub keeps it: the SHA-256 of its digits (`SyncCodes.hash`: a device
    /// may type it with or without the dash).
    package static func codeHash(_ code: String) -> String {
        SHA256.hex(of: Data(code.filter { $0.isASCII && $0.isNumber }.utf8))
    }
}
