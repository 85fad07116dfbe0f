import Foundation
import SteppieCore
import SteppieSecurity
import SteppieStore
import SteppieSync
import SteppieSyncAgent

/// `steppie sync …`: joining codes on the hub, the state of sync on any device, one hash of the
/// synced data, and leaving (docs/sync.md).
enum SyncCommands {
    /// `sync invite [--child NAME]... [--json]` on the hub: a one-time code for a device, and the
    /// hub's certificate fingerprint the device's guardian checks. Without `--child`, the device
    /// gets every child of the hub.
    static func invite(_ c: Context) throws -> Int32 {
        let store = try c.store()
        guard try store.syncState()?.role == .hub else { throw SyncInvitationError.notHub }
        let children: [Child] = c.invocation.values("--child").isEmpty
            ? try store.children()
            : try c.invocation.values("--child").map { try store.resolveChild($0) }
        let invitation = try SyncInvitation.make(store, children: children.map(\.id.lowercased), clock: c.env.clock)
        let code = invitation.code, expires = invitation.expiresAt
        if c.json {
            try c.printJSON(InviteJSON(code: code, fingerprint: invitation.fingerprint, hubDevice: invitation.hubDevice,
                                       children: children.map { .init(id: $0.id.lowercased, name: $0.displayName) },
                                       expiresAt: Timestamp.format(Date(timeIntervalSince1970: Double(expires) / 1000), in: c.env.timeZone)))
            return 0
        }
        c.console.print(c.text("cli.sync.invite.code", ["code": code, "minutes": String(SyncInvitation.validMinutes)]))
        c.console.print(c.text("cli.sync.invite.fingerprint", ["fingerprint": invitation.fingerprint]))
        c.console.print(c.text("cli.sync.invite.children", ["children": children.isEmpty ? "-" : children.map(\.displayName).joined(separator: ", ")]))
        return 0
    }

    /// `sync join https://ADDR:PORT --code CODE --fingerprint SHA256 [--name NAME] [--json]`: joins
    /// the hub after checking its certificate; this device's children go to it with the first push
    /// (done here at once, then by the service).
    static func join(_ c: Context) throws -> Int32 {
        let store = try c.store()
        guard let url = c.invocation.typed(HubURL.self, "URL")?.text, let code = c.invocation.value("--code"),
              let fingerprint = c.invocation.value("--fingerprint") else { return Steppie.exitUsage }
        let name = c.invocation.value("--name") ?? ProcessInfo.processInfo.hostName
        let reply = try SyncRound.join(store, url: url, code: code, fingerprint: fingerprint, deviceName: name, clock: c.env.clock)
        // The first exchange now, so the guardian sees at once whether it works (joined either way:
        // a refused exchange, a clock that is off, waits safely and is said).
        var outcome = SyncRound.Outcome()
        do {
            outcome = try SyncRound.now(store, clock: c.env.clock)
        } catch {
            c.console.error(c.text("cli.sync.firstExchangeFailed", ["reason": c.text(CatalogMessage(describing: error))]))
        }
        if c.json {
            try c.printJSON(JoinJSON(hub: url, hubDevice: reply.hubDevice.text, children: reply.children,
                                     pushed: outcome.pushed, pulled: outcome.pulled))
            return 0
        }
        c.console.print(c.text("cli.sync.joined", ["hub": url, "count": String(reply.children.count),
                                                   "pushed": String(outcome.pushed), "pulled": String(outcome.pulled)]))
        return 0
    }

    /// `sync now [--json]`: push what waits, then pull what is new, once (the service does this by
    /// itself; this is for scripts, tests and a guardian who wants to see it happen).
    static func now(_ c: Context) throws -> Int32 {
        let store = try c.store()
        let outcome = try SyncRound.now(store, clock: c.env.clock)
        if c.json {
            try c.printJSON(NowJSON(pushed: outcome.pushed, pulled: outcome.pulled, pending: try store.syncPendingCount()))
        } else {
            c.console.print(c.text("cli.sync.nowDone", ["pushed": String(outcome.pushed), "pulled": String(outcome.pulled)]))
        }
        return 0
    }

    /// `sync status [--json]`: whether this device syncs, with which hub, what waits, the last
    /// contact, the clock offset and the last refusal; on the hub, its devices.
    static func status(_ c: Context) throws -> Int32 {
        let store = try c.store()
        guard let state = try store.syncState() else {
            if c.json { try c.printJSON(StatusJSON(role: "off")) } else { c.console.print(c.text("cli.sync.status.off")) }
            return 0
        }
        let pending = try store.syncPendingCount()
        let devices = state.role == .hub ? try store.syncHubDevices() : []
        let refusal = state.lastRefusal.map { c.text($0.catalogMessage) }
        if c.json {
            try c.printJSON(StatusJSON(role: state.role.rawValue, device: state.device.text, hub: state.hubURL,
                                       fingerprint: state.hubFingerprint, pending: pending, cursor: state.cursor,
                                       lastContact: state.lastContact.map { stampText($0, c) }, clockOffsetMilliseconds: state.lastOffsetMilliseconds,
                                       refusal: refusal,
                                       devices: devices.map { .init(id: $0.id.text, name: $0.name, children: $0.children,
                                                                    acknowledged: $0.acknowledged, cursor: $0.cursor,
                                                                    lastContact: $0.lastContact.map { stampText($0, c) },
                                                                    clockOffsetMilliseconds: $0.lastOffsetMilliseconds) }))
            return 0
        }
        switch state.role {
        case .hub:
            c.console.print(c.text("cli.sync.status.hub", ["device": state.device.text, "count": String(devices.count)]))
            for d in devices {
                c.console.print(c.text("cli.sync.status.hubDevice", [
                    "name": d.name, "device": d.id.text, "children": String(d.children.count),
                    "contact": d.lastContact.map { stampText($0, c) } ?? "-",
                    "offset": d.lastOffsetMilliseconds.map { String(format: "%+.1f", Double($0) / 1000) } ?? "-"]))
            }
        case .device:
            c.console.print(c.text("cli.sync.status.device", ["hub": state.hubURL ?? "-", "pending": String(pending),
                                                              "contact": state.lastContact.map { stampText($0, c) } ?? "-",
                                                              "offset": state.lastOffsetMilliseconds.map { String(format: "%+.1f", Double($0) / 1000) } ?? "-"]))
        }
        if let refusal { c.console.print(c.text("cli.sync.status.refusal", ["reason": refusal])) }
        return 0
    }

