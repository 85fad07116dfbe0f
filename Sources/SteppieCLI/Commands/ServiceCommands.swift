import CTerminal
import Foundation
import SteppieSync
import SteppieSyncAgent
import SteppieBackup
import SteppieFeedback
import SteppieCore
import SteppieGuardianWeb
import SteppieInput
import SteppieService
import SteppieStore
import SteppieLocalization
import SteppieTLS

/// `steppie serve`, `steppie service status`, and the client side of `say`, `complete`, `undo`
/// when a service runs on the same database (docs/service.md).
enum ServiceCommands {
    /// Runs the service in the foreground until SIGTERM, SIGINT or SIGHUP.
    static func serve(_ c: Context) throws -> Int32 {
        // First of all: a SIGTERM from now on ends the loop and cleans up, whenever it comes. (A
        // dispatch source registers asynchronously, and a SIGTERM in between was ignored: a
        // service stopped just after it started kept running.)
        for sig in [SIGTERM, SIGINT, SIGHUP] { _ = cterminal_catch_stop_signal(sig) }
        // Before the database is opened or anything is said: a library that cannot be loaded must
        // stop the service now, by name, not end it when first used (a guardian's backup download).
        do { try LibraryPreflight.run() } catch { throw ServiceError.library(error) }
        let store = try c.store()
        let database = absolute(store.path)
        let socket = ServicePaths.socket(environment: c.env.variables)
        let text = c.text
        let console = c.console
        let log: (ServiceLogEntry) -> Void = { console.error("steppie serve: " + ErrorText.serviceLog($0, text)) }
        let (engine, note) = try c.feedbackEngine(defaultWav: c.defaultWavName("serve"), resilient: true,
                                                  report: { log(.fault(child: "-", reason: $0)) })
        if let note { c.console.error(c.text("cli.feedback.outputNote", ["note": ErrorText.notice(note, c.text)])) }
        let locales = Set((try store.children(includeArchived: false)).compactMap(\.profile.locale) + [c.text.locale])
        do { try engine.warmUp(locales: locales.sorted()) } catch { log(.fault(child: "-", reason: text(.log(error)))) }
        // Every value was parsed and checked with the command line (exit 64 before anything above).
        let buttons = try c.invocation.allTyped(ButtonSpec.self, "--button").map { spec in
            try ButtonDevice(spec: spec, debounce: spec.effectiveDebounce(childSetting: Debouncer.defaultWindow), now: ContinuousClock.now)
        }
        let http = try httpConfig(c)
        let lan = try guardianLANConfig(c, database: database)
        let host = ServiceHost(store: store, databasePath: database, engine: engine, clock: c.env.clock, socketPath: socket,
                               speechLocale: c.text.locale, buttons: buttons, buttonChild: c.invocation.value("--child"),
                               http: http, guardianLAN: lan, render: { text($0) }, log: log)
        try host.start()
        let sync = try startSync(c, store: store, database: database, log: { console.error("steppie serve: " + text($0)) })
        host.run(until: { cterminal_stop_signal() != 0 })
        sync.hub?.stop()
        sync.agent?.stop()
        return 0
    }

    /// `--hub ADDR:PORT`: this service becomes (or stays) the hub of a household and answers the
    /// sync protocol over HTTPS with its guardian pages' certificate. A joined device syncs in
    /// the background (docs/sync.md).
    static func startSync(_ c: Context, store: Store, database: String, log: @escaping @Sendable (CatalogMessage) -> Void)
        throws -> (hub: SyncHubServer?, agent: SyncAgent?) {
        if let listen = c.invocation.typed(HubListen.self, "--hub") {
            if try store.syncState() == nil { try store.becomeSyncHub(device: DeviceID(UUID()), at: c.now) }
            guard try store.syncState()?.role == .hub else { throw SyncCommandError.joinedNotHub }
            let names = LANNames.current(bindAddress: listen.address)
            let (identity, _) = try TLSIdentityStore(databasePath: database).loadOrCreate(
                commonName: names.hostNames.first ?? names.display, dnsNames: names.hostNames,
                ipAddresses: names.certificateAddresses, now: c.env.secureClock.now().wall)
            let loopback = listen.address == "127.0.0.1" || listen.address == "::1"
            let hub = SQLiteSyncHub(databasePath: database, timeZone: c.env.timeZone, clock: c.env.clock,
                                    blobs: SyncBlobFiles(databasePath: database) { SyncBlobCheck.check($0, path: $1) }, log: log)
            let server = SyncHubServer(address: listen.address, port: listen.port, identity: identity,
                                       hostNames: loopback ? [] : names.hostNames + names.addresses, hub: hub)
            do { try server.start() } catch SyncHubServerError.unavailable(let address, let code) {
                throw ServiceError.httpUnavailable(address: address, errno: code)
            }
            let shown = listen.address.contains(":") ? "[\(listen.address)]" : listen.address
            log(CatalogMessage("service.log.hub", ["url": .text("https://\(shown):\(server.port)"), "fingerprint": .text(identity.fingerprint)]))
            return (server, nil)
        }
        // A device syncs in the background once joined, also when it joins while this runs.
        guard try store.syncState()?.role != .hub else { return (nil, nil) }
        let agent = SyncAgent(databasePath: database, timeZone: c.env.timeZone, clock: c.env.clock, log: log)
        agent.start()
        return (nil, agent)
    }

