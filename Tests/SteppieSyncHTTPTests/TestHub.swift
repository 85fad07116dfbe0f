import Dispatch
import SteppieSync
import SteppieSyncHTTP
import Synchronization

/// The tests' hub: the reference hub (`HubFeed`, a value) behind a `Mutex`, a joining code, the
/// credentials it gave, and every call a request made (so a test can show a refused request
/// never reached it). A pull that may wait is held until `wake` is signalled or its wait passes.
final class TestHub: SyncHubHandling {
    /// The hub's clock (fixed: the tests' requests are sent at this time).
    static let now: Int64 = 1_772_406_000_000
    static let code = "482913"

    struct State {
        var feed = HubFeed()
        var credentials: [String: DeviceID] = [:]
        /// The children a device joining with the code gets.
        var invited: Set<String> = []
        /// "push", "pull", "join" in the order they came.
        var calls: [String] = []
    }

    let state = Mutex(State())
    /// Signalled to end a held pull early (something new).
    let wake = DispatchSemaphore(value: 0)
    /// Signalled when a pull starts waiting (a test then knows it is held).
    let holding = DispatchSemaphore(value: 0)

    init(invited: Set<String>) {
        state.withLock { $0.invited = invited }
    }

    var calls: [String] { state.withLock { $0.calls } }
    var feed: HubFeed { state.withLock { $0.feed } }

    func push(_ request: PushRequest, credential: String) throws(SyncRefusal) -> PushReply {
        try state.withLock { (s) throws(SyncRefusal) -> PushReply in
            s.calls.append("push")
            guard s.credentials[credential] == request.device else { throw .unknownDevice }
            return try s.feed.push(request, now: Self.now)
        }
    }

    func pull(_ request: PullRequest, credential: String) throws(SyncRefusal) -> PullReply {
        try state.withLock { (s) throws(SyncRefusal) -> Void in
            s.calls.append("pull")
            guard s.credentials[credential] == request.device else { throw .unknownDevice }
        }
        if request.waitMilliseconds > 0 {
            // The long poll: this connection's thread waits; other requests go on meanwhile.
            holding.signal()
            _ = wake.wait(timeout: .now() + .milliseconds(request.waitMilliseconds))
        }
        return try state.withLock { (s) throws(SyncRefusal) -> PullReply in
            try s.feed.pull(request, now: Self.now)
        }
    }

    func join(_ request: JoinRequest) throws(SyncRefusal) -> JoinReply {
        try state.withLock { (s) throws(SyncRefusal) -> JoinReply in
            s.calls.append("join")
            guard request.protocolVersion == SyncProtocol.version else {
                throw .protocolVersion(hub: SyncProtocol.version, device: request.protocolVersion)
            }
            guard request.code == Self.code else { throw .unknownDevice }
            let credential = "cred-" + request.device.text
            s.credentials[credential] = request.device
            s.feed.grant(request.device, children: s.invited)
            return JoinReply(credential: credential, hubDevice: Self.hubDevice, children: s.invited.sorted())
        }
    }

    static let hubDevice = DeviceID("00000000-0000-4000-8000-000000000001")!
}
