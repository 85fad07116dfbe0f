import SteppieSync

/// Why a device's request to its hub did not bring a reply: the network, TLS, the hub's
/// certificate, time, the answer itself, or the hub's own refusal (`SyncRefusal`).
package enum SyncTransportError: Error, Hashable, Sendable {
    /// Which wait ran out.
    package enum Stage: String, Hashable, Sendable {
        /// Opening the TCP connection.
        case connect
        /// The TLS handshake.
        case handshake
        /// The whole request, from its start to the answer's last byte.
        case request
    }

    /// The hub's address is not `https://HOST:PORT`.
    case invalidAddress(String)
    /// No connection could be opened (the name unknown, refused, no route): the hub is away.
    case unreachable(address: String, reason: String)
    /// The TLS handshake failed, or the connection broke inside TLS.
    case tlsFailed(address: String, reason: String)
    /// The hub presented another certificate than the one the guardian checked: nothing was sent.
    case fingerprintMismatch(expected: String, got: String)
    case timeout(Stage)
    /// The answer is longer than the device takes (its bytes were not kept).
    case responseTooLarge(limit: Int)
    /// The answer is not an HTTP answer the protocol gives (its head, framing or JSON).
    case badResponse(reason: String)
    /// The hub refused the request; its data is unchanged.
    case refused(SyncRefusal)
    /// Another HTTP status than the protocol's (a server that is not a Steppie hub, or a fault).
    case httpStatus(Int)
}

extension SyncTransportError: CustomStringConvertible {
    /// English for logs and tests; people read the catalogs' words (`sync.error.*`).
    package var description: String {
        switch self {
        case .invalidAddress(let text): "not a hub address: \(text)"
        case .unreachable(let address, let reason): "\(address) unreachable: \(reason)"
        case .tlsFailed(let address, let reason): "TLS with \(address) failed: \(reason)"
        case .fingerprintMismatch(let expected, let got): "certificate fingerprint \(got), expected \(expected)"
        case .timeout(let stage): "timed out (\(stage.rawValue))"
        case .responseTooLarge(let limit): "answer over \(limit) bytes"
        case .badResponse(let reason): "bad answer: \(reason)"
        case .refused(let refusal): "refused: \(refusal)"
        case .httpStatus(let status): "HTTP status \(status)"
        }
    }
}