    /// `--http ADDR:PORT` (default 127.0.0.1:8470; `none` turns the pages off), parsed by the
    /// command line as a `LoopbackAddress`.
    static func httpConfig(_ c: Context) throws -> ServiceHost.HTTPConfig? {
        let chosen = c.invocation.typed(LoopbackAddress.self, "--http") ?? .default
        guard let address = chosen.address else { return nil }
        guard let data = c.env.dataDirectory else { throw CatalogLoadError.directoryMissing(path: "Web") }
        let catalogs = try c.env.catalogs.get()
        let localizer = Localizer(catalogs: catalogs, environment: c.env.variables)
        let (guardian, photos) = try guardianConfig(c)
        return ServiceHost.HTTPConfig(address: address, port: chosen.port, webDirectory: DataDirectory.webDirectory(in: data),
                                      photosDirectory: photos, guardian: guardian) { key, args, locale in
            localizer.text(key, locale: locale, args: args)
        }
    }

    /// The guardian pages' settings (shared by the loopback and the home-network servers).
    static func guardianConfig(_ c: Context) throws -> (GuardianWeb.Config, photos: URL) {
        let catalogs = try c.env.catalogs.get()
        let localizer = Localizer(catalogs: catalogs, environment: c.env.variables)
        let database = c.env.databasePath(option: c.invocation.value("--db"))
        let photos = BackupCreator.assetsDirectory(forDatabase: database)
        var guardian = GuardianWeb.Config(databasePath: database, timeZone: c.env.timeZone, localizer: localizer,
                                          secureClock: c.env.secureClock, clock: c.env.clock, defaultLocale: c.text.locale,
                                          photosDirectory: photos) { _, _, _ in "not started" }
        // The kiosk's way back to the child's page after idle minutes; the browser tests shorten it
        // (`STEPPIE_KIOSK_IDLE_SECONDS`, 1…3600) so they need not wait three minutes.
        if let text = c.env.variables["STEPPIE_KIOSK_IDLE_SECONDS"], let seconds = Int(text), (1...3600).contains(seconds) {
            guardian.kioskIdleSeconds = seconds
        }
        // Recordings from the routine page and in backups are decoded by libsndfile, as the CLI's.
        guardian.decodeAudio = SoundFile.decodeRecording
        // The service speaks anyway: its espeak-ng knows which variants are installed.
        guardian.voiceVariants = (try? SpeechSynthesizer.shared.installedVariants()) ?? []
        return (guardian, photos)
    }

    /// `--guardian-lan [ADDR[:PORT]]` (off unless given; alone: 0.0.0.0:8471): the guardian pages
    /// over HTTPS on the home network, with the certificate in `<database folder>/tls` (made on
    /// first use, reused after).
    static func guardianLANConfig(_ c: Context, database: String) throws -> ServiceHost.GuardianLANConfig? {
        guard c.invocation.flag("--guardian-lan") else { return nil }
        let chosen = c.invocation.typed(LANAddress.self, "--guardian-lan") ?? .default
        guard let data = c.env.dataDirectory else { throw CatalogLoadError.directoryMissing(path: "Web") }
        let names = LANNames.current(bindAddress: chosen.address)
        let store = TLSIdentityStore(databasePath: database)
        let commonName = names.hostNames.first ?? names.display
        let (identity, created) = try store.loadOrCreate(commonName: commonName, dnsNames: names.hostNames,
                                                         ipAddresses: names.certificateAddresses, now: c.env.secureClock.now().wall)
        let (guardian, _) = try guardianConfig(c)
        return ServiceHost.GuardianLANConfig(address: chosen.address, port: chosen.port, identity: identity, certificateCreated: created,
                                             names: names, webDirectory: DataDirectory.webDirectory(in: data), guardian: guardian)
    }

