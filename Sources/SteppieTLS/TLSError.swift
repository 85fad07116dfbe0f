import Foundation
import SteppieFiles

/// Why a certificate could not be made, read or used, as values the command line says.
public enum TLSError: Error, Equatable, Sendable {
    /// A GnuTLS call failed (its name and GnuTLS's error code).
    case gnutls(call: String, code: Int32)
    /// A file of the identity could not be written, read or tightened.
    case file(FileRefusal)
    /// A stored certificate or key is not one GnuTLS can read.
    case damaged(path: String)
    /// The stored key is not the stored certificate's key.
    case keyMismatch(certificate: String, key: String)
    /// The stored certificate is past its end date.
    case expired(path: String, notAfter: Date)
}

extension TLSError: CustomStringConvertible {
    /// English for logs and tests; users read the catalogs' words (`cli.error.tls.*`).
    public var description: String {
        switch self {
        case .gnutls(let call, let code): return "\(call): \(GnuTLS.name(code))"
        case .file(let refusal): return "\(refusal)"
        case .damaged(let path): return "\(path) cannot be read as a certificate or key"
        case .keyMismatch(let certificate, let key): return "\(key) is not the key of \(certificate)"
        case .expired(let path, let notAfter): return "\(path) expired on \(notAfter)"
        }
    }
}
