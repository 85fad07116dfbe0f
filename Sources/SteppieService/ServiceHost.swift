import CSocket
import Foundation
import SteppieBackup
import SteppieChildMode
import SteppieCore
import SteppieFeedback
import SteppieFiles
import SteppieGuardianWeb
import SteppieInput
import SteppieStore
import SteppieTLS

/// What the service tells its log (the journal under systemd); the command line says it from
/// the catalogs.
public enum ServiceLogEntry: Equatable, Sendable {
    case listening(socket: String, children: [String])
    case childAdded(String)
    case childRemoved(String)
    /// A weekly schedule made another set active.
    case setSwitched(child: String)
    /// The child's page is served at this address.
    case kioskPage(child: String, url: String)
    /// The guardian pages are served on the home network at this address, with this certificate.
    case guardianLAN(url: String, fingerprint: String, certificateCreated: Bool)
    /// A big button was lost, came back, or says something (catalog key and arguments).
    case button(key: String, arguments: [String: String])
    /// A button stored for the device is read from now on (at start, or added by `buttons add`).
    case buttonInUse(path: String)
    /// A stored button was removed (`buttons remove`): its reader is closed.
    case buttonDropped(path: String)
    /// The haptic stand-ins in use (at start, and whenever `haptics set` changed them).
    case haptics(audioPulse: Bool, rumble: String?, log: String?)
    /// A haptic output the device's setting names could not be opened; feedback goes on without it.
    case hapticOutputFailed(FeedbackError)
    /// The force-feedback device in use was unplugged; it is opened again when it is back.
    case rumbleUnplugged(path: String)
    case fault(child: String, reason: String)
    /// A tap on the child's page was not saved (`done`, `undo`, `next`); the page says so.
    case tapNotSaved(child: String, action: String)
    case peerRefused(uid: UInt32)
    /// A restore killed before this start was finished (it had committed) or undone (it had not),
    /// so the photo folder matches the database again.
    case restoreRepaired(finished: Int, undone: Int)
    case stopping
}

/// `steppie serve`: one long-running engine that owns the database, the feedback engine and one
/// child-mode runtime per child with an active set, with front ends attached through a Unix
/// socket (newline-delimited JSON, docs/service.md).
///
/// Everything runs on the thread that calls `run` (or `step`, in tests): the store and the
/// runtimes are not `Sendable`, and one loop needs no locks. `poll(2)` waits for the socket at
/// most 100 ms, so timers, reminders and other processes' edits are seen within that.
public final class ServiceHost {
    public let databasePath: String
    public let socketPath: String
    let store: Store
    let engine: FeedbackEngine
    let clock: any WallClock
    /// Seconds on the loop's own clock (rescans, stalled clients, session sweeps, the watchdog):
    /// monotonic in the service, the manual clock in tests (`ServiceHostClockTests`).
    let loopClock: () -> Double
    let speechLocale: String
    /// Says a catalog message in the service's language (the language of its log).
    let render: (CatalogMessage) -> String
    let log: (ServiceLogEntry) -> Void
    let notifier = SystemdNotifier()
    let started = Monotonic.now()

    var lock: InstanceLock?
    var listenFD: Int32 = -1
    var clients: [ClientConnection] = []
    var runtimes: [UUID: ChildModeRuntime] = [:]
    var names: [UUID: String] = [:]
    var lastVersion = -1
    var lastScan = -Double.infinity
    var lastWatchdog = 0.0
    var lastSessionSweep = 0.0
    /// The guardian pages' large uploads, one ledger for the kiosk's and the home network's pages.
    let uploads = UploadLedger()
    /// When each child's schedule was last applied (the wall clock of the routines).
    var scheduleChecked: [UUID: Date] = [:]
    /// Big buttons in use: the command line's for this run, then those stored for the device.
    var buttons: [ServiceButton]
    /// The stored rows the buttons were last opened for (nil before the first load).
    var storedButtons: [DeviceButton]?
    /// The child of buttons that name none (`serve --child`; nil: the only child with an active set).
    let buttonChild: String?
    /// The haptic outputs of the device's setting, as opened (nil before the first load).
    var haptics: DeviceHapticOutputs?
    var lastRumbleTry = 0.0
    /// The kiosk pages (nil: `--http none`).
    let httpConfig: HTTPConfig?
    var http: PageServer?
    /// The guardian pages on the home network (nil: off, the default).
    public let guardianLAN: GuardianLANConfig?
    var lanServer: PageServer?
    let bridge = ServiceBridge()
    var board: StateBoard
    var published: [UUID: KioskScreen] = [:]
    var screenVersion = 0
    /// Each child's picture on the picker (chosen or default), read on every rescan.
    var childPictures: [UUID: IconRef] = [:]
    /// Whether the child's page offers "switch child" (the guardian pages' device setting).
    var siblingsMaySwitch = false

