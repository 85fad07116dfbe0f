import CTerminal
import Foundation
import SteppieCentre
import SteppieCentreWeb
import SteppieCore
import SteppieLocalization
import SteppiePostgres
import SteppieSecurity
import SteppieService
import SteppieSync
import SteppieSyncAgent
import SteppieTLS

/// `steppie hub …`: the centre's hub on PostgreSQL (docs/centre.md). Every process of a centre
/// runs on one database and keeps nothing another needs; the identity, the devices, their cursors
/// and the feed are in the database.
enum HubCommands {
    /// Connections one hub process keeps to PostgreSQL at most (a held pull holds none while it waits).
    static let poolSize = 16
    /// Devices' connections one process serves at once: every device's held pull keeps one, and
    /// its pushes another for a few seconds (one thread each, libmicrohttpd's thread per
    /// connection; a thread waiting on its socket costs a few pages of stack). 512 was the first
    /// wall of the 500-device benchmark (docs/performance.md).
    static let maxConnections: UInt32 = 2048

    /// Lets the process open a descriptor for every connection it serves, the database's and its
    /// own besides (a soft limit of 1,024 is common): raised up to the hard limit, never beyond.
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let wanted = rlim_t(maxConnections) + 256
        guard limit.rlim_cur < wanted else { return }
        limit.rlim_cur = min(wanted, limit.rlim_max)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// The centre's store on `--postgres`; for every command but `hub` itself (which makes them),
    /// refused with a sentence saying what to do when the database holds no hub yet — not the
    /// server's "relation does not exist".
    static func centre(_ c: Context, setUp: Bool = true) throws -> CentreStore {
        guard let conninfo = c.invocation.value("--postgres") else { throw HubCommandError.noPostgres }
        let store = CentreStore(pool: PostgresPool(conninfo: conninfo, size: poolSize))
        if setUp, try !store.isSetUp() { throw HubCommandError.notSetUp }
        return store
    }

    /// `hub --postgres CONNINFO --listen ADDR:PORT [--host NAME]...`: migrates, then serves the
    /// sync protocol over HTTPS until SIGTERM or SIGINT (held pulls are answered first).
    static func run(_ c: Context) throws -> Int32 {
        for sig in [SIGTERM, SIGINT, SIGHUP] { _ = cterminal_catch_stop_signal(sig) }
        raiseDescriptorLimit()
        guard let listen = c.invocation.typed(HubListen.self, "--listen") else { return Steppie.exitUsage }
        let store = try centre(c, setUp: false)
        try store.prepare()
        let hosts = c.invocation.values("--host")
        let identity = try CentreIdentity.loadOrCreate(store.pool, commonName: hosts.first ?? "steppie-hub", dnsNames: hosts,
                                                       ipAddresses: [listen.address], now: c.env.secureClock.now().wall)
        let text = c.text, console = c.console
        let log: @Sendable (CatalogMessage) -> Void = { console.error("steppie hub: " + text($0)) }
        let hub = PostgresSyncHub(store: store, clock: c.env.clock, checkBlob: { SyncBlobCheck.check($0, path: $1) }, log: log)
        hub.startListening()
        let loopback = listen.address == "127.0.0.1" || listen.address == "::1"
        let server = CentreHubServer(address: listen.address, port: listen.port, identity: identity,
                                     hostNames: loopback ? [] : hosts + [listen.address], maxConnections: maxConnections, hub: hub,
                                     pages: try staffPages(c, store, fingerprint: identity.fingerprint).routes())
        do { try server.start() } catch CentreHubServerError.unavailable(let address, let code) {
            throw ServiceError.httpUnavailable(address: address, errno: code)
        }
        let shown = listen.address.contains(":") ? "[\(listen.address)]" : listen.address
        log(CatalogMessage("service.log.hub", ["url": .text("https://\(shown):\(server.port)"), "fingerprint": .text(identity.fingerprint)]))
        while cterminal_stop_signal() == 0 { usleep(50_000) }
        server.stop()
        return 0
    }

