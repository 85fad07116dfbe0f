import Foundation
import SteppieCore
import SteppieStore
import SteppieSync
import SteppieSyncAgent
import SteppieHTML

/// The guardian's sync page (`/guardian/sync`, docs/sync.md, docs/guardian-web.md): joining a
/// hub, a joined device's state with "Sync now" and "Leave the hub", a hub's joining codes and
/// devices, and the last conflicts. The same use cases as `steppie sync …` (`SyncRound`,
/// `SyncInvitation`); never a credential nor a code's hash.
extension GuardianWeb {
    /// What a POST of the page put on it besides the state (shown once, never stored).
    enum SyncExtra {
        case none
        /// A joining code just made, with the children it gives.
        case invitation(SyncInvitation, children: [String])
        /// "Leave the hub?" before it is done.
        case confirmLeave
        /// "Remove this device?" before it is done.
        case confirmRemove(Store.SyncHubDevice)
    }

    /// The join form as it was typed (a refused join shows it again; never the code).
    struct SyncJoinForm {
        var hubURL = ""
        var fingerprint = ""
        var deviceName: String?
    }

    func syncAction(_ r: inout Request, path: [String]) -> WebResponse {
        switch (r.web.method, path.count > 1 ? path[1] : nil, path.count) {
        case ("GET", nil, 1): return syncPage(r)
        case ("POST", "join", 2): return syncJoin(&r)
        case ("POST", "now", 2): return syncNow(&r)
        case ("POST", "leave", 2): return syncLeave(&r)
        case ("POST", "invite", 2): return syncInvite(&r)
        case ("POST", "remove", 2): return syncRemove(&r)
        default: return notFound(r)
        }
    }

    func syncPage(_ r: Request, status: Int = 200, error: PageError? = nil, extra: SyncExtra = .none,
                  join: SyncJoinForm = SyncJoinForm()) -> WebResponse {
        let body: HTML
        do {
            switch try r.store.syncState() {
            case nil: body = syncOffBody(r, error: error, form: join)
            case let state? where state.role == .hub: body = try syncHubBody(r, state: state, extra: extra)
            case let state?: body = try syncDeviceBody(r, state: state, extra: extra)
            }
        } catch {
            return r.page(screen: "sync", titleKey: "web.sync.title", status: 500, error: r.pageError(error))
        }
        return r.page(screen: "sync", titleKey: "web.sync.title", status: status, error: error, body: body)
    }

    // MARK: Not syncing: the join form

    private func syncOffBody(_ r: Request, error: PageError?, form: SyncJoinForm) -> HTML {
        func invalid(_ field: String) -> HTML {
            error?.field == field ? " aria-invalid=\"true\"" : ""
        }
        func described(_ field: String) -> HTML {
            "aria-describedby=\"\(field)-hint\(error?.field == field ? " form-error" : "")\""
        }
        let name = form.deviceName ?? ProcessInfo.processInfo.hostName
        return """
        <section data-sync="off" aria-labelledby="sync-off-h"><h2 id="sync-off-h">\(r.t("web.sync.off.title"))</h2>
        <p>\(r.t("web.sync.off.intro"))</p>
        <form method="post" action="/guardian/sync/join" data-form="sync-join">\(r.csrf)
        <p><label for="hubURL">\(r.t("web.field.hubURL"))</label>
        <input id="hubURL" name="hubURL" inputmode="url" autocomplete="off" spellcheck="false" maxlength="200" required value="\(form.hubURL)" placeholder="https://192.168.1.20:8472" \(described("hubURL"))\(invalid("hubURL"))>
        <span class="hint" id="hubURL-hint">\(r.t("web.sync.off.hubURLHint"))</span></p>
        <p><label for="joinCode">\(r.t("web.field.joinCode"))</label>
        <input id="joinCode" name="joinCode" inputmode="numeric" autocomplete="off" maxlength="12" required placeholder="1234-5678" \(described("joinCode"))\(invalid("joinCode"))>
        <span class="hint" id="joinCode-hint">\(r.t("web.sync.off.codeHint"))</span></p>
        <p><label for="fingerprint">\(r.t("web.field.fingerprint"))</label>
        <textarea id="fingerprint" name="fingerprint" rows="3" autocomplete="off" spellcheck="false" maxlength="200" required \(described("fingerprint"))\(invalid("fingerprint"))>\(form.fingerprint)</textarea>
        <span class="hint" id="fingerprint-hint">\(r.t("web.sync.off.fingerprintHint"))</span></p>
        <p><label for="deviceName">\(r.t("web.field.deviceName"))</label>
        <input id="deviceName" name="deviceName" maxlength="60" required value="\(name)" \(described("deviceName"))\(invalid("deviceName"))>
        <span class="hint" id="deviceName-hint">\(r.t("web.sync.off.deviceNameHint"))</span></p>
        <p><button type="submit">\(r.t("web.sync.join"))</button></p>
        </form></section>
        <section aria-labelledby="sync-hub-h" data-hint="hub"><h2 id="sync-hub-h">\(r.t("web.sync.off.hubTitle"))</h2>
        <p>\(r.t("web.sync.off.hubNote"))</p><p><code>steppie serve --hub ADDR:PORT</code></p></section>
        """
    }

