import SteppieCore
import SteppieSync

extension SyncTransportError: CatalogDescribable {
    /// What went wrong and what to do, for the guardian (`sync.error.*`). Addresses, library
    /// words and record ids are detail: the guardian pages on the home network leave them out.
    package var catalogMessage: CatalogMessage {
        switch self {
        case .invalidAddress(let text): CatalogMessage("sync.error.transport.invalidAddress", ["address": .text(text)])
        case .unreachable(let address, let reason):
            CatalogMessage("sync.error.transport.unreachable", ["address": .detail(address), "reason": .detail(reason)])
        case .tlsFailed(let address, let reason):
            CatalogMessage("sync.error.transport.tlsFailed", ["address": .detail(address), "reason": .detail(reason)])
        case .fingerprintMismatch(let expected, let got):
            CatalogMessage("sync.error.transport.fingerprintMismatch", ["expected": .text(expected), "got": .text(got)])
        case .timeout(.connect): CatalogMessage("sync.error.transport.timeout.connect")
        case .timeout(.handshake): CatalogMessage("sync.error.transport.timeout.handshake")
        case .timeout(.request): CatalogMessage("sync.error.transport.timeout.request")
        case .responseTooLarge(let limit): CatalogMessage("sync.error.transport.responseTooLarge", ["limit": .text(String(limit))])
        case .badResponse(let reason): CatalogMessage("sync.error.transport.badResponse", ["reason": .detail(reason)])
        case .refused(let refusal): Self.message(refusal)
        case .httpStatus(let status): CatalogMessage("sync.error.transport.httpStatus", ["status": .text(String(status))])
        }
    }

    /// A hub's refusal in the guardian's words: each says which side acts (`sync.error.refused.*`).
    static func message(_ refusal: SyncRefusal) -> CatalogMessage {
        switch refusal {
        case .protocolVersion(let hub, let device):
            let args: [String: CatalogMessage.Argument] = ["hub": .text(String(hub)), "device": .text(String(device))]
            // The side with the smaller number is the older one.
            return device < hub ? CatalogMessage("sync.error.refused.protocolVersion.updateDevice", args)
                : CatalogMessage("sync.error.refused.protocolVersion.updateHub", args)
        case .clockSkew(let offset):
            let minutes = String((abs(offset) + 30_000) / 60_000)
            return offset > 0 ? CatalogMessage("sync.error.refused.clockSkew.ahead", ["minutes": .text(minutes)])
                : CatalogMessage("sync.error.refused.clockSkew.behind", ["minutes": .text(minutes)])
        case .unknownDevice: return CatalogMessage("sync.error.refused.unknownDevice")
        case .childNotGiven(let child): return CatalogMessage("sync.error.refused.childNotGiven", ["child": .detail(child)])
        case .malformed(let reason): return CatalogMessage("sync.error.refused.malformed", ["reason": .detail(reason)])
        case .gap(let expected): return CatalogMessage("sync.error.refused.gap", ["expected": .text(String(expected))])
        case .tooLarge: return CatalogMessage("sync.error.refused.tooLarge")
        }
    }
}