    /// `sync digest [--json]`: one SHA-256 of every synced register and event, in a fixed order.
    static func digest(_ c: Context) throws -> Int32 {
        let store = try c.store()
        guard try store.syncState() != nil else { throw StoreError.syncOff }
        var hasher = SHA256()
        let counts = try store.syncCanonicalState { fields in
            hasher.update(SyncCanonical.bytes(fields))
        }
        let hex = hasher.finalHex()
        if c.json {
            try c.printJSON(DigestJSON(digest: hex, registers: counts.registers, events: counts.events))
        } else {
            c.console.print(c.text("cli.sync.digest.line", ["digest": hex, "registers": String(counts.registers), "events": String(counts.events)]))
        }
        return 0
    }

    /// `sync leave`: this device stops syncing; its data stays. The hub's guardian removes the
    /// device there (its credential stops working at once).
    static func leave(_ c: Context) throws -> Int32 {
        let store = try c.store()
        guard try store.syncState() != nil else { throw StoreError.syncOff }
        let pending = try store.syncPendingCount()
        try store.leaveSync()
        c.console.print(c.text("cli.sync.left", ["pending": String(pending)]))
        return 0
    }

    /// `sync remove DEVICE` on the hub: the device (by name or id) is removed; its credential stops
    /// working at once.
    static func remove(_ c: Context) throws -> Int32 {
        let store = try c.store()
        guard try store.syncState()?.role == .hub else { throw SyncInvitationError.notHub }
        guard let selector = c.invocation.argument("DEVICE") else { return Steppie.exitUsage }
        let devices = try store.syncHubDevices()
        let matching = devices.filter { $0.id.text == selector.lowercased() || $0.name == selector }
        guard matching.count == 1, let device = matching.first else {
            throw matching.isEmpty ? SyncCommandError.noSuchDevice(selector) : SyncCommandError.deviceAmbiguous(selector)
        }
        try store.syncHubRemove(device: device.id)
        c.console.print(c.text("cli.sync.removed", ["name": device.name, "device": device.id.text]))
        return 0
    }


    static func stampText(_ ms: Int64, _ c: Context) -> String {
        Timestamp.format(Date(timeIntervalSince1970: Double(ms) / 1000), in: c.env.timeZone)
    }

    struct InviteJSON: Encodable {
        struct Child: Encodable { let id: String; let name: String }
        let code: String
        let fingerprint: String
        let hubDevice: String
        let children: [Child]
        let expiresAt: String
    }

    struct StatusJSON: Encodable {
        struct Device: Encodable {
            let id: String, name: String, children: [String], acknowledged: UInt64, cursor: UInt64
            let lastContact: String?, clockOffsetMilliseconds: Int64?
        }
        var role: String
        var device: String? = nil
        var hub: String? = nil
        var fingerprint: String? = nil
        var pending: Int? = nil
        var cursor: UInt64? = nil
        var lastContact: String? = nil
        var clockOffsetMilliseconds: Int64? = nil
        var refusal: String? = nil
        var devices: [Device]? = nil
    }

    struct JoinJSON: Encodable {
        let hub: String
        let hubDevice: String
        let children: [String]
        let pushed: Int
        let pulled: Int
    }

    struct NowJSON: Encodable {
        let pushed: Int
        let pulled: Int
        let pending: Int
    }

    struct DigestJSON: Encodable {
        let digest: String
        let registers: Int
        let events: Int
    }
}


/// What the sync commands refuse.
enum SyncCommandError: Error, Equatable, CatalogDescribable {
    /// `serve --hub` on a device that is joined to another hub.
    case joinedNotHub
    /// `sync remove`: no joined device has that name or id.
    case noSuchDevice(String)
    /// `sync remove`: several devices have that name (use the id).
    case deviceAmbiguous(String)

    var catalogMessage: CatalogMessage {
        switch self {
        case .joinedNotHub: CatalogMessage("sync.error.joinedNotHub")
        case .noSuchDevice(let name): CatalogMessage("sync.error.noSuchDevice", ["device": .text(Validator.printable(name))])
        case .deviceAmbiguous(let name): CatalogMessage("sync.error.deviceAmbiguous", ["device": .text(Validator.printable(name))])
        }
    }
}
