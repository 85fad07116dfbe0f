import Foundation
import SteppieChildMode
import SteppieCore

/// The service's runtime for one child, seen through the socket: presses are sent as requests and
/// the state is fetched again on every `poll`, so a terminal screen shows exactly what the
/// service holds (and what every other screen on that child shows).
public final class RemoteChildMode: ChildModeDriver {
    private let client: ServiceClient
    public private(set) var state: ChildModeState
    public private(set) var child: Child
    /// Set when the service went away; the screen then ends.
    public private(set) var detached = false

    /// Attaches to the child named by `selector` (or the only child); nil when the service
    /// cannot show that child.
    public init?(client: ServiceClient, database: String, child selector: String?) {
        guard let reply = try? client.request(ServiceRequest(database: database, .state(child: selector)), timeout: 5),
              let screen = reply.screen else { return nil }
        self.client = client
        self.state = screen.state
        self.child = screen.child
    }

    /// The service greets nobody when it starts; attaching a screen is not a press either.
    public func start() {}
    public func done() { send(.done) }
    public func undo() { send(.undo) }
    public func next() { send(.next) }

    public func poll() {
        guard !detached else { return }
        do {
            let reply = try client.request(ServiceRequest(.state(child: child.id.lowercased)), timeout: 5)
            if let screen = reply.screen {
                state = screen.state
                child = screen.child
            }
        } catch {
            detached = true
        }
    }

    private func send(_ action: PressAction) {
        guard !detached else { return }
        do {
            _ = try client.request(ServiceRequest(.press(action, child: child.id.lowercased)), timeout: 5)
            poll()
        } catch {
            detached = true
        }
    }
}
