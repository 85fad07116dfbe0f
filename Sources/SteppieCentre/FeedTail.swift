import SteppieSync

/// The feed's newest entries as one hub process knows them (`PostgresSyncHub`: its own pushes'
/// entries as they committed them, the others' read from the database once for the process),
/// shared by that process's held pulls: a pull woken by a push is answered from here instead of
/// reading the feed itself (docs/centre.md, "One read of the feed for every held pull").
///
/// It holds every entry of the feed after `base` through `head`, in position order, each decoded
/// once. Pushes commit their positions in order (`CentreStore.push`), so what one read finds after
/// the head is everything up to the head it reports: the tail never has a hole. A cache only: a
/// pull whose cursor it does not cover (older than `base`, past `head`, or the tail not following)
/// reads the database as before, and nothing another process needs lives here.
package struct FeedTail: Sendable {
    /// One feed entry: its position, the device that pushed it, and the hub's time it was read.
    package struct Item: Sendable {
        package let position: UInt64
        package let origin: String
        package let entry: SyncEntry
        package let readAt: Int64

        package init(position: UInt64, origin: String, entry: SyncEntry, readAt: Int64) {
            self.position = position
            self.origin = origin
            self.entry = entry
            self.readAt = readAt
        }
    }

    /// What taking a read did.
    package enum Taken: Equatable {
        /// The entries appended, by the device that pushed them: the children they concern.
        case moved([String: Set<String>])
        /// The feed's head went back (the database was put back in time): the tail started again
        /// at the new head, knowing nothing before it.
        case restarted
    }

    /// Every entry after this position (through `head`) is held; nil: not following.
    package private(set) var base: UInt64?
    package private(set) var head: UInt64 = 0
    /// Every entry held, oldest first: what is let go first. Entries before `first` were let go
    /// (dropped from the array in bulk).
    private var order: [(position: UInt64, child: String, readAt: Int64)] = []
    private var first = 0
    /// The entries of each child, in position order (from its `first`): a pull looks only at its
    /// children's (every pull going through every entry after its cursor, under the tail's lock,
    /// took more of the hub's CPU than the reads it saved).
    private var byChild: [String: (items: [Item], first: Int)] = [:]
    /// Pushes of this process that came before the entries between them and the head were known
    /// (another process's push, or one of this process's own whose thread has not appended it
    /// yet), by their first position: appended once the head reaches them.
    private var aside: [UInt64: [Item]] = [:]
    /// The entries held aside: at most `maxItems` (past it they are all dropped: a read brings
    /// them), so pushes of 2,000 entries coming faster than reads cannot fill the memory.
    private var asideCount = 0
    /// At most this many entries are kept...
    package let maxItems: Int
    /// ...and none read longer ago than this, in the hub's clock.
    package let keptForMilliseconds: Int64

    package init(maxItems: Int = 20_000, keptForMilliseconds: Int64 = 120_000) {
        self.maxItems = maxItems
        self.keptForMilliseconds = keptForMilliseconds
    }

    /// The entries held now.
    package var count: Int { order.count - first }

    /// Starts following at the feed's `head`: nothing before it is held.
    package mutating func start(at head: UInt64) {
        base = head
        self.head = head
        order = []
        first = 0
        byChild = [:]
        aside = [:]
        asideCount = 0
    }

    /// Stops following (a read failed): every pull reads the database until the tail starts again.
    package mutating func stop() {
        start(at: 0)
        base = nil
    }

    /// Takes a read of the feed after `from` (the head when the read began): its entries in
    /// position order and the head it reached (the last entry's position when the read stopped
    /// at its limit, else the feed's newest position). A head lower than the one the read began
    /// from starts the tail again there (the database was put back); a read the tail has passed
    /// since it began (a push of this process appended meanwhile) adds what it has after the head.
    package mutating func take(_ read: [Item], from: UInt64, through newHead: UInt64, now: Int64) -> Taken {
        guard base != nil else { return .moved([:]) }
        if newHead < from {
            start(at: newHead)
            return .restarted
        }
        var moved: [String: Set<String>] = [:]
        if newHead > head {
            for item in read where item.position > head && item.position <= newHead { append(item, &moved) }
            head = newHead
            takeAside(&moved)
        }
        trim(now: now)
        return .moved(moved)
    }

    /// Takes the entries a push of this process committed at consecutive positions (their first's
    /// `position` on): appended at once when they follow the head (with any held aside that then
    /// follow), held aside when entries before them are not known yet, passed over when the head
    /// is past them (a read brought them; or the database was put back and hands out positions
    /// again, which a read finds). Returns the children they concern by the device that pushed
    /// them; nil when they were not appended, or the tail is not following (a read should follow).
    package mutating func appendPushed(_ pushed: [Item], now: Int64) -> [String: Set<String>]? {
        guard base != nil, let start = pushed.first?.position else { return nil }
        var moved: [String: Set<String>] = [:]
        if start == head + 1 {
            for item in pushed { append(item, &moved) }
            takeAside(&moved)
            trim(now: now)
            return moved
        }
        if start > head + 1 {
            if asideCount + pushed.count > maxItems {
                aside = [:]
                asideCount = 0
            }
            if aside.updateValue(pushed, forKey: start) == nil { asideCount += pushed.count }
        }
        return nil
    }

    /// Appends one entry after the head.
    private mutating func append(_ item: Item, _ moved: inout [String: Set<String>]) {
        let child = item.entry.child
        order.append((item.position, child, item.readAt))
        byChild[child, default: ([], 0)].items.append(item)
        head = item.position
        moved[item.origin, default: []].insert(child)
    }

    /// Appends the pushes held aside that now follow the head, and lets go of those it passed.
    private mutating func takeAside(_ moved: inout [String: Set<String>]) {
        guard !aside.isEmpty else { return }
        while let next = aside.removeValue(forKey: head + 1) {
            for item in next { append(item, &moved) }
        }
        aside = aside.filter { $0.key > head }
        asideCount = aside.values.reduce(0) { $0 + $1.count }
    }

    /// The entries held aside now.
    package var heldAside: Int { asideCount }

    /// Lets go of entries past the count or the age the tail keeps (the oldest first).
    private mutating func trim(now: Int64) {
        var drop = first
        while drop < order.count, order.count - drop > maxItems || now - order[drop].readAt > keptForMilliseconds { drop += 1 }
        guard drop > first else { return }
        letGo(through: drop)
    }

    /// Lets go of the entries of `order` before index `end`.
    private mutating func letGo(through end: Int) {
        base = order[end - 1].position
        for index in first..<end {
            // In place (a copy of the child's array taken out and put back would be copied whole).
            let child = order[index].child
            guard byChild[child] != nil else { continue }
            byChild[child]!.first += 1
            let (kept, dropped) = (byChild[child]!.items.count, byChild[child]!.first)
            if dropped == kept {
                byChild[child] = nil
            } else if dropped >= 64, dropped * 2 >= kept {
                byChild[child]!.items.removeFirst(dropped)
                byChild[child]!.first = 0
            }
        }
        first = end
        if first >= 1_024, first * 2 >= order.count {
            order.removeFirst(first)
            first = 0
        }
    }

    /// Lets go of every entry through `position` (the feed forgot them: a pull with an older cursor
    /// is owed a fresh copy, which the database's read gives).
    package mutating func forget(through position: UInt64) {
        guard let base, position > base else { return }
        var end = first
        while end < order.count, order[end].position <= position { end += 1 }
        if end > first { letGo(through: end) }
        self.base = min(position, head)
    }

    /// Whether a pull with this cursor can be answered here.
    package func covers(_ cursor: UInt64) -> Bool {
        guard let base else { return false }
        return cursor >= base && cursor <= head
    }

    /// A pull's answer as the database's read gives it (`CentreStore.feedRead`): the entries
    /// after `cursor` of `children`, not `device`'s own, in position order, at most `limit`, and
    /// the cursor to give (the last entry's position when the limit was reached, else the head);
    /// nil when the tail does not cover the cursor. With the tail's head (more follow when the
    /// cursor given is before it).
    package func answer(after cursor: UInt64, children: Set<String>, device: String,
                        limit: Int) -> (entries: [SyncEntry], cursor: UInt64, head: UInt64)? {
        guard covers(cursor), limit > 0 else { return nil }
        var found: [Item] = []
        for child in children {
            guard let kept = byChild[child] else { continue }
            // The child's first entry after the cursor (positions rise through its array).
            var low = kept.first, high = kept.items.count
            while low < high {
                let middle = (low + high) / 2
                if kept.items[middle].position <= cursor { low = middle + 1 } else { high = middle }
            }
            for item in kept.items[low...] where item.origin != device { found.append(item) }
        }
        found.sort { $0.position < $1.position }
        if found.count >= limit { return (found.prefix(limit).map(\.entry), found[limit - 1].position, head) }
        return (found.map(\.entry), head, head)
    }
}