    // MARK: A joined device

    private func syncDeviceBody(_ r: Request, state: SyncState, extra: SyncExtra) throws -> HTML {
        let pending = try r.store.syncPendingCount()
        var h: HTML = "<section data-sync=\"device\" aria-labelledby=\"sync-dev-h\"><h2 id=\"sync-dev-h\">\(r.t("web.sync.device.title"))</h2><dl class=\"facts\">"
        h += "<dt>\(r.t("web.field.hubURL"))</dt><dd data-hub-url=\"\(state.hubURL ?? "")\">\(state.hubURL ?? "-")</dd>"
        h += "<dt>\(r.t("web.field.fingerprint"))</dt><dd class=\"fingerprint\" data-fingerprint=\"\(state.hubFingerprint ?? "")\">\(fingerprintPairs(state.hubFingerprint ?? "-"))</dd>"
        h += "<dt>\(r.t("web.sync.pending"))</dt><dd data-pending=\"\(pending)\">\(r.t("web.sync.pendingCount", ["count": String(pending)]))</dd>"
        h += "<dt>\(r.t("web.sync.lastContact"))</dt><dd data-last-contact>\(syncStamp(r, state.lastContact))</dd>"
        h += "<dt>\(r.t("web.sync.offset"))</dt><dd>\(syncOffset(r, state.lastOffsetMilliseconds))</dd></dl>"
        h += syncOffsetWarning(r, state.lastOffsetMilliseconds)
        if let refusal = state.lastRefusal {
            h += "<p class=\"warning\" data-refusal=\"\(refusalName(refusal))\">\(r.t("web.sync.lastRefusal", ["reason": r.say(refusal.catalogMessage)]))</p>"
        }
        h += """
        <form method="post" action="/guardian/sync/now" data-form="sync-now" class="inline">\(r.csrf)
        <button type="submit">\(r.t("web.sync.now"))</button></form></section>
        """
        h += try syncConflictsSection(r)
        h += "<section aria-labelledby=\"sync-leave-h\"><h2 id=\"sync-leave-h\">\(r.t("web.sync.leave.title"))</h2>"
        if case .confirmLeave = extra {
            h += """
            <div class="confirm" data-confirm="leave"><p>\(r.t("web.sync.leave.confirm", ["pending": String(pending)]))</p>
            <form method="post" action="/guardian/sync/leave" data-form="sync-leave-confirm" class="inline">\(r.csrf)
            <input type="hidden" name="confirm" value="yes"><button type="submit" class="danger">\(r.t("web.sync.leave.yes"))</button></form>
            <a href="/guardian/sync">\(r.t("web.action.cancel"))</a></div>
            """
        } else {
            h += """
            <p>\(r.t("web.sync.leave.intro"))</p>
            <form method="post" action="/guardian/sync/leave" data-form="sync-leave" class="inline">\(r.csrf)
            <button type="submit" class="quiet">\(r.t("web.sync.leave.button"))</button></form>
            """
        }
        return h + "</section>"
    }

    // MARK: The hub

