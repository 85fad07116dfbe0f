import Foundation

/// A held pull's wait: its own condition, the children its device gets, and the device.
package final class PullWaiter: @unchecked Sendable {
    let condition = NSCondition()
    let children: Set<String>
    let device: String?

    package init(children: Set<String>, device: String? = nil) {
        self.children = children
        self.device = device
    }

    func signal() {
        condition.lock()
        condition.signal()
        condition.unlock()
    }
}

/// A value behind a lock whose waiters sleep in the kernel at once (glibc's default mutex,
/// through `NSLock`). The hub's wake-up board and answers are taken by hundreds of request threads
/// on a few cores: `Mutex` spins before it sleeps, and its spinning (`_MutexHandle._lockSlow`) was
/// 4.6 % of the hub's CPU in the morning at once (docs/performance.md, session 50).
final class BlockingLock<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// What moved since a wake-up number: for every child, the last wake-up that named it, and the
/// last that named everyone; and the held pulls waiting, by child.
package struct WakeBoard: Sendable {
    package private(set) var count = 0
    private var everyone = 0
    private var child: [String: Int] = [:]
    private var waiting: [ObjectIdentifier: PullWaiter] = [:]
    private var byChild: [String: Set<ObjectIdentifier>] = [:]

    package init() {}

    /// Notes a wake-up for `children` (nil: everyone); returns the waiters it concerns, but for
    /// `origin`'s own (a device's push concerns its held pull only through other devices' entries,
    /// which wake it themselves).
    @discardableResult
    package mutating func moved(_ children: Set<String>?, from origin: String? = nil) -> [PullWaiter] {
        count += 1
        guard let children else {
            everyone = count
            return Array(waiting.values)
        }
        var ids: Set<ObjectIdentifier> = []
        for c in children {
            child[c] = count
            if let some = byChild[c] { ids.formUnion(some) }
        }
        return ids.compactMap { waiting[$0] }.filter { origin == nil || $0.device != origin }
    }

    /// Whether a wake-up for everyone (a grant, a removal, a group's change, a listener's return)
    /// came after `seen`.
    package func everyoneMoved(since seen: Int) -> Bool { everyone > seen }

    /// Whether anything that concerns a device getting `children` moved after `seen`.
    package func moved(since seen: Int, for children: Set<String>) -> Bool {
        everyone > seen || children.contains { (child[$0] ?? 0) > seen }
    }

    /// The held pulls waiting now.
    package var waiters: Int { waiting.count }

    package mutating func add(_ waiter: PullWaiter) {
        let id = ObjectIdentifier(waiter)
        waiting[id] = waiter
        for c in waiter.children { byChild[c, default: []].insert(id) }
    }

    package mutating func remove(_ waiter: PullWaiter) {
        let id = ObjectIdentifier(waiter)
        waiting[id] = nil
        for c in waiter.children {
            byChild[c]?.remove(id)
            if byChild[c]?.isEmpty == true { byChild[c] = nil }
        }
    }
}
