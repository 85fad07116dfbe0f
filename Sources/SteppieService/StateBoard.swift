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
    let clock: any WallClock

    init(clock: any WallClock) { self.clock = clock }

    /// Publishes a child's screen; wakes every stream waiting on that child.
    func publish(_ screen: KioskScreen) {
        condition.lock()
        screens[screen.child.id] = screen
        children = screens.values.map(\.child).sorted { $0.name < $1.name }
        condition.broadcast()
        condition.unlock()
    }

    func remove(childId: String) {
        condition.lock()
        screens[childId] = nil
        children = screens.values.map(\.child).sorted { $0.name < $1.name }
        condition.broadcast()
        condition.unlock()
    }

    /// Wakes every waiting stream for good (the service is stopping).
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
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

    /// Waits until the child's screen is newer than `version` or `timeout` passes; returns the
    /// screen when newer, nil on timeout; `closed` when the service stops.
    func waitForNewer(_ childId: String, than version: Int, timeout: TimeInterval) -> (screen: KioskScreen?, closed: Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if closed { return (nil, true) }
            if let s = screens[childId], s.version > version { return (s, false) }
            if screens[childId] == nil { return (nil, true) }
            if !condition.wait(until: deadline) { return (nil, false) }
        }
    }
}
