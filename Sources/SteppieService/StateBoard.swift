import Foundation
import SteppieCore
import SteppieHTTP
import Synchronization

/// The screens the service last published, one per child, shared with the HTTP threads: a page's
/// event stream waits for a newer version. Written only by the service's thread.
public final class StateBoard: Sendable {
    struct State {
        var screens: [String: KioskScreen] = [:]
        var children: [KioskScreen.ChildInfo] = []
        var closed = false
        /// The wakes of open event streams: a stream waits in `poll(2)` on its connection and its
        /// wake at once, so a closed peer is seen as soon as a new screen is.
        var wakers: [ObjectIdentifier: HTTPWake] = [:]

        /// Wakes every waiting stream.
        func wakeAll() { for wake in wakers.values { wake.signal() } }
    }

    private let state = Mutex(State())
    let clock: any WallClock

    init(clock: any WallClock) { self.clock = clock }

    /// Publishes a child's screen; wakes every stream waiting on that child.
    func publish(_ screen: KioskScreen) {
        state.withLock { s in
            s.screens[screen.child.id] = screen
            s.children = s.screens.values.map(\.child).sorted { $0.name < $1.name }
            s.wakeAll()
        }
    }

    func remove(childId: String) {
        state.withLock { s in
            s.screens[childId] = nil
            s.children = s.screens.values.map(\.child).sorted { $0.name < $1.name }
            s.wakeAll()
        }
    }

    /// Wakes every waiting stream for good (the service is stopping).
    func close() {
        state.withLock { s in
            s.closed = true
            s.wakeAll()
        }
    }

    /// Registers an event stream's wake: every publish, removal and the close wake it.
    func subscribe(_ wake: HTTPWake) {
        state.withLock { $0.wakers[ObjectIdentifier(wake)] = wake }
    }

    func unsubscribe(_ wake: HTTPWake) {
        _ = state.withLock { $0.wakers.removeValue(forKey: ObjectIdentifier(wake)) }
    }

    /// The child's screen when newer than `version` (nil: not newer), without waiting; `closed`
    /// when the service stops or the child is gone.
    func newer(_ childId: String, than version: Int) -> (screen: KioskScreen?, closed: Bool) {
        state.withLock { s in
            if s.closed { return (nil, true) }
            guard let screen = s.screens[childId] else { return (nil, true) }
            return screen.version > version ? (screen, false) : (nil, false)
        }
    }

    func screen(_ childId: String) -> KioskScreen? {
        state.withLock { $0.screens[childId] }
    }

    var childList: [KioskScreen.ChildInfo] {
        state.withLock { $0.children }
    }
}
