import Foundation
import SteppieCore
import SteppieStore
import SteppieSync
import SteppieSyncAgent
import SteppieSyncHTTP

/// The sync page's forms (docs/guardian-web.md): join, sync now, leave, make a joining code and
/// remove a device. Join and "Sync now" talk to the hub on the request's thread with the page's
/// deadlines (`SyncRound.pageTimeouts`: a hub that is away is said within about 15 s); like a
/// restore, they hold only these pages, never the service's thread (its sweep skips a busy lock).
extension GuardianWeb {
    func syncJoin(_ r: inout Request) -> WebResponse {
        let url = (r.web.form["hubURL"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let code = (r.web.form["joinCode"] ?? "").filter { !$0.isWhitespace }
        let fingerprint = (r.web.form["fingerprint"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let name = (r.web.form["deviceName"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let typed = SyncJoinForm(hubURL: url, fingerprint: fingerprint, deviceName: name)
        func refuse(_ field: String, _ key: String) -> WebResponse {
            syncPage(r, status: 400, error: PageError(field: field, message: r.t(key, ["field": r.fieldLabel(field)])), join: typed)
        }
        guard SyncRound.isHubAddress(url) else { return refuse("hubURL", "web.sync.error.hubURL") }
        let digits = code.filter { $0 != "-" }
        guard digits.count == 8, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return refuse("joinCode", "web.sync.error.code") }
        let hex = fingerprint.filter { $0.isHexDigit }
        guard hex.count == 64, fingerprint.allSatisfy({ $0.isHexDigit || $0 == ":" || $0.isWhitespace }) else {
            return refuse("fingerprint", "web.sync.error.fingerprint")
        }
        guard !name.isEmpty, name.count <= 60, Validator.printable(name) == name else {
            return refuse("deviceName", "web.error.form")
        }
        let reply: JoinReply
        do {
            reply = try SyncRound.join(r.store, url: url, code: digits, fingerprint: fingerprint, deviceName: name,
                                       clock: config.clock, timeouts: SyncRound.pageTimeouts)
        } catch {
            return syncPage(r, status: syncStatus(error), error: PageError(field: syncField(error), message: syncReason(r, error)), join: typed)
        }
        // The first exchange at once, as `steppie sync join` does: joined either way; a refusal
        // or a hub that went away is said and the changes wait.
        do {
            let outcome = try SyncRound.now(r.store, clock: config.clock, timeouts: SyncRound.pageTimeouts)
            r.nextNotice = r.t("web.sync.joined", ["count": String(reply.children.count), "pushed": String(outcome.pushed),
                                                   "pulled": String(outcome.pulled)])
        } catch {
            r.nextNotice = r.t("web.sync.joinedFirstFailed", ["reason": syncReason(r, error)])
        }
        return .seeOther("/guardian/sync")
    }

    func syncNow(_ r: inout Request) -> WebResponse {
        do {
            let outcome = try SyncRound.now(r.store, clock: config.clock, timeouts: SyncRound.pageTimeouts)
            r.nextNotice = r.t("web.sync.nowDone", ["pushed": String(outcome.pushed), "pulled": String(outcome.pulled)])
            return .seeOther("/guardian/sync")
        } catch {
            return syncPage(r, status: syncStatus(error), error: PageError(field: nil, message: syncReason(r, error)))
        }
    }

    func syncLeave(_ r: inout Request) -> WebResponse {
        guard r.web.form["confirm"] == "yes" else { return syncPage(r, extra: .confirmLeave) }
        do {
            guard try r.store.syncState()?.role == .device else { return .seeOther("/guardian/sync") }
            let pending = try r.store.syncPendingCount()
            try r.store.leaveSync()
            r.nextNotice = r.t("web.sync.left", ["pending": String(pending)])
            return .seeOther("/guardian/sync")
        } catch {
            return syncPage(r, status: 500, error: r.pageError(error))
        }
    }

    func syncInvite(_ r: inout Request) -> WebResponse {
        do {
            let children = try r.store.children()
            let chosen = children.filter { r.web.form["child-" + $0.id.lowercased] == "on" }
            guard !chosen.isEmpty || children.isEmpty else {
                return syncPage(r, status: 400, error: PageError(field: "children", message: r.t("web.sync.error.noChild")))
            }
            let invitation = try SyncInvitation.make(r.store, children: chosen.map(\.id.lowercased), clock: config.clock)
            return syncPage(r, extra: .invitation(invitation, children: chosen.map(\.displayName)))
        } catch {
            return syncPage(r, status: syncStatus(error), error: PageError(field: nil, message: syncReason(r, error)))
        }
    }

    func syncRemove(_ r: inout Request) -> WebResponse {
        do {
            let devices = try r.store.syncHubDevices()
            guard let device = devices.first(where: { $0.id.text == (r.web.form["device"] ?? "").lowercased() }) else {
                return syncPage(r, status: 404, error: PageError(field: nil, message: r.t("web.error.gone")))
            }
            guard r.web.form["confirm"] == "yes" else { return syncPage(r, extra: .confirmRemove(device)) }
            try r.store.syncHubRemove(device: device.id)
            r.nextNotice = r.t("web.sync.devices.removed", ["name": device.name])
            return .seeOther("/guardian/sync")
        } catch {
            return syncPage(r, status: 500, error: r.pageError(error))
        }
    }

    // MARK: What went wrong, said

    /// The sentence of a sync failure in the page's language: the hub's refusal or the
    /// transport's (its technical words, an address or a library's, left out: these pages reach
    /// the home network); any other failure as the pages say failures.
    func syncReason(_ r: Request, _ error: any Error) -> String {
        switch error {
        case let e as SyncTransportError: return r.say(Self.withoutDetail(e.catalogMessage))
        case let e as SyncRefusal: return r.say(Self.withoutDetail(e.catalogMessage))
        case let e as SyncInvitationError: return r.say(e.catalogMessage)
        case StoreError.syncOff: return r.t("web.sync.error.off")
        case StoreError.syncAlreadyOn: return r.t("web.sync.error.alreadyOn")
        default: return r.failureReason(error)
        }
    }

    /// Which join field a failure points at (a wrong fingerprint, a code the hub does not know).
    private func syncField(_ error: any Error) -> String? {
        switch error {
        case SyncTransportError.fingerprintMismatch: return "fingerprint"
        case SyncTransportError.invalidAddress, SyncTransportError.unreachable, SyncTransportError.timeout(.connect): return "hubURL"
        case SyncTransportError.refused(.unknownDevice), SyncTransportError.refused(.joinLocked): return "joinCode"
        default: return nil
        }
    }

    /// The status of a failed exchange: the hub's side (502) or this device's (500).
    private func syncStatus(_ error: any Error) -> Int {
        switch error {
        case is SyncTransportError, is SyncRefusal: return 502
        case is SyncInvitationError, StoreError.syncOff, StoreError.syncAlreadyOn: return 409
        default: return 500
        }
    }

    /// `message` with its technical arguments (`Argument.detail`) shown as "…".
    static func withoutDetail(_ message: CatalogMessage) -> CatalogMessage {
        var copy = message
        for (key, argument) in message.arguments {
            switch argument {
            case .detail: copy.arguments[key] = .text("…")
            case .message(let nested): copy.arguments[key] = .message(withoutDetail(nested))
            case .text, .name: break
            }
        }
        return copy
    }
}