    private func syncHubBody(_ r: Request, state: SyncState, extra: SyncExtra) throws -> HTML {
        let fingerprint = try? SyncInvitation.hubFingerprint(r.store)
        let children = try r.store.children()
        var names: [String: String] = [:]
        for child in try r.store.children(includeArchived: true) { names[child.id.lowercased] = child.displayName }
        var h: HTML = ""
        // A code just made comes first: a small screen shows it without scrolling.
        if case .invitation(let invitation, let given) = extra {
            h += """
            <div class="code-shown" data-invitation role="status"><p>\(r.t("web.sync.invite.code"))</p>
            <p class="code" data-code="\(invitation.code)">\(invitation.code)</p>
            <p>\(r.t("web.sync.invite.expires", ["time": r.dateTime(Date(timeIntervalSince1970: Double(invitation.expiresAt) / 1000)), "minutes": String(SyncInvitation.validMinutes)]))</p>
            <p>\(r.t("web.sync.invite.children", ["children": given.isEmpty ? r.t("web.sync.invite.everyChild") : given.joined(separator: ", ")]))</p>
            <p>\(r.t("web.sync.invite.fingerprint"))</p><p class="fingerprint" data-fingerprint="\(invitation.fingerprint)">\(fingerprintPairs(invitation.fingerprint))</p>
            <p>\(r.t("web.sync.invite.once"))</p></div>
            """
        }
        h += "<section data-sync=\"hub\" aria-labelledby=\"sync-hub-h\"><h2 id=\"sync-hub-h\">\(r.t("web.sync.hub.title"))</h2>"
        h += "<p>\(r.t("web.sync.hub.intro"))</p><dl class=\"facts\">"
        h += "<dt>\(r.t("web.sync.hub.device"))</dt><dd data-hub-device=\"\(state.device.text)\">\(state.device.text)</dd>"
        h += "<dt>\(r.t("web.field.fingerprint"))</dt><dd class=\"fingerprint\" data-fingerprint=\"\(fingerprint ?? "")\">\(fingerprint.map(fingerprintPairs) ?? HTML(escaping: r.say(SyncInvitationError.noIdentity.catalogMessage)))</dd></dl></section>"

        h += "<section aria-labelledby=\"sync-invite-h\"><h2 id=\"sync-invite-h\">\(r.t("web.sync.invite.title"))</h2>"
        h += "<form method=\"post\" action=\"/guardian/sync/invite\" data-form=\"sync-invite\">\(r.csrf)"
        h += "<fieldset><legend>\(r.t("web.sync.invite.choose"))</legend>"
        if children.isEmpty { h += "<p>\(r.t("web.children.none"))</p>" }
        for child in children {
            let id = child.id.lowercased
            h += "<label class=\"check\"><input type=\"checkbox\" name=\"child-\(id)\" value=\"on\" checked data-child-id=\"\(id)\"> \(child.displayName)</label>"
        }
        h += "</fieldset><p><button type=\"submit\">\(r.t("web.sync.invite.button"))</button></p></form></section>"

        let devices = try r.store.syncHubDevices()
        h += "<section aria-labelledby=\"sync-devices-h\"><h2 id=\"sync-devices-h\">\(r.t("web.sync.devices.title"))</h2>"
        if devices.isEmpty { h += "<p data-devices=\"none\">\(r.t("web.sync.devices.none"))</p>" }
        h += "<ul class=\"cards\">"
        for device in devices {
            let given = device.children.map { names[$0] ?? r.t("web.sync.devices.unknownChild") }
            h += "<li class=\"card\" data-device-id=\"\(device.id.text)\"><h3>\(device.name)</h3><dl class=\"facts\">"
            h += "<dt>\(r.t("web.sync.devices.children"))</dt><dd>\(given.isEmpty ? "-" : given.joined(separator: ", "))</dd>"
            h += "<dt>\(r.t("web.sync.lastContact"))</dt><dd>\(syncStamp(r, device.lastContact))</dd>"
            h += "<dt>\(r.t("web.sync.offset"))</dt><dd>\(syncOffset(r, device.lastOffsetMilliseconds))</dd>"
            h += "<dt>\(r.t("web.sync.devices.acknowledged"))</dt><dd data-acknowledged=\"\(device.acknowledged)\">\(device.acknowledged)</dd></dl>"
            h += syncOffsetWarning(r, device.lastOffsetMilliseconds)
            if case .confirmRemove(let chosen) = extra, chosen.id == device.id {
                h += """
                <div class="confirm" data-confirm="remove"><p>\(r.t("web.sync.devices.confirm", ["name": device.name]))</p>
                <form method="post" action="/guardian/sync/remove" data-form="sync-remove-confirm" class="inline">\(r.csrf)
                <input type="hidden" name="device" value="\(device.id.text)"><input type="hidden" name="confirm" value="yes">
                <button type="submit" class="danger">\(r.t("web.sync.devices.removeYes"))</button></form>
                <a href="/guardian/sync">\(r.t("web.action.cancel"))</a></div>
                """
            } else {
                h += """
                <form method="post" action="/guardian/sync/remove" data-form="sync-remove" class="inline">\(r.csrf)
                <input type="hidden" name="device" value="\(device.id.text)">
                <button type="submit" class="quiet" aria-label="\(r.t("web.sync.devices.removeNamed", ["name": device.name]))">\(r.t("web.sync.devices.remove"))</button></form>
                """
            }
            h += "</li>"
        }
        h += "</ul></section>"
        return h + (try syncConflictsSection(r))
    }

