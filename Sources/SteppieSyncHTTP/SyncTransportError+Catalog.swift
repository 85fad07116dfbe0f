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
        case .refused(let refusal): refusal.catalogMessage
        case .httpStatus(let status): CatalogMessage("sync.error.transport.httpStatus", ["status": .text(String(status))])
        }
    }
}