    /// The staff pages (docs/centre.md, "The staff pages") on the same listener, in the hub's
    /// time zone; `STEPPIE_HUB_SILENT_SECONDS` (10…86400) changes when a device counts as not
    /// heard from (the browser tests shorten it).
    static func staffPages(_ c: Context, _ store: CentreStore, fingerprint: String) throws -> CentreWeb {
        guard let data = c.env.dataDirectory else { throw CatalogLoadError.directoryMissing(path: "Web") }
        let localizer = Localizer(catalogs: try c.env.catalogs.get(), environment: c.env.variables)
        var config = CentreWeb.Config(store: store, localizer: localizer, timeZone: c.env.timeZone, clock: c.env.clock,
                                      webDirectory: DataDirectory.webDirectory(in: data), fingerprint: fingerprint)
        if let text = c.env.variables["STEPPIE_HUB_SILENT_SECONDS"], let seconds = Int(text), (10...86_400).contains(seconds) {
            config.silentAfterSeconds = seconds
        }
        return CentreWeb(config)
    }

    /// `hub invite --postgres CONNINFO [--child NAME]... [--json]`: a joining code (valid 10
    /// minutes, kept hashed) and the hub's fingerprint, as `sync invite` prints them, so `steppie
    /// sync join` works unchanged. Children by name (the hub's `child` registers).
    static func invite(_ c: Context) throws -> Int32 {
        let store = try centre(c)
        guard let identity = try CentreIdentity.load(store.pool) else { throw HubCommandError.noIdentity }
        let known = try store.children()
        // Without `--child`, every child the hub holds (none yet: the first device brings its own).
        let named = c.invocation.values("--child")
        let chosen = named.isEmpty ? known : try children(named, of: known)
        let digits = Secrets.randomDigits(8)
        let expires = SyncProtocol.milliseconds(c.now) + Int64(SyncInvitation.validMinutes) * 60_000
        let codeHash = PostgresSyncHub.codeHash(digits)
        if let actor = try HubStaffCommands.actor(c, store) {
            try store.invite(codeHash: codeHash, children: chosen.map(\.id), expiresAt: expires, actor: actor)
        } else {
            try store.invite(codeHash: codeHash, children: chosen.map(\.id), expiresAt: expires)
        }
        let code = digits.prefix(4) + "-" + digits.suffix(4)
        if c.json {
            try c.printJSON(SyncCommands.InviteJSON(code: String(code), fingerprint: identity.fingerprint, hubDevice: try store.hubDevice().text,
                                                    children: chosen.map { .init(id: $0.id, name: $0.name) },
                                                    expiresAt: Timestamp.format(Date(timeIntervalSince1970: Double(expires) / 1000),
                                                                                in: c.env.timeZone)))
            return 0
        }
        c.console.print(c.text("cli.sync.invite.code", ["code": String(code), "minutes": String(SyncInvitation.validMinutes)]))
        c.console.print(c.text("cli.sync.invite.fingerprint", ["fingerprint": identity.fingerprint]))
        c.console.print(c.text("cli.hub.invite.children", ["children": chosen.isEmpty ? "-" : chosen.map(\.name).joined(separator: ", ")]))
        return 0
    }

    /// `hub devices --postgres CONNINFO [--json]`: the joined devices, their children, last contact and clock offset.
    static func devices(_ c: Context) throws -> Int32 {
        let store = try centre(c)
        let devices = try store.devices()
        if c.json {
            try c.printJSON(devices.map { SyncCommands.StatusJSON.Device(
                id: $0.id.text, name: $0.name, children: $0.children, acknowledged: $0.acknowledged, cursor: $0.cursor,
                lastContact: $0.lastContact.map { SyncCommands.stampText($0, c) }, clockOffsetMilliseconds: $0.lastOffsetMilliseconds) })
            return 0
        }
        c.console.print(c.text("cli.hub.devices.count", ["count": String(devices.count)]))
        for d in devices {
            c.console.print(c.text("cli.sync.status.hubDevice", [
                "name": d.name, "device": d.id.text, "children": String(d.children.count),
                "contact": d.lastContact.map { SyncCommands.stampText($0, c) } ?? "-",
                "offset": d.lastOffsetMilliseconds.map { String(format: "%+.1f", Double($0) / 1000) } ?? "-"]))
        }
        return 0
    }

    /// The one device named by its name or id.
    static func oneDevice(_ store: CentreStore, _ selector: String) throws -> CentreStore.Device {
        let matching = try store.devices().filter { $0.id.text == selector.lowercased() || $0.name == selector }
        guard matching.count == 1, let device = matching.first else {
            throw matching.isEmpty ? SyncCommandError.noSuchDevice(selector) : SyncCommandError.deviceAmbiguous(selector)
        }
        return device
    }