    // MARK: Shared parts

    private func syncConflictsSection(_ r: Request) throws -> HTML {
        let conflicts = try r.store.syncConflicts(limit: 10)
        var h: HTML = "<section aria-labelledby=\"sync-conflicts-h\"><h2 id=\"sync-conflicts-h\">\(r.t("web.sync.conflicts.title"))</h2>"
        guard !conflicts.isEmpty else { return h + "<p data-conflicts=\"none\">\(r.t("web.sync.conflicts.none"))</p></section>" }
        h += "<p>\(r.t("web.sync.conflicts.intro"))</p><table class=\"conflicts\"><thead><tr><th scope=\"col\">\(r.t("web.sync.conflicts.when"))</th>"
        h += "<th scope=\"col\">\(r.t("web.sync.conflicts.what"))</th><th scope=\"col\">\(r.t("web.sync.conflicts.why"))</th></tr></thead><tbody>"
        for c in conflicts {
            let what = r.t("web.sync.entity.\(c.entity)")
            h += "<tr data-conflict=\"\(c.kind.rawValue)\"><td>\(syncStamp(r, c.at))</td>"
            h += "<td>\(what.hasPrefix("web.") ? c.entity : what) <code>\(String(c.record.prefix(8)))</code></td>"
            if c.kind == .renamed, let from = c.from, let to = c.to {
                h += "<td>\(r.t("web.sync.conflict.renamed", ["from": from, "to": to]))</td></tr>"
            } else {
                h += "<td>\(r.t("web.sync.conflict.\(c.kind.rawValue)"))</td></tr>"
            }
        }
        return h + "</tbody></table></section>"
    }

    private func syncStamp(_ r: Request, _ milliseconds: Int64?) -> String {
        guard let milliseconds else { return r.t("web.sync.never") }
        return r.dateTime(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    private func syncOffset(_ r: Request, _ milliseconds: Int64?) -> String {
        guard let milliseconds else { return "-" }
        let seconds = (Double(milliseconds) / 100).rounded() / 10
        return r.t("web.sync.offsetSeconds", ["seconds": seconds == 0 ? "0.0" : String(format: "%+.1f", seconds)])
    }

    /// A clock more than a minute off the hub's: said before the hub refuses it (at 5 minutes).
    private func syncOffsetWarning(_ r: Request, _ milliseconds: Int64?) -> HTML {
        guard let milliseconds, abs(milliseconds) > 60_000 else { return "" }
        return "<p class=\"warning\" data-clock-warning>\(r.t("web.sync.offsetWarning", ["seconds": String(abs(milliseconds) / 1000)]))</p>"
    }

    /// A fingerprint that breaks only between its pairs on a narrow screen.
    private func fingerprintPairs(_ text: String) -> HTML {
        text.split(separator: ":", omittingEmptySubsequences: false).map { HTML(escaping: $0) }.joined(separator: ":<wbr>")
    }

    private func refusalName(_ refusal: SyncRefusal) -> String {
        String(String(describing: refusal).prefix { $0.isLetter })
    }
}
