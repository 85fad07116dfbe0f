/// Why a TLS client connection (`TLSClientSession`) failed: a GnuTLS call, the caller's deadline,
/// or waiting on the socket. Its caller says it in its own words (the sync client's
/// `SyncTransportError`), so it has no catalog message of its own.
package enum TLSClientError: Error, Equatable, Sendable {
    /// A GnuTLS call failed (the handshake, a record sent or read, the peer's certificate).
    case failed(TLSError)
    /// The deadline passed while waiting for the peer.
    case timedOut
    /// `poll(2)` on the socket failed (its errno).
    case poll(errno: Int32)
}

extension TLSClientError: CustomStringConvertible {
    /// English for logs and the caller's technical detail.
    package var description: String {
        switch self {
        case .failed(let error): "\(error)"
        case .timedOut: "timed out"
        case .poll(let code): "poll: errno \(code)"
        }
    }
}
