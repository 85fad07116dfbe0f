import SteppieCore
import SteppieInput
import SteppieService
import SteppieTLS

extension ErrorText {
    /// Why the service would not start.
    static func service(_ e: ServiceError, _ t: Messages) -> String {
        switch e {
        case .alreadyRunning(let pid, let socket, let database):
            return t("cli.error.serviceRunning", ["pid": pid.map(String.init) ?? "?", "socket": socket ?? "?", "database": database])
        case .socketInUse(let path): return t("cli.error.socketInUse", ["socket": path])
        case .socketFolder(let refusal): return socketFolder(refusal, t)
        case .library(let l): return library(l, t)
        case .file(let f): return file(f, t)
        case .guardianPages(let reason):
            return t("cli.error.guardianPages", ["reason": reason])
        case .httpUnavailable(let address, let code):
            return t("cli.error.httpUnavailable", ["address": address, "reason": systemReason("bind", code, t)])
        case .system(let operation, let code): return t("cli.error.serviceSystem", ["reason": systemReason(operation, code, t)])
        }
    }

    /// Why the control socket's folder is not used.
    static func socketFolder(_ e: SocketFolderRefusal, _ t: Messages) -> String {
        switch e {
        case .symbolicLink(let path): return t("cli.error.socketFolder.symbolicLink", ["path": Validator.printable(path)])
        case .notDirectory(let path, let kind):
            return t("cli.error.socketFolder.notDirectory", ["path": Validator.printable(path), "kind": t("file.kind." + kind.rawValue)])
        case .otherOwner(let path, let uid):
            return t("cli.error.socketFolder.otherOwner", ["path": Validator.printable(path), "uid": String(uid)])
        case .shared(let path): return t("cli.error.socketFolder.shared", ["path": Validator.printable(path)])
        case .file(let f): return file(f, t)
        case .system(let path, let operation, let code):
            return t("cli.error.fileSystem", ["path": Validator.printable(path), "reason": systemReason(operation, code, t)])
        }
    }

    /// Why a command would not talk to what answers at the control socket.
    static func serviceTrust(_ e: ServiceTrustRefusal, _ t: Messages) -> String {
        switch e {
        case .folder(let refusal): return socketFolder(refusal, t)
        case .otherUser(let socket, let uid, let pid):
            return t("cli.error.untrustedService", ["socket": Validator.printable(socket), "uid": String(uid), "pid": String(pid)])
        case .peerUnknown(let socket, let code):
            return t("cli.error.untrustedServiceUnknown", ["socket": Validator.printable(socket), "reason": systemReason("getsockopt", code, t)])
        }
    }

    /// Why `steppie serve` would not start: a library it may use cannot be loaded.
    static func library(_ e: LibraryUnavailable, _ t: Messages) -> String {
        let name = e.neededBy.map { t("cli.error.library.neededBy", ["library": e.soname, "parent": $0]) } ?? e.soname
        if let signal = e.signal { return t("cli.error.library.signal", ["library": name, "signal": signal]) }
        if e.timedOut { return t("cli.error.library.timedOut", ["library": name]) }
        return t("cli.error.library.unavailable", ["library": name, "reason": e.reason])
    }

    /// Why the guardian pages' certificate could not be made or used.
    static func tls(_ e: TLSError, _ t: Messages) -> String {
        switch e {
        case .gnutls(let call, let code): return t("cli.error.tls.gnutls", ["call": call, "code": String(code)])
        case .file(let f): return file(f, t)
        case .damaged(let path): return t("cli.error.tls.damaged", ["path": path])
        case .keyMismatch(let certificate, let key): return t("cli.error.tls.keyMismatch", ["certificate": certificate, "key": key])
        case .expired(let path, _): return t("cli.error.tls.expired", ["path": path])
        }
    }

    /// A refusal from a running service, by its stable code.
    static func serviceFailure(_ f: ServiceFailure, _ t: Messages) -> String {
        t("cli.error.service." + f.code.rawValue)
    }

    /// A button message from its catalog key; a `kind` argument is itself a catalog key.
    static func button(_ key: String, _ arguments: [String: String], _ t: Messages) -> String {
        var args = arguments
        if let kind = args["kind"] { args["kind"] = t(kind) }
        return t(key, args)
    }

    /// One line of the service's log.
    static func serviceLog(_ e: ServiceLogEntry, _ t: Messages) -> String {
        switch e {
        case .listening(let socket, let children):
            return t("service.log.listening", ["socket": socket, "children": children.joined(separator: ", "), "count": String(children.count)])
        case .childAdded(let name): return t("service.log.childAdded", ["child": name])
        case .childRemoved(let name): return t("service.log.childRemoved", ["child": name])
        case .setSwitched(let name): return t("service.log.setSwitched", ["child": name])
        case .kioskPage(let name, let url): return t("service.log.kioskPage", ["child": name, "url": url])
        case .guardianLAN(let url, let fingerprint, let created):
            return t(created ? "service.log.guardianLANNew" : "service.log.guardianLAN", ["url": url, "fingerprint": fingerprint])
        case .button(let key, let arguments): return button(key, arguments, t)
        case .buttonInUse(let path): return t("service.log.buttonInUse", ["path": path])
        case .buttonDropped(let path): return t("service.log.buttonDropped", ["path": path])
        case .haptics(let pulse, let rumble, let log):
            return t("service.log.haptics", ["audioPulse": t(pulse ? "cli.haptics.on" : "cli.haptics.off"),
                                             "rumble": rumble ?? t("cli.haptics.none"), "log": log ?? t("cli.haptics.none")])
        case .hapticOutputFailed(let e): return t("service.log.hapticFailed", ["reason": feedback(e, t)])
        case .rumbleUnplugged(let path): return t("service.log.rumbleUnplugged", ["path": path])
        case .fault(let child, let reason): return t("service.log.fault", ["child": child, "reason": reason])
        case .tapNotSaved(let child, let action): return t("service.log.tapNotSaved", ["child": child, "action": action])
        case .peerRefused(let uid): return t("service.log.peerRefused", ["uid": String(uid)])
        case .restoreRepaired(let finished, let undone):
            return t("service.log.restoreRepaired", ["finished": String(finished), "undone": String(undone)])
        case .stopping: return t("service.log.stopping")
        }
    }
}
