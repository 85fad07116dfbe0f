import SteppieSync

/// The pushes a hub process has under way, by the children their entries concern and the device
/// that sent them: from the moment a push arrives until its entries are in the tail (settled, the
/// pulls they concern about to be woken) or it ends otherwise (refused, failed). A held pull woken
/// while another device's push of its children is under way waits a moment for it
/// (`PostgresSyncHub.lingerMilliseconds`).
package struct PendingPushes: Sendable {
    /// A push by its device, its first sequence number and its size.
    package struct Key: Hashable, Sendable {
        let device: String
        let first: UInt64
        let count: Int
        package init(_ request: PushRequest) {
            device = request.device.text
            first = request.entries.first?.seq ?? 0
            count = request.entries.count
        }
    }

    private var byChild: [String: [String: Int]] = [:]
    private var settled: Set<Key> = []

    package init() {}

    /// A push arrived.
    package mutating func begin(_ request: PushRequest) {
        for child in request.children { byChild[child, default: [:]][request.device.text, default: 0] += 1 }
    }

    /// A push's entries are in the tail: no longer under way (before the pulls they concern are woken).
    package mutating func settle(_ request: PushRequest) {
        guard settled.insert(Key(request)).inserted else { return }
        remove(request)
    }

    /// A push ended: no longer under way, unless `settle` said so already.
    package mutating func end(_ request: PushRequest) {
        if settled.remove(Key(request)) == nil { remove(request) }
    }

    /// Whether a push of another device than `device` concerning any of `children` is under way.
    package func concerns(_ children: Set<String>, except device: String) -> Bool {
        children.contains { child in byChild[child]?.contains { $0.key != device } ?? false }
    }

    private mutating func remove(_ request: PushRequest) {
        let origin = request.device.text
        for child in request.children {
            guard var origins = byChild[child], let n = origins[origin] else { continue }
            origins[origin] = n > 1 ? n - 1 : nil
            byChild[child] = origins.isEmpty ? nil : origins
        }
    }
}

extension PushRequest {
    /// The children a push's entries concern.
    var children: Set<String> { Set(entries.map(\.entry.child)) }
}