    /// Where the kiosk pages are served and what they are made of.
    public struct HTTPConfig: Sendable {
        public var address: String
        public var port: UInt16
        public var webDirectory: URL
        /// Routine photos; nil: photos are shown as the star icon.
        public var photosDirectory: URL?
        /// Catalog text in a locale (the pages' words).
        public var text: @Sendable (String, [String: String], String) -> String
        /// The guardian pages (nil: not served). Their `play` is set by the host.
        public var guardian: GuardianWeb.Config?
        public init(address: String, port: UInt16, webDirectory: URL, photosDirectory: URL? = nil, guardian: GuardianWeb.Config? = nil,
                    text: @escaping @Sendable (String, [String: String], String) -> String) {
            self.address = address; self.port = port; self.webDirectory = webDirectory; self.photosDirectory = photosDirectory
            self.guardian = guardian
            self.text = text
        }
    }
    /// The guardian pages on the home network (`steppie serve --guardian-lan`): HTTPS only with the
    /// device's own certificate, never the child's page or actions (docs/guardian-web.md).
    public struct GuardianLANConfig: Sendable {
        /// The address to listen on (`0.0.0.0`: every interface) and the port (0: any free one).
        public var address: String
        public var port: UInt16
        /// The certificate and key the server presents; `identity.fingerprint` is what the guardian
        /// compares on first connect (shown by `serve`, `service status` and the kiosk's guardian screen).
        public var identity: TLSIdentity
        /// True when the certificate was made at this start (said in the log).
        public var certificateCreated: Bool
        /// The addresses and host names the server answers to (`Host`) and shows.
        public var names: LANNames
        public var webDirectory: URL
        /// The guardian pages' settings; `secureCookies` is forced on and `play` set by the host.
        public var guardian: GuardianWeb.Config
        public init(address: String, port: UInt16, identity: TLSIdentity, certificateCreated: Bool = false, names: LANNames,
                    webDirectory: URL, guardian: GuardianWeb.Config) {
            self.address = address; self.port = port; self.identity = identity; self.certificateCreated = certificateCreated
            self.names = names; self.webDirectory = webDirectory; self.guardian = guardian
        }

        /// The certificate's SHA-256 fingerprint (`AB:CD:…`), as browsers show it.
        public var fingerprint: String { identity.fingerprint }
    }

    /// Most clients at once; more are told `busy` and closed.
    public static let maxClients = 64

    public init(store: Store, databasePath: String, engine: FeedbackEngine, clock: any WallClock, socketPath: String,
                speechLocale: String, buttons: [ButtonDevice] = [], buttonChild: String? = nil, http: HTTPConfig? = nil,
                guardianLAN: GuardianLANConfig? = nil, loopClock: @escaping () -> Double = Monotonic.seconds,
                render: @escaping (CatalogMessage) -> String, log: @escaping (ServiceLogEntry) -> Void) {
        self.loopClock = loopClock
        self.httpConfig = http
        self.guardianLAN = guardianLAN
        self.board = StateBoard(clock: clock)
        self.buttons = buttons.map { ServiceButton(stored: nil, device: $0, childId: nil) }
        self.buttonChild = buttonChild
        self.store = store
        self.databasePath = databasePath
        self.engine = engine
        self.clock = clock
        self.socketPath = socketPath
        self.speechLocale = speechLocale
        self.render = render
        self.log = log
    }

