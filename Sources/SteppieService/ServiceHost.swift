import CSocket
import Foundation
import SteppieChildMode
import SteppieCore
import SteppieFeedback
import SteppieFiles
import SteppieInput
import SteppieStore

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
    /// A big button was lost, came back, or says something (catalog key and arguments).
    case button(key: String, arguments: [String: String])
    case fault(child: String, reason: String)
    case peerRefused(uid: UInt32)
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
    private let store: Store
    private let engine: FeedbackEngine
    private let clock: any WallClock
    private let speechLocale: String
    private let log: (ServiceLogEntry) -> Void
    private let notifier = SystemdNotifier()
    private let started = Monotonic.now()

    private var lock: InstanceLock?
    private var listenFD: Int32 = -1
    private var clients: [ClientConnection] = []
    private var runtimes: [UUID: ChildModeRuntime] = [:]
    private var names: [UUID: String] = [:]
    private var lastVersion = -1
    private var lastScan = -Double.infinity
    private var lastWatchdog = 0.0
    /// When each child's schedule was last applied (the wall clock of the routines).
    private var scheduleChecked: [UUID: Date] = [:]
    /// Big buttons and the child they press for (nil: the only child with an active set).
    private let buttons: [ButtonDevice]
    private let buttonChild: String?
    /// The kiosk pages (nil: `--http none`).
    private let httpConfig: HTTPConfig?
    private var http: HTTPServer?
    private let bridge = ServiceBridge()
    private var board: StateBoard
    private var published: [UUID: KioskScreen] = [:]
    private var screenVersion = 0

    /// Where the kiosk pages are served and what they are made of.
    public struct HTTPConfig: Sendable {
        public var address: String
        public var port: UInt16
        public var webDirectory: URL
        /// Routine photos; nil: photos are shown as the star icon.
        public var photosDirectory: URL?
        /// Catalog text in a locale (the pages' words).
        public var text: @Sendable (String, [String: String], String) -> String
        public init(address: String, port: UInt16, webDirectory: URL, photosDirectory: URL? = nil,
                    text: @escaping @Sendable (String, [String: String], String) -> String) {
            self.address = address; self.port = port; self.webDirectory = webDirectory; self.photosDirectory = photosDirectory
            self.text = text
        }
    }
    /// Most clients at once; more are told `busy` and closed.
    public static let maxClients = 64

    public init(store: Store, databasePath: String, engine: FeedbackEngine, clock: any WallClock, socketPath: String,
                speechLocale: String, buttons: [ButtonDevice] = [], buttonChild: String? = nil, http: HTTPConfig? = nil,
                log: @escaping (ServiceLogEntry) -> Void) {
        self.httpConfig = http
        self.board = StateBoard(clock: clock)
        self.buttons = buttons
        self.buttonChild = buttonChild
        self.store = store
        self.databasePath = databasePath
        self.engine = engine
        self.clock = clock
        self.socketPath = socketPath
        self.speechLocale = speechLocale
        self.log = log
    }

    deinit { shutdown() }

    // MARK: Start and stop

    /// Takes the database's instance lock, opens the socket (folder 0700, socket 0600), starts a
    /// runtime per child and tells systemd it is ready.
    public func start() throws {
        lock = try InstanceLock(database: databasePath, socket: socketPath)
        let folder = OwnerOnly.parent(of: socketPath)
        do {
            try OwnerOnly.createDirectories(folder)
        } catch {
            throw ServiceError.file(error)
        }
        var st = stat()
        guard stat(folder, &st) == 0, st.st_uid == getuid() else { throw ServiceError.unsafeSocketFolder(path: folder) }
        if st.st_mode & 0o077 != 0 {
            // Ours, but open to others: a socket in it could be replaced by anyone.
            do { try OwnerOnly.tighten(folder) } catch { throw ServiceError.file(error) }
        }
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
        rescan(now: Monotonic.seconds())
        publishScreens()
        if let config = httpConfig {
            let box = HostBox(self)
            let server = HTTPServer(address: config.address, port: config.port, webDirectory: config.webDirectory,
                                    photosDirectory: config.photosDirectory, board: board,
                                    bridge: bridge) { [bridge] child, op, version in
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
        notifier.ready(status: "listening on \(socketPath)")
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
        http?.stop()
        http = nil
        clients.removeAll()
        if listenFD >= 0 {
            close(listenFD)
            listenFD = -1
            unlink(socketPath)
        }
        runtimes.removeAll()
        try? engine.output.close()
        lock = nil
    }

    // MARK: The loop

    /// One turn: waits up to `timeoutMilliseconds` for the socket, serves what arrived, then
    /// lets every runtime fire its timers and notice other processes' edits.
    public func step(timeoutMilliseconds: Int32) {
        var fds = [pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)]
        for c in clients { fds.append(pollfd(fd: c.fd, events: Int16(POLLIN) | (c.wantsWrite ? Int16(POLLOUT) : 0), revents: 0)) }
        for b in buttons { fds.append(pollfd(fd: b.fileDescriptor ?? -1, events: Int16(POLLIN), revents: 0)) }
        fds.append(pollfd(fd: bridge.wakeFD, events: Int16(POLLIN), revents: 0))
        _ = poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
        let now = Monotonic.seconds()
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

    // MARK: Kiosk pages

    /// Publishes every child's screen whose content changed, for the pages' event streams.
    private func publishScreens() {
        guard httpConfig != nil else { return }
        let now = clock.now()
        for (id, runtime) in runtimes {
            var screen = KioskScreen.make(state: runtime.state, child: runtime.child, now: now, version: screenVersion + 1,
                                          fallbackLocale: speechLocale, text: httpConfig?.text ?? { key, _, _ in key })
            if let old = published[id], old.sameContent(as: screen) { continue }
            screenVersion += 1
            screen.version = screenVersion
            published[id] = screen
            board.publish(screen)
        }
        for id in published.keys where runtimes[id] == nil {
            published[id] = nil
            board.remove(childId: id.lowercased)
        }
    }

    /// A tap on a child's page: the same press as a key on a screen. A tap made on a screen that
    /// has changed since (its version is older) is refused with the screen now, never applied to
    /// a card the child did not see.
    func kioskPress(child: String, op: String, version: Int?) -> (status: Int, body: String) {
        guard let id = UUID(uuidString: child), let runtime = runtimes[id] else { return (404, "{\"error\":\"no such child\"}") }
        publishScreens()
        if let version, let current = published[id], version < current.version {
            return (409, current.json(now: clock.now()))
        }
        switch op {
        case "done": runtime.done()
        case "undo": runtime.undo()
        default: runtime.next()
        }
        publishScreens()
        return (200, published[id]?.json(now: clock.now()) ?? "{}")
    }

    /// Presses from the big buttons go to their child's runtime, like keys on a screen; a button
    /// unplugged is tried again every 500 ms.
    private func pressButtons() {
        guard !buttons.isEmpty else { return }
        let instant = ContinuousClock.now
        let target: ChildModeRuntime? = {
            if case .success(let r) = runtime(for: buttonChild) { return r }
            return nil
        }()
        for device in buttons {
            device.reopenIfDue(now: instant)
            for press in device.read(now: instant) {
                guard let target else { continue }
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
    private func tick(now: Double) {
        for runtime in runtimes.values { runtime.poll() }
        let version = (try? store.dataVersion()) ?? lastVersion
        if version != lastVersion || now - lastScan >= 1 { rescan(now: now) }
        lastVersion = version
        if let interval = notifier.watchdogInterval, now - lastWatchdog >= interval {
            lastWatchdog = now
            notifier.watchdog()
        }
    }

    private func acceptAll() {
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

    // MARK: Children

    /// Starts a runtime for every child with an active set and stops those of children that left.
    private func rescan(now: Double) {
        lastScan = now
        guard let children = try? store.children(includeArchived: false) else { return }
        for child in children { applySchedule(child) }
        var wanted = Set<UUID>()
        for child in children where (try? store.activeSet(childId: child.id)) != nil {
            wanted.insert(child.id)
            names[child.id] = child.displayName
            if runtimes[child.id] == nil, let runtime = makeRuntime(child) {
                runtimes[child.id] = runtime
                if lastVersion >= 0 { log(.childAdded(child.displayName)) }
            }
        }
        for id in runtimes.keys where !wanted.contains(id) {
            runtimes[id] = nil
            log(.childRemoved(names[id] ?? id.lowercased))
        }
    }

    /// Switches the child's active set when the weekly schedule says so: once when the service
    /// starts, then at each switch instant (a manual choice holds until the next switch).
    private func applySchedule(_ child: Child) {
        let now = clock.now()
        let last = scheduleChecked[child.id]
        scheduleChecked[child.id] = now
        guard let schedule = try? store.schedule(childId: child.id), !schedule.isEmpty else { return }
        if let last {
            guard let next = schedule.nextSwitch(after: last, in: store.timeZone), next.at <= now else { return }
        }
        do {
            if try store.applySchedule(childId: child.id, at: now) {
                log(.setSwitched(child: child.displayName))
                runtimes[child.id]?.reloadPlan()
            }
        } catch {
            log(.fault(child: child.displayName, reason: String(describing: error)))
        }
    }

    private func makeRuntime(_ child: Child) -> ChildModeRuntime? {
        let locale = child.profile.locale ?? speechLocale
        let name = child.displayName
        let report: (String) -> Void = { [log] in log(.fault(child: name, reason: $0)) }
        let recordings = RecordingCache(store: store, report: report)
        let sound = FeedbackCuePlayer(engine: engine, child: child, locale: locale, recordings: recordings, report: report)
        let gate = StartGate(sound)
        let id = child.id
        let events = EventLog(zone: store.timeZone, locale: locale) { [weak self] line throws(FileRefusal) in
            self?.broadcast(line, child: id)
        }
        do {
            let runtime = try ChildModeRuntime(store: store, child: child, clock: clock, player: gate, events: events)
            runtime.onFault = { [log] in log(.fault(child: name, reason: String(describing: $0))) }
            // The service starting (a boot, a restart) is not a moment to speak: the first
            // announcement comes with the first press, timer, reminder or schedule.
            gate.muted = true
            runtime.start()
            gate.muted = false
            return runtime
        } catch {
            log(.fault(child: name, reason: String(describing: error)))
            return nil
        }
    }

    private func broadcast(_ line: String, child: UUID) {
        let wrapped = "{\"child\":\"\(child.lowercased)\",\"event\":\(line)}"
        for c in clients where c.subscribedChild == child { c.send(wrapped) }
    }

    // MARK: Requests

    private func handle(_ line: String, from client: ClientConnection) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return }
        guard let request = try? JSONDecoder().decode(ServiceRequest.self, from: Data(trimmed.utf8)) else {
            client.send(Self.encode(.failure(nil, .badRequest, "not a JSON request object")))
            return
        }
        client.send(Self.encode(reply(to: request, from: client)))
    }

    private func reply(to r: ServiceRequest, from client: ClientConnection) -> ServiceReply {
        if let db = r.database, !Self.sameFile(db, databasePath) {
            return .failure(r.id, .otherDatabase, "this service runs on \(databasePath)")
        }
        switch r.op {
        case "ping": return ServiceReply(id: r.id, ok: true)
        case "status": return ServiceReply(id: r.id, ok: true, status: status())
        case "say": return say(r)
        case "preview": return preview(r)
        case "done", "undo", "next", "press": return press(r)
        case "state":
            switch runtime(for: r.child) {
            case .success(let runtime):
                return ServiceReply(id: r.id, ok: true, screen: ScreenSnapshot(child: runtime.child, state: runtime.state))
            case .failure(let f): return ServiceReply(id: r.id, ok: false, error: f)
            }
        case "subscribe":
            switch runtime(for: r.child) {
            case .success(let runtime):
                client.subscribedChild = runtime.child.id
                return ServiceReply(id: r.id, ok: true, status: status(only: runtime.child.id))
            case .failure(let f): return ServiceReply(id: r.id, ok: false, error: f)
            }
        default: return .failure(r.id, .unknownOperation, "unknown op")
        }
    }

    /// The service's status, all children or one.
    public func status(only: UUID? = nil) -> ServiceStatus {
        let children = runtimes.values.filter { only == nil || $0.child.id == only }.map { Self.childStatus($0) }.sorted { $0.name < $1.name }
        return ServiceStatus(pid: getpid(), uptimeSeconds: Double(Monotonic.now() - started) / 1e9, database: databasePath,
                             socket: socketPath, output: engine.output.kind.rawValue, children: children)
    }

    /// One child's status, titles in `locale` (the asking command's language), else the child's.
    static func childStatus(_ r: ChildModeRuntime, locale: String? = nil) -> ChildStatus {
        let focus = r.state.focus.flatMap { r.state.plan.item($0)?.routine }
        let locale = locale ?? r.child.profile.locale
        return ChildStatus(id: r.child.id.lowercased, name: r.child.displayName, completed: r.state.shownCompleted,
                           total: r.state.plan.total, focus: focus?.id.lowercased,
                           focusTitle: focus?.title.resolve(chosen: locale, system: nil), allDone: r.state.isAllDone)
    }

    private func runtime(for selector: String?) -> Result<ChildModeRuntime, ServiceFailure> {
        guard let selector, !selector.isEmpty else {
            if runtimes.count == 1, let only = runtimes.values.first { return .success(only) }
            return .failure(ServiceFailure(code: runtimes.isEmpty ? .noActiveSet : .childAmbiguous,
                                           message: runtimes.isEmpty ? "no child has an active set" : "name the child"))
        }
        do {
            let child = try store.resolveChild(selector)
            guard let runtime = runtimes[child.id] else { return .failure(ServiceFailure(code: .noActiveSet, message: "no active set")) }
            return .success(runtime)
        } catch StoreError.childAmbiguous, StoreError.childNameAmbiguous {
            return .failure(ServiceFailure(code: .childAmbiguous, message: "more than one child has that name"))
        } catch {
            return .failure(ServiceFailure(code: .childNotFound, message: "no such child"))
        }
    }

    private func press(_ r: ServiceRequest) -> ServiceReply {
        let runtime: ChildModeRuntime
        switch self.runtime(for: r.child) {
        case .success(let found): runtime = found
        case .failure(let f): return ServiceReply(id: r.id, ok: false, error: f)
        }
        let before = runtime.state.plan.completedCount
        switch r.op {
        case "done": runtime.done()
        case "undo": runtime.undo()
        case "next": runtime.next()
        default:
            guard let raw = r.routineId, let id = UUID(uuidString: raw) else {
                return .failure(r.id, .invalidValue, "routineId must be a UUID")
            }
            guard runtime.state.plan.item(id) != nil else { return .failure(r.id, .invalidValue, "no such routine today") }
            runtime.press(id)
        }
        let state = runtime.state
        let saved = state.plan.completedCount != before
        var notice: String?
        switch state.notice {
        case .undoRefused?: notice = "undoRefused"
        case .saveFailed?: notice = "saveFailed"
        case .undoFailed?: notice = "undoFailed"
        case nil: if !saved && r.op != "next" { notice = state.isAllDone ? "allDone" : "unchanged" }
        }
        let status = Self.childStatus(runtime, locale: r.locale)
        return ServiceReply(id: r.id, ok: true, press: PressResult(child: status.id, action: r.op, saved: saved, notice: notice,
                                                                   completed: status.completed, total: status.total,
                                                                   focus: status.focus, focusTitle: status.focusTitle))
    }

    private func say(_ r: ServiceRequest) -> ServiceReply {
        guard let text = r.text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, text.utf8.count <= 4000 else {
            return .failure(r.id, .invalidValue, "text must be 1 to 4000 bytes")
        }
        let rate = r.rate ?? 1, volume = r.volume ?? 1
        guard rate.isFinite, Validator.ttsRateRange.contains(rate), volume.isFinite, Validator.ttsVolumeRange.contains(volume) else {
            return .failure(r.id, .invalidValue, "rate 0.5-1.5, volume 0-1")
        }
        do {
            let samples = try SpeechSynthesizer.shared.speak(text: text, locale: r.locale ?? speechLocale, rate: rate, volume: volume)
            let program = engine.output.startProgram([], interrupt: true)
            _ = engine.output.mix(samples.map { Float($0) / 32768 }, into: program, offset: 0)
            return ServiceReply(id: r.id, ok: true, said: SayResult(samples: samples.count))
        } catch {
            return .failure(r.id, .failed, String(describing: error))
        }
    }

    /// Plays one feedback event at one intensity on the device's stream, as a guardian tunes by
    /// listening; the sample title is the child's current activity.
    private func preview(_ r: ServiceRequest) -> ServiceReply {
        let runtime: ChildModeRuntime
        switch self.runtime(for: r.child) {
        case .success(let found): runtime = found
        case .failure(let f): return ServiceReply(id: r.id, ok: false, error: f)
        }
        guard let event = FeedbackEvent(rawValue: r.event ?? "completed") else { return .failure(r.id, .invalidValue, "unknown event") }
        var profile = runtime.child.profile
        if let raw = r.intensity {
            guard let intensity = FeedbackIntensity(rawValue: raw) else { return .failure(r.id, .invalidValue, "unknown intensity") }
            profile.intensity = intensity
        }
        let locale = r.locale ?? profile.locale ?? speechLocale
        let title = runtime.state.plan.current?.routine.title.resolve(chosen: locale, system: nil) ?? ""
        let feedback = EffectiveFeedback(profile: profile)
        let context = CueContext(routineTitle: title, minutes: 5, time: "07:30", completed: runtime.state.plan.completedCount,
                                 total: runtime.state.plan.total)
        do {
            _ = try engine.play(Cue.make(event, context: context, feedback: feedback), feedback: feedback, locale: locale)
            return ServiceReply(id: r.id, ok: true)
        } catch {
            return .failure(r.id, .failed, String(describing: error))
        }
    }

    static func encode(_ reply: ServiceReply) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(reply)).map { String(decoding: $0, as: UTF8.self) } ?? "{\"ok\":false}"
    }

    static func sameFile(_ a: String, _ b: String) -> Bool {
        if let x = FileIdentity(path: a), let y = FileIdentity(path: b) { return x == y }
        return URL(fileURLWithPath: a).standardizedFileURL.path == URL(fileURLWithPath: b).standardizedFileURL.path
    }
}

/// Lets the HTTP threads' jobs (which run on the service's thread) find the host.
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
    static func seconds() -> Double { Double(now()) / 1e9 }
}
