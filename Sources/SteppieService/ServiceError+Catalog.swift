import SteppieCore
import SteppieFiles

extension ServiceError: CatalogDescribable {
    /// Why the service would not start, in the reader's words.
    public var catalogMessage: CatalogMessage {
        switch self {
        case .alreadyRunning(let pid, let socket, let database):
            CatalogMessage("cli.error.serviceRunning", ["pid": .detail(pid.map(String.init) ?? "?"), "socket": .detail(socket ?? "?"),
                                                        "database": .detail(database)])
        case .socketInUse(let path): CatalogMessage("cli.error.socketInUse", ["socket": .detail(path)])
        case .socketFolder(let refusal): refusal.catalogMessage
        case .library(let l): l.catalogMessage
        case .file(let f): f.catalogMessage
        case .guardianPages(let reason): CatalogMessage("cli.error.guardianPages", ["reason": .message(reason)])
        case .httpUnavailable(let address, let code):
            CatalogMessage("cli.error.httpUnavailable", ["address": .detail(address), "reason": .message(.systemReason("bind", code))])
        case .system(let operation, let code): CatalogMessage("cli.error.serviceSystem", ["reason": .message(.systemReason(operation, code))])
        }
    }
}

extension SocketFolderRefusal: CatalogDescribable {
    /// Why the control socket's folder is not used.
    public var catalogMessage: CatalogMessage {
        switch self {
        case .symbolicLink(let path): CatalogMessage("cli.error.socketFolder.symbolicLink", ["path": .detail(Validator.printable(path))])
        case .notDirectory(let path, let kind):
            CatalogMessage("cli.error.socketFolder.notDirectory", ["path": .detail(Validator.printable(path)), "kind": .message(kind.catalogMessage)])
        case .otherOwner(let path, let uid):
            CatalogMessage("cli.error.socketFolder.otherOwner", ["path": .detail(Validator.printable(path)), "uid": .detail(String(uid))])
        case .shared(let path): CatalogMessage("cli.error.socketFolder.shared", ["path": .detail(Validator.printable(path))])
        case .file(let f): f.catalogMessage
        case .system(let path, let operation, let code):
            CatalogMessage("cli.error.fileSystem", ["path": .detail(Validator.printable(path)), "reason": .message(.systemReason(operation, code))])
        }
    }
}

extension ServiceTrustRefusal: CatalogDescribable {
    /// Why a command would not talk to what answers at the control socket.
    public var catalogMessage: CatalogMessage {
        switch self {
        case .folder(let refusal): refusal.catalogMessage
        case .otherUser(let socket, let uid, let pid):
            CatalogMessage("cli.error.untrustedService", ["socket": .detail(Validator.printable(socket)), "uid": .detail(String(uid)),
                                                          "pid": .detail(String(pid))])
        case .peerUnknown(let socket, let code):
            CatalogMessage("cli.error.untrustedServiceUnknown", ["socket": .detail(Validator.printable(socket)),
                                                                 "reason": .message(.systemReason("getsockopt", code))])
        }
    }
}

extension LibraryUnavailable: CatalogDescribable {
    /// Why `steppie serve` would not start: a library it may use cannot be loaded.
    public var catalogMessage: CatalogMessage {
        let name: CatalogMessage.Argument = neededBy.map {
            .message(CatalogMessage("cli.error.library.neededBy", ["library": .detail(soname), "parent": .detail($0)]))
        } ?? .detail(soname)
        if let signal { return CatalogMessage("cli.error.library.signal", ["library": name, "signal": .detail(signal)]) }
        if timedOut { return CatalogMessage("cli.error.library.timedOut", ["library": name]) }
        return CatalogMessage("cli.error.library.unavailable", ["library": name, "reason": .detail(reason)])
    }
}

extension ServiceFailure: CatalogDescribable {
    /// A refusal from a running service, by its stable code (`cli.error.service.*`); the English
    /// `message` is for programs and the log.
    public var catalogMessage: CatalogMessage { CatalogMessage("cli.error.service." + code.rawValue) }
}