    deinit { shutdown() }

    /// `error` for the log, in the service's language: its catalog message with the detail only
    /// the log keeps (SQLite's own words), never Swift's description of the value.
    func describe(_ error: any Error) -> String { render(.log(error)) }

    /// A request that failed on the device: the fault goes to the log whole, the reply says it in
    /// the service's language, and only in words a page may show (no path, code or library text:
    /// the reply's reason is what the guardian pages say, `web.feedback.playFailed`).
    func failed(_ id: Int?, child: String, _ error: any Error) -> ServiceReply {
        log(.fault(child: child, reason: describe(error)))
        let message = CatalogMessage(describing: error)
        return .failure(id, .failed, render(message.revealsDetail ? CatalogMessage("service.reply.failed") : message))
    }

    // MARK: Start and stop

    /// Checks the socket's folder (a real folder of this user, made 0700), takes the database's
    /// instance lock, opens the socket (0600), starts a runtime per child and tells systemd it is ready.
    public func start() throws {
        // The folder first: a link or another user's folder is refused before anything is made.
        do { try SocketFolder.prepare(OwnerOnly.parent(of: socketPath)) } catch { throw ServiceError.socketFolder(error) }
        lock = try InstanceLock(database: databasePath, socket: socketPath)
        if OwnerOnly.kind(of: socketPath) != nil {
            let probe = csocket_connect(socketPath)
            if probe >= 0 {
                close(probe)
                throw ServiceError.socketInUse(path: socketPath)
            }
            unlink(socketPath)   // a stale socket of a service that died
        }
        listenFD = csocket_listen(socketPath, 64)
        guard listenFD >= 0 else { throw ServiceError.system(operation: "listen", errno: errno) }
        // A restore killed mid-way (the pages' or another process's) left photos that may not match
        // the database: finish or undo it before anything reads them.
        let assets = httpConfig?.photosDirectory ?? BackupCreator.assetsDirectory(forDatabase: databasePath)
        let repaired = Restorer.recover(store: store, assetsDirectory: assets, at: clock.now())
        if repaired.finished + repaired.undone > 0 { log(.restoreRepaired(finished: repaired.finished, undone: repaired.undone)) }
        rescan(now: loopClock())
        publishScreens()
        reloadButtons()
        reloadHaptics(now: loopClock())
        let box = HostBox(self)
        if let lan = guardianLAN {
            // Its own guardian pages (own sessions, `Secure` cookies): a session opened on the
            // kiosk's loopback pages is never valid on the network, nor the other way round.
            var g = lan.guardian
            g.secureCookies = true
            let server = PageServer.guardianLAN(address: lan.address, port: lan.port, identity: lan.identity,
                                                hostNames: lan.names.hostNames + lan.names.addresses, webDirectory: lan.webDirectory,
                                                guardian: try guardianPages(g, box: box))
            try server.start()
            lanServer = server
        }
        if let config = httpConfig {
            var guardian: GuardianWeb?
            if var g = config.guardian {
                // The kiosk's guardian screen shows where the phone finds the pages and the
                // certificate's fingerprint to compare on the first visit.
                if let lan = guardianLAN, let url = guardianLANURL { g.lan = (url, lan.fingerprint) }
                guardian = try guardianPages(g, box: box)
            }
            let server = PageServer.kiosk(address: config.address, port: config.port, webDirectory: config.webDirectory,
                                          photosDirectory: config.photosDirectory, board: board,
                                          guardian: guardian) { [bridge] child, op, version in
                bridge.run { box.host?.kioskPress(child: child, op: op, version: version) ?? (503, "{\"error\":\"stopping\"}") }
            }
            try server.start()
            http = server
        }
        log(.listening(socket: socketPath, children: runtimes.keys.compactMap { names[$0] }.sorted()))
        if let http {
            for (id, runtime) in runtimes.sorted(by: { $0.value.child.displayName < $1.value.child.displayName }) {
                log(.kioskPage(child: runtime.child.displayName, url: http.pageURL(child: id.lowercased)))
            }
        }
        if let lan = guardianLAN, let lanURL = guardianLANURL {
            log(.guardianLAN(url: lanURL, fingerprint: lan.fingerprint, certificateCreated: lan.certificateCreated))
        }
        notifier.ready(status: "listening on \(socketPath)")
    }

