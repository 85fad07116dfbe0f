import SteppieCore

/// What a guardian reads when the hub refused a request (docs/sync.md, "What a guardian sees when
/// something is refused"): the command line's status, the guardian page and the service's log.
extension SyncRefusal: CatalogDescribable {
    package var catalogMessage: CatalogMessage {
        switch self {
        case .protocolVersion(let hub, let device):
            hub > device
                ? CatalogMessage("sync.refusal.updateDevice", ["hub": .text(String(hub)), "device": .text(String(device))])
                : CatalogMessage("sync.refusal.updateHub", ["hub": .text(String(hub)), "device": .text(String(device))])
        case .clockSkew(let offset):
            CatalogMessage(offset > 0 ? "sync.refusal.clockAhead" : "sync.refusal.clockBehind",
                           ["minutes": .text(String(Swift.abs(offset) / 60_000)), "seconds": .text(String(Swift.abs(offset) / 1000 % 60))])
        case .unknownDevice: CatalogMessage("sync.refusal.unknownDevice")
        case .childNotGiven(let child): CatalogMessage("sync.refusal.childNotGiven", ["child": .detail(child)])
        case .malformed(let reason): CatalogMessage("sync.refusal.malformed", ["reason": .detail(reason)])
        case .gap(let expected): CatalogMessage("sync.refusal.gap", ["expected": .text(String(expected))])
        case .tooLarge: CatalogMessage("sync.refusal.tooLarge")
        case .joinLocked: CatalogMessage("sync.refusal.joinLocked", ["minutes": .text("10")])
        case .unavailable: CatalogMessage("sync.refusal.unavailable")
        }
    }
}
