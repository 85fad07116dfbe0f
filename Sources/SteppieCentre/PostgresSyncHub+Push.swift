import SteppieCore
import SteppieSync
import SteppieSyncHTTP

/// A push on the centre's hub: taken in a group with the pushes that came while others were being
/// written (`Grouping`, `CentreStore.pushGroup`), or alone, then settled into the tail and the
/// held pulls it concerns (docs/centre.md, "Pushes taken together").
extension PostgresSyncHub {
    package func push(_ request: PushRequest, credential: String) throws(SyncRefusal) -> PushReply {
        let hash = Self.credentialHash(credential)
        pending.withLock { $0.begin(request) }
        defer { pending.withLock { $0.end(request) } }
        // Taken with the pushes that came while others were being written, in one transaction
        // (`CentreStore.pushGroup`), unless it names or archives a child; alone when its group failed.
        if CentreStore.groupable(request) {
            switch pushGroups.submit(CentreStore.GroupedPush(request: request, credentialHash: hash), key: request.device.text,
                                     weight: request.entries.count, run: runGroup) {
            case .taken(let reply): return reply
            case .refused(let refusal): throw refusal
            case .alone: break
            }
        }
        return try alone(request, credentialHash: hash)
    }

    /// A push in a transaction of its own (`CentreStore.pushFeeding`).
    fileprivate func alone(_ request: PushRequest, credentialHash: String) throws(SyncRefusal) -> PushReply {
        let now = self.now
        do {
            let (reply, fed) = try answer { try store.pushFeeding(request, credentialHash: credentialHash, now: now) }
            settle(request, fed: fed, now: now)
            return reply
        } catch {
            // A push whose commit went through may have lost its answer (a refused push wakes nobody).
            if error == .unavailable { pushed(request.children, from: request.device.text) }
            throw error
        }
    }

    /// What a push in a group came to (`runGroup`).
    enum GroupAnswer {
        case taken(PushReply)
        case refused(SyncRefusal)
        /// The group failed as a whole (nothing of it was taken): the push goes alone.
        case alone
    }

    /// Runs a group of pushes (`Grouping`), and settles the pushes taken, in the group's order as
    /// their feed positions are, before any of them is answered.
    fileprivate func runGroup(_ pushes: [CentreStore.GroupedPush]) -> [GroupAnswer] {
        // One push (a quiet hub, most of a paced morning): its own statements, which cost
        // PostgreSQL less than a group's for one device (docs/performance.md, session 52).
        if pushes.count == 1 {
            do {
                return [.taken(try alone(pushes[0].request, credentialHash: pushes[0].credentialHash))]
            } catch {
                return [.refused(error)]
            }
        }
        let now = self.now
        let outcomes: [CentreStore.GroupOutcome]
        do {
            outcomes = try store.pushGroup(pushes, now: now)
        } catch {
            // A push of it the database refused (text it cannot hold) is then refused alone; a
            // database that cannot answer is told each device by its push alone.
            groupsFailed.add(1, ordering: .relaxed)
            return pushes.map { _ in .alone }
        }
        var taken: [(request: PushRequest, fed: CentreStore.Fed?)] = []
        let answers = zip(pushes, outcomes).map { push, outcome -> GroupAnswer in
            switch outcome {
            case .success(let done):
                taken.append((push.request, done.fed))
                return .taken(done.reply)
            case .failure(let refusal):
                return .refused(refusal)
            }
        }
        settle(taken, now: now)
        return answers
    }

    /// After a push was taken: this process's held pulls are woken here, never by its own push's
    /// notification (its listener passes over those). Not the pushing device's own held pull: it
    /// would find only its own entries. Its own entries go into the tail as they are (no read of
    /// the feed) when they follow its head; otherwise the tail is brought up to the feed by a read.
    fileprivate func settle(_ request: PushRequest, fed: CentreStore.Fed?, now: Int64) {
        settle([(request, fed)], now: now)
    }

    /// `settle` for the pushes of a group, in its order: every push's entries go into the tail
    /// before any pull is woken, so a device that two of them concern is answered both at once
    /// (woken after each push's entries, it was often answered the first alone, and asked again).
    fileprivate func settle(_ pushes: [(request: PushRequest, fed: CentreStore.Fed?)], now: Int64) {
        // No longer under way: the pulls these wake look past them for others.
        pending.withLock { pending in for (request, _) in pushes { pending.settle(request) } }
        var moved: [String: Set<String>] = [:]
        var unread = pushes.map(\.request)
        if followerStarted.load(ordering: .sequentiallyConsistent) {
            unread = []
            tail.withLock { tail in
                for (request, fed) in pushes {
                    let items = fed.map { fed in
                        fed.entries.enumerated().map {
                            FeedTail.Item(position: fed.first + UInt64($0.offset), origin: request.device.text, entry: $0.element, readAt: now)
                        }
                    }
                    if let items, let appended = tail.appendPushed(items, now: now) {
                        moved.merge(appended) { $0.union($1) }
                    } else {
                        unread.append(request)
                    }
                }
            }
        }
        for (origin, children) in moved { wake(children: children, from: origin) }
        for request in unread { pushed(request.children, from: request.device.text) }
    }
}
