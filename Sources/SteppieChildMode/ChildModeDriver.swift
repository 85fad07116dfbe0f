import Foundation
import SteppieCore

/// What a screen drives: the runtime in this process, or the service's runtime through its
/// socket (`RemoteChildMode`), so the terminal screen is the same code either way.
public protocol ChildModeDriver: AnyObject {
    var state: ChildModeState { get }
    var child: Child { get }
    func start()
    func done()
    func undo()
    func next()
    /// Called every 100–250 ms: timers, ticks, reloads (or a fresh copy of the service's state).
    func poll()
    /// True once the driver can no longer reach its runtime (the service stopped): the screen ends.
    var detached: Bool { get }
}

extension ChildModeRuntime: ChildModeDriver {
    public var detached: Bool { false }
}