    /// The children named (by name or id) among those the hub holds.
    static func children(_ names: [String], of known: [(id: String, name: String)]) throws -> [(id: String, name: String)] {
        try names.map { name in
            let matching = known.filter { $0.id == name.lowercased() || $0.name == name }
            guard matching.count == 1, let child = matching.first else { throw HubCommandError.noSuchChild(name) }
            return child
        }
    }

    /// `hub grant DEVICE (--child NAME... | --all-children | --group GROUP | --no-group) --postgres
    /// CONNINFO [--as NAME --password-stdin]`: the children the device gets from now on as its own
    /// (every child the hub holds now with `--all-children`), or the group it is given (`--group`
    /// needs `--as` an editor or admin); its next pull is a fresh copy of its own children and its
    /// group's, and it drops whatever it holds of any other.
    static func grant(_ c: Context) throws -> Int32 {
        let store = try centre(c)
        guard let selector = c.invocation.argument("DEVICE") else { return Steppie.exitUsage }
        let named = c.invocation.values("--child"), all = c.invocation.flag("--all-children")
        let group = c.invocation.value("--group"), noGroup = c.invocation.flag("--no-group")
        guard [all, !named.isEmpty, group != nil, noGroup].filter({ $0 }).count == 1 else { throw HubCommandError.grantWhich }
        let device = try oneDevice(store, selector)
        if group != nil || noGroup {
            try store.giveGroup(device: device.id, group: group, actor: try HubStaffCommands.requiredActor(c, store))
            c.console.print(c.text("cli.hub.grantedGroup", ["name": device.name, "group": group ?? "-"]))
            return 0
        }
        let known = try store.children()
        let chosen = all ? known : try children(named, of: known)
        if let actor = try HubStaffCommands.actor(c, store) {
            try store.grant(device: device.id, children: chosen.map(\.id), actor: actor)
        } else {
            try store.grant(device: device.id, children: chosen.map(\.id))
        }
        c.console.print(c.text("cli.hub.granted", ["name": device.name,
                                                    "children": chosen.isEmpty ? "-" : chosen.map(\.name).sorted().joined(separator: ", ")]))
        return 0
    }

    /// `hub remove DEVICE --postgres CONNINFO`: the device (by name or id) is removed; its
    /// credential is refused at once by every hub process.
    static func remove(_ c: Context) throws -> Int32 {
        let store = try centre(c)
        guard let selector = c.invocation.argument("DEVICE") else { return Steppie.exitUsage }
        let device = try oneDevice(store, selector)
        if let actor = try HubStaffCommands.actor(c, store) {
            try store.remove(device: device.id, actor: actor)
        } else {
            try store.remove(device: device.id)
        }
        c.console.print(c.text("cli.sync.removed", ["name": device.name, "device": device.id.text]))
        return 0
    }

    /// `hub digest --postgres CONNINFO [--json]`: one SHA-256 of every register and event the hub
    /// holds, hashed as `sync digest` hashes a device's.
    static func digest(_ c: Context) throws -> Int32 {
        let store = try centre(c)
        var hasher = SHA256()
        let counts = try store.canonicalState { hasher.update(SyncCanonical.bytes($0)) }
        let hex = hasher.finalHex()
        if c.json {
            try c.printJSON(SyncCommands.DigestJSON(digest: hex, registers: counts.registers, events: counts.events))
        } else {
            c.console.print(c.text("cli.sync.digest.line", ["digest": hex, "registers": String(counts.registers), "events": String(counts.events)]))
        }
        return 0
    }
}

/// What the hub's commands refuse.
enum HubCommandError: Error, Equatable, CatalogDescribable {
    /// No `--postgres` connection string.
    case noPostgres
    /// `hub invite` before any `steppie hub` ran on the database (no identity yet).
    case noIdentity
    /// A command other than `hub` on a database no `steppie hub` ever ran on (no tables yet).
    case notSetUp
    /// `hub invite --child`: no child (or several) of that name on the hub.
    case noSuchChild(String)
    /// `hub grant` without `--child` or `--all-children`, or with both.
    case grantWhich

    var catalogMessage: CatalogMessage {
        switch self {
        case .noPostgres: CatalogMessage("hub.error.noPostgres")
        case .noIdentity: CatalogMessage("hub.error.noIdentity")
        case .notSetUp: CatalogMessage("hub.error.notSetUp")
        case .noSuchChild(let name): CatalogMessage("hub.error.noSuchChild", ["child": .text(Validator.printable(name))])
        case .grantWhich: CatalogMessage("hub.error.grantWhich")
        }
    }
}