    /// Exit 0 with the service's pid, uptime, children and output when one answers; 1 when none does.
    static func status(_ c: Context) throws -> Int32 {
        let socket = ServicePaths.socket(environment: c.env.variables)
        guard let client = try ServiceClient.connectChecked(path: socket),
              let reply = try? client.request(ServiceRequest(.status), timeout: 5), let status = reply.status else {
            if c.json { try c.printJSON(NotRunning(running: false, socket: socket)) } else {
                c.console.error(c.text("cli.service.none", ["socket": socket]))
            }
            return Steppie.exitFailure
        }
        if c.json {
            try c.printJSON(status)
            return 0
        }
        c.console.print(c.text("cli.service.running", ["pid": String(status.pid), "seconds": String(Int(status.uptimeSeconds)),
                                                       "socket": status.socket, "database": status.database, "output": status.output]))
        for child in status.children {
            c.console.print(c.text("cli.service.child", ["child": child.name, "completed": String(child.completed),
                                                         "total": String(child.total), "routineTitle": child.focusTitle ?? "-"]))
        }
        if let lan = status.guardianLAN {
            c.console.print(c.text("cli.service.guardianLAN", ["url": lan.url, "fingerprint": lan.fingerprint]))
        }
        for button in status.buttons ?? [] {
            c.console.print(c.text("cli.service.button", ["path": button.path, "source": c.text("cli.service.buttonSource.\(button.source)"),
                                                          "state": c.text("cli.service.state.\(button.state)")]))
            if let other = button.sameDeviceAs { c.console.print(c.text("cli.service.buttonSameDevice", ["other": other])) }
        }
        if let haptics = status.haptics {
            func output(_ o: HapticOutputStatus?) -> String {
                o.map { c.text("cli.service.hapticOutput", ["path": $0.path, "state": c.text("cli.service.state.\($0.state)")]) }
                    ?? c.text("cli.haptics.none")
            }
            c.console.print(c.text("cli.service.haptics", ["audioPulse": c.text(haptics.audioPulse ? "cli.haptics.on" : "cli.haptics.off"),
                                                           "rumble": output(haptics.rumble), "log": output(haptics.log)]))
        }
        return 0
    }

    // MARK: Commands as clients

    /// The service on this command's database, unless `--no-service` or none answers. Throws when
    /// what answers is not this user's (`ServiceTrustRefusal`): the command then does nothing rather
    /// than believe it, or act beside the real service it may be hiding.
    static func client(_ c: Context) throws -> ServiceClient? {
        guard !c.invocation.flag("--no-service") else { return nil }
        return try ServiceClient.connectChecked(path: ServicePaths.socket(environment: c.env.variables))
    }

    /// `say` through the service: it speaks on the device's open stream. Nil when the service
    /// cannot take it (then the command runs in-process).
    static func say(_ c: Context, text: String, rate: Double, volume: Double) throws -> Int32? {
        guard let client = try client(c) else { return nil }
        let reply = try client.request(ServiceRequest(.say(text: text, rate: rate, volume: volume, locale: c.text.locale)))
        if let error = reply.error { throw error }
        return 0
    }

    /// `complete`/`undo` through the service's runtime for the child, so the cue is heard and
    /// every screen on that child shows it. Nil when no service runs on this database.
    static func press(_ c: Context, _ action: PressAction) throws -> Int32? {
        guard let client = try client(c) else { return nil }
        let database = absolute(c.env.databasePath(option: c.invocation.value("--db")))
        let reply = try client.request(ServiceRequest(database: database, .press(action, child: c.invocation.value("--child"),
                                                                                 locale: c.text.locale)))
        if reply.error?.code == .otherDatabase { return nil }
        if let error = reply.error { throw error }
        guard let press = reply.press else { throw ServiceFailure(code: .failed, message: "no result") }
        guard press.saved else {
            switch press.notice {
            case .undoRefused? where action == .undo, .unchanged? where action == .undo: throw StoreError.nothingToUndo
            case .allDone?: throw StoreError.allDone
            default: throw ServiceFailure(code: .failed, message: press.notice?.rawValue ?? "not saved")
            }
        }
        if c.json {
            try c.printJSON(ServicePress(service: true, routineId: press.focus,
                                         progress: .init(completed: press.completed, total: press.total)))
        } else {
            c.console.print(c.text(action == .undo ? "cli.undo.done" : "cli.complete.done",
                                   ["routineTitle": press.focusTitle ?? "", "completed": String(press.completed), "total": String(press.total)]))
        }
        return 0
    }

    /// `feedback preview` through the service: heard from the device's open stream. Nil when no
    /// service runs on this database.
    static func preview(_ c: Context, event: String, intensity: String?) throws -> Int32? {
        guard let client = try client(c) else { return nil }
        let database = absolute(c.env.databasePath(option: c.invocation.value("--db")))
        let reply = try client.request(ServiceRequest(database: database, .preview(child: c.invocation.value("--child"), event: event,
                                                                                   intensity: intensity, locale: c.text.locale)))
        if reply.error?.code == .otherDatabase || reply.error?.code == .noActiveSet { return nil }
        if let error = reply.error { throw error }
        return 0
    }

    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL.path
    }
}

extension ServiceCommands {
    /// `service status --json` when no service answers.
    struct NotRunning: Encodable {
        let running: Bool
        let socket: String
    }

    /// `complete --json` / `undo --json` answered by the service.
    struct ServicePress: Encodable {
        let service: Bool
        @NullIfAbsent var routineId: String?
        let progress: JSONDocuments.Progress
    }
}
