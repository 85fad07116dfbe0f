import Foundation
import SteppieCore
import SteppieSync
import Synchronization

/// The hub process's tail of the feed (`FeedTail`, docs/centre.md "One read of the feed for every
/// held pull"): kept up to the feed by the pushes this process takes and by one read at a time for
/// the others', and read by the held pulls it wakes.
extension PostgresSyncHub {
    /// Tells the follower to read the feed again (a push was taken, or a nudge came).
    func feedMoved() {
        followLock.lock()
        followAgain = true
        followLock.signal()
        followLock.unlock()
    }

    /// The follower: brings the tail up to the feed (`catchUp`) whenever told (`feedMoved`: a
    /// notification) and at least every `followPollMilliseconds`. Ends when the hub stops.
    func follow() {
        while !stopping.load(ordering: .sequentiallyConsistent) {
            let poll = isListening ? Self.followPollMilliseconds : Self.pollMilliseconds
            let until = Date().addingTimeInterval(Double(failing.load(ordering: .sequentiallyConsistent) ? 1_000 : poll) / 1000)
            followLock.lock()
            while !followAgain, !stopping.load(ordering: .sequentiallyConsistent), followLock.wait(until: until) {}
            followAgain = false
            followLock.unlock()
            guard !stopping.load(ordering: .sequentiallyConsistent) else { break }
            catchUp()
        }
        tail.withLock { $0.stop() }
    }

    /// Brings the tail up to the feed, then wakes the held pulls its new entries concern (after
    /// they are in the tail: a pull reads the wake-up number, then the tail). One round at a time
    /// in the process, each covering every call made before it began: a thread finding one under
    /// way leaves it one more to make and goes on (`wait`: it waits for a round that began after
    /// its call), so a push's own thread reads what it committed when nobody else is reading (no
    /// other thread to wake and schedule first, on cores busy with hundreds of requests). A read
    /// that fails stops the tail, and every held pull is woken to read the database as before;
    /// the next round starts it again at the feed's head.
    func catchUp(wait: Bool = false) {
        rounds.lock()
        rounds.requested += 1
        let ticket = rounds.requested
        while true {
            if !rounds.reading, rounds.served < rounds.requested, !stopping.load(ordering: .sequentiallyConsistent) {
                rounds.reading = true
                let covering = rounds.requested
                rounds.unlock()
                let read = round()
                rounds.lock()
                // A failed round lets every caller go: the tail is stopped, every pull woken.
                rounds.served = read ? covering : rounds.requested
                rounds.reading = false
                rounds.broadcast()
                continue
            }
            if rounds.served >= ticket || !wait || stopping.load(ordering: .sequentiallyConsistent) { break }
            rounds.wait()
        }
        rounds.unlock()
    }

    /// One round of `catchUp`: whether it read.
    func round() -> Bool {
        do {
            try readFeed()
            failing.store(false, ordering: .sequentiallyConsistent)
            return true
        } catch {
            let wasFollowing = tail.withLock { t -> Bool in
                defer { t.stop() }
                return t.base != nil
            }
            if wasFollowing { wake() }
            if !failing.exchange(true, ordering: .sequentiallyConsistent) {
                log(CatalogMessage("sync.log.hubStore", ["reason": .message(CatalogMessage.log(error))]))
            }
            return false
        }
    }

    /// One round of the follower: the feed's entries after the tail's head, until a read finds
    /// fewer than its limit; the first round (or the first after a failure) only finds the head.
    func readFeed() throws {
        let followed = tail.withLock { $0.base != nil ? $0.head : nil }
        guard let from = followed else {
            let (_, head) = try store.feedAfter(UInt64(Int64.max), limit: 1, now: now)
            tail.withLock { $0.start(at: head) }
            // Pulls that read the database since the last round may have missed a wake-up
            // nobody gave while the tail was away: every one looks once.
            wake()
            return
        }
        var position = from
        while !stopping.load(ordering: .sequentiallyConsistent) {
            let (items, head) = try store.feedAfter(position, limit: Self.followReadLimit, now: now)
            let taken = tail.withLock { $0.take(items, from: position, through: head, now: now) }
            switch taken {
            case .restarted:
                wake()
                return
            case .moved(let moved):
                for (origin, children) in moved { wake(children: children, from: origin) }
            }
            guard items.count == Self.followReadLimit else { return }
            position = tail.withLock { $0.head }
        }
    }

    /// After a push that may have been taken: the tail is brought up to the feed (`catchUp`, in
    /// this thread when no other is at it), which wakes the pulls it concerns; without a tail (no
    /// follower, or its reads failing), they are woken here.
    func pushed(_ children: Set<String>, from origin: String) {
        guard followerStarted.load(ordering: .sequentiallyConsistent) else { return wake(children: children, from: origin) }
        if !isFollowing { wake(children: children, from: origin) }
        if failing.load(ordering: .sequentiallyConsistent) { feedMoved() } else { catchUp() }
    }

    /// A pull answered from the process's tail when it covers the pull's cursor (nil otherwise:
    /// the database's feed is read). The device is admitted first (its credential, clock and
    /// children, its contact and cursor written: `CentreStore.admitPull`) unless this request
    /// admitted it already and nothing that concerns every device moved since; a device owed a
    /// copy is left to the database's read.
    func tailAnswer(_ request: PullRequest, credentialHash: String, now: Int64, seen: Int,
                            admission: inout (seen: Int, children: Set<String>)?) throws -> Result<PullReply, SyncRefusal>? {
        guard request.copyAfter == nil, tail.withLock({ $0.covers(request.cursor) }) else { return nil }
        if let admitted = admission, !board.withLock({ $0.everyoneMoved(since: admitted.seen) }) {
            // Admitted by this request, and still getting the same children.
        } else {
            admission = nil
            switch try store.admitPull(request, credentialHash: credentialHash, now: now) {
            case .failure(let refusal):
                return .failure(refusal)
            case .success(let device):
                guard !device.needsCopy else { return nil }
                admission = (seen, device.children)
            }
        }
        guard let children = admission?.children, let found = tail.withLock({
            $0.answer(after: request.cursor, children: children, device: request.device.text, limit: SyncProtocol.maxBatchEntries)
        }) else { return nil }
        tailAnswers.add(1, ordering: .sequentiallyConsistent)
        return .success(PullReply(entries: found.entries, cursor: found.cursor, more: found.cursor < found.head, freshCopy: false,
                                  children: children.sorted(), hubTime: now))
    }
}

/// `PostgresSyncHub.catchUp`'s rounds, under the condition's lock: the calls made, the last one
/// a finished round covered, and whether one is under way.
final class Rounds: @unchecked Sendable {
    private let condition = NSCondition()
    var requested = 0
    var served = 0
    var reading = false

    func lock() { condition.lock() }
    func unlock() { condition.unlock() }
    func wait() { condition.wait() }
    func broadcast() { condition.broadcast() }
}
