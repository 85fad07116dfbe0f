import SteppieCore
import SteppieFiles

extension TLSError: CatalogDescribable {
    /// Why the guardian pages' certificate could not be made or used (`cli.error.tls.*`).
    public var catalogMessage: CatalogMessage {
        switch self {
        case .gnutls(let call, let code): CatalogMessage("cli.error.tls.gnutls", ["call": .detail(call), "code": .detail(String(code))])
        case .file(let f): f.catalogMessage
        case .damaged(let path): CatalogMessage("cli.error.tls.damaged", ["path": .detail(path)])
        case .keyMismatch(let certificate, let key):
            CatalogMessage("cli.error.tls.keyMismatch", ["certificate": .detail(certificate), "key": .detail(key)])
        case .expired(let path, _): CatalogMessage("cli.error.tls.expired", ["path": .detail(path)])
        }
    }
}
