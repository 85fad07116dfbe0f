import CHTTP
import Foundation
import SteppieCore

/// The screens the service last published, one per child, shared with the HTTP threads: a page's
/// event stream waits here for a newer version. Written only by the service's thread.
public final class StateBoard: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var screens: [String: KioskScreen] = [:]
    private var children: [KioskScreen.ChildInfo] = []
    private var closed = false
    /// The wake descriptors of open event streams: a stream waits in `poll(2)` on its connection
    /// and its wake descriptor at once, so a closed peer is seen as soon as a new screen is.
    private var wakers: Set<Int32> = []
    let clock: any WallClock

    init(clock: any WallClock) { self.clock = clock }

    /// Publishes a child's screen; wakes every stream waiting on that child.
    func publish(_ screen: KioskScreen) {
        condition.lock()
        screens[screen.child.id] = screen
        children = screens.values.map(\.child).sorted { $0.name < $1.name }
        condition.broadcast()
        wakeAll()
        condition.unlock()
    }

    func remove(childId: String) {
        condition.lock()
        screens[childId] = nil
        children = screens.values.map(\.child).sorted { $0.name < $1.name }
        condition.broadcast()
        wakeAll()
        condition.unlock()
    }

    /// Wakes every waiting stream for good (the service is stopping).
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        wakeAll()
        condition.unlock()
    }

    /// Called with `condition` held.
    private func wakeAll() { for fd in wakers { chttp_wake(fd) } }

    /// Registers an event stream's wake descriptor: every publish, removal and the close wake it.
    func subscribe(wake fd: Int32) {
        condition.lock()
        wakers.insert(fd)
        condition.unlock()
    }

    func unsubscribe(wake fd: Int32) {
        condition.lock()
        wakers.remove(fd)
        condition.unlock()
    }

    /// The child's screen when newer than `version` (nil: not newer), without waiting; `closed`
    /// when the service stops or the child is gone.
    func newer(_ childId: String, than version: Int) -> (screen: KioskScreen?, closed: Bool) {
        condition.lock()
        defer { condition.unlock() }
        if closed { return (nil, true) }
        guard let s = screens[childId] else { return (nil, true) }
        return s.version > version ? (s, false) : (nil, false)
    }

    func screen(_ childId: String) -> KioskScreen? {
        condition.lock()
        defer { condition.unlock() }
        return screens[childId]
    }

    var childList: [KioskScreen.ChildInfo] {
        condition.lock()
        defer { condition.unlock() }
        return children
    }
}