    /// The guardian pages with "play on the device" going through the service's thread.
    private func guardianPages(_ config: GuardianWeb.Config, box: HostBox) throws -> GuardianWeb {
        var g = config
        g.uploads = uploads   // one ledger for the device, whichever pages an upload comes through
        g.play = { [bridge] child, event, profile in
            let result = bridge.run { box.host?.playForGuardian(child: child, event: event, profile: profile) ?? (503, "stopping") }
            return result.status == 200 ? nil : result.body
        }
        g.say = { [bridge] text, locale in
            let result = bridge.run {
                guard let host = box.host else { return (503, "stopping") }
                let reply = host.say(id: nil, text: text, rate: nil, volume: nil, locale: locale)
                return reply.ok ? (200, "") : (409, reply.error?.message ?? "failed")
            }
            return result.status == 200 ? nil : result.body
        }
        do { return try GuardianWeb(config: g) } catch { throw ServiceError.guardianPages(reason: CatalogMessage(describing: error)) }
    }

    /// The guardian pages' address on the home network (nil: not served), with the port bound.
    public var guardianLANURL: String? {
        guard let lan = guardianLAN, let server = lanServer else { return nil }
        let wildcard = lan.address == "0.0.0.0" || lan.address == "::"
        return server.guardianURL(host: wildcard ? lan.names.display : lan.address)
    }

    /// Runs until `stop` returns true (a signal), then shuts down.
    public func run(until stop: () -> Bool) {
        while !stop() { step(timeoutMilliseconds: 100) }
        log(.stopping)
        notifier.stopping()
        shutdown()
    }

    /// Closes every connection and the socket (its file removed) and flushes the sound output.
    public func shutdown() {
        lanServer?.stop()
        lanServer = nil
        http?.stop()
        http = nil
        clients.removeAll()
        if listenFD >= 0 {
            close(listenFD)
            listenFD = -1
            unlink(socketPath)
        }
        runtimes.removeAll()
        buttons.removeAll()
        try? engine.output.close()
        lock = nil
    }

    // MARK: The loop

