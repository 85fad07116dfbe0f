import SteppieCore
import SteppieInput
import SteppieService

extension ErrorText {
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
        case .button(let key, let arguments): return t(CatalogMessage.button(key: key, arguments: arguments))
        case .buttonInUse(let path): return t("service.log.buttonInUse", ["path": path])
        case .buttonDropped(let path): return t("service.log.buttonDropped", ["path": path])
        case .haptics(let pulse, let rumble, let log):
            return t("service.log.haptics", ["audioPulse": t(pulse ? "cli.haptics.on" : "cli.haptics.off"),
                                             "rumble": rumble ?? t("cli.haptics.none"), "log": log ?? t("cli.haptics.none")])
        case .hapticOutputFailed(let e): return t("service.log.hapticFailed", ["reason": t(e.catalogMessage)])
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