    /// One turn: waits up to `timeoutMilliseconds` for the socket, serves what arrived, then
    /// lets every runtime fire its timers and notice other processes' edits.
    public func step(timeoutMilliseconds: Int32) {
        var fds = [pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)]
        for c in clients { fds.append(pollfd(fd: c.fd, events: Int16(POLLIN) | (c.wantsWrite ? Int16(POLLOUT) : 0), revents: 0)) }
        for b in buttons { fds.append(pollfd(fd: b.device.fileDescriptor ?? -1, events: Int16(POLLIN), revents: 0)) }
        fds.append(pollfd(fd: bridge.wakeFD, events: Int16(POLLIN), revents: 0))
        _ = poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
        let now = loopClock()
        bridge.drain()
        pressButtons()
        if fds[0].revents & Int16(POLLIN) != 0 { acceptAll() }
        for (i, c) in clients.enumerated() where i + 1 < fds.count && fds[i + 1].fd == c.fd {
            let revents = fds[i + 1].revents
            if revents & Int16(POLLOUT) != 0 { c.flush() }
            if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let (lines, tooLong) = c.readLines(now: now)
                for line in lines where !c.finished { handle(line, from: c) }
                if tooLong {
                    c.send(Self.encode(.failure(nil, .lineTooLong, "a request line is longer than \(ClientConnection.maxLineBytes) bytes")))
                }
            }
            if c.stalled(now: now) { c.finish() }
        }
        clients.removeAll { $0.finished }
        tick(now: now)
        publishScreens()
    }

    /// Presses from the big buttons go to their child's runtime, like keys on a screen; a button
    /// unplugged is tried again every 500 ms.
    func pressButtons() {
        guard !buttons.isEmpty else { return }
        let instant = ContinuousClock.now
        let fallback: ChildModeRuntime? = {
            if case .success(let r) = runtime(for: buttonChild) { return r }
            return nil
        }()
        var reading: [DeviceIdentity: String] = [:]
        for button in buttons {
            let device = button.device
            device.reopenIfDue(now: instant)
            // One device under two paths (a by-id link and its eventN node) is read by both
            // descriptors: the first button in order counts its presses, the other only drains them.
            let first = device.identity.flatMap { reading[$0] }
            if let identity = device.identity, first == nil { reading[identity] = device.spec.path }
            if first != button.sameDeviceAs {
                button.sameDeviceAs = first
                if let first { log(.button(key: ServiceButton.sameDeviceKey, arguments: ["path": device.spec.path, "other": first])) }
            }
            // A button stored for a child presses for that child only (nothing while it has no routine).
            let target = button.childId.map { runtimes[$0] } ?? fallback
            for press in device.read(now: instant) {
                guard let target, first == nil else { continue }
                switch press.action {
                case .done: target.done()
                case .undo: target.undo()
                case .next: target.next()
                }
            }
            for notice in device.takeNotices() { log(.button(key: notice.catalogKey, arguments: notice.arguments)) }
        }
    }

    /// Timers, reminders, schedules, other processes' edits, the watchdog.
    func tick(now: Double) {
        for runtime in runtimes.values { runtime.poll() }
        let version = (try? store.dataVersion()) ?? lastVersion
        if version != lastVersion || now - lastScan >= 1 {
            rescan(now: now)
            reloadButtons()
            reloadHaptics(now: now)
        }
        lastVersion = version
        if now - lastSessionSweep >= 5 {
            // Idle guardian sessions end on time, and their waiting archives with them.
            lastSessionSweep = now
            http?.guardian?.sweepSessions()
            lanServer?.guardian?.sweepSessions()
        }
        if let interval = notifier.watchdogInterval, now - lastWatchdog >= interval {
            lastWatchdog = now
            notifier.watchdog()
        }
    }

    func acceptAll() {
        while true {
            let fd = csocket_accept(listenFD)
            if fd < 0 { return }
            var uid: uid_t = 0, pid: pid_t = 0
            // Only the same user (or root) may drive the service; the socket's mode says so too.
            guard csocket_peer(fd, &uid, &pid) == 0, uid == getuid() || uid == 0 else {
                log(.peerRefused(uid: UInt32(uid)))
                close(fd)
                continue
            }
            let client = ClientConnection(fd: fd, peerUID: uid)
            if clients.count >= Self.maxClients {
                client.send(Self.encode(.failure(nil, .busy, "too many connections")))
                client.finish()
            }
            clients.append(client)
        }
    }

}

/// Lets the HTTP threads' jobs (which run on the service's thread) find the host.
// Unchecked: the closures that capture it are `@Sendable` (they are made on the HTTP threads),
// but `host` (a weak reference to the non-Sendable host) is only read inside jobs the
// `ServiceBridge` runs on the service's own thread, which the compiler cannot see.
final class HostBox: @unchecked Sendable {
    weak var host: ServiceHost?
    init(_ host: ServiceHost) { self.host = host }
}

/// Passes cues on, except while muted (the greeting when the service starts).
final class StartGate: CuePlayer {
    private let inner: any CuePlayer
    var muted = false
    init(_ inner: any CuePlayer) { self.inner = inner }
    func play(_ cue: ChildCue, plan: DayPlan, child: Child) { if !muted { inner.play(cue, plan: plan, child: child) } }
    func update(child: Child) { inner.update(child: child) }
    func dataChanged() { inner.dataChanged() }
}

extension Monotonic {
    /// Monotonic seconds, for the loop's own timers.
    public static func seconds() -> Double { Double(now()) / 1e9 }
}
