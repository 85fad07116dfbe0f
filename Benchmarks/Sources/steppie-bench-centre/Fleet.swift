import CEpollBench
import Foundation
import Glibc
import SteppieSync
import SteppieSyncHTTP

/// The simulated devices and the threads that drive them: `workers` threads take tasks (a push, a
/// join, starting or finishing a pull) from one queue; one waiter thread watches every parked
/// pull's socket and hands a readable one back to the workers.
final class Fleet: @unchecked Sendable {
    struct Hub: Sendable { let address: HubAddress; let fingerprint: String }

    enum Task { case run(@Sendable () -> Void), finishPull(PullConnection) }

    let hubs: [Hub]
    let devices: [SimDevice]
    private let queue = Locked<[Task]>([])
    private let signal = DispatchSemaphore(value: 0)
    private let parked = Locked<[Int32: PullConnection]>([:])
    /// The parked sockets, watched by the waiter.
    private let watch = epoll_create1(Int32(EPOLL_CLOEXEC))
    private let stopping = Locked(false)
    private var threads: [Thread] = []

    // What the run measured (guarded by their locks).
    let pushLatencies = Locked<[Double]>([])
    let propagation = Locked<[Double]>([])
    let sentAt = Locked<[String: UInt64]>([:])
    let applied = Locked(0)
    let lastAck = Locked<UInt64>(0)
    let failures = Locked<[String: Int]>([:])
    let received = Locked(0)
    /// Devices whose first copy (after their grant) is whole.
    let copied = Locked<Set<Int>>([])
    var pullWaitMilliseconds = 20_000

    init(hubs: [Hub], devices: [SimDevice]) {
        self.hubs = hubs
        self.devices = devices
    }

    deinit { close(watch) }

    func start(workers: Int) {
        for _ in 0..<workers {
            let t = Thread { [self] in work() }
            t.stackSize = 1 << 20
            t.start()
            threads.append(t)
        }
        let waiter = Thread { [self] in wait() }
        waiter.start()
        threads.append(waiter)
    }

    func stop() {
        stopping.with { $0 = true }
        for _ in threads { signal.signal() }
        parked.with { $0.removeAll() }
    }

    /// A finished pull goes before every waiting push: a real device reads its pull on a thread
    /// of its own, never behind other devices' pushes, so the bench's queue must not add that
    /// wait to the propagation it measures.
    func enqueue(_ task: Task) {
        queue.with {
            if case .finishPull = task, let first = $0.firstIndex(where: { if case .run = $0 { true } else { false } }) {
                $0.insert(task, at: first)
            } else {
                $0.append(task)
            }
        }
        signal.signal()
    }

    /// Clears what a morning measures, for the next one (failures are counted over the run).
    func startRound() {
        pushLatencies.with { $0.removeAll() }
        propagation.with { $0.removeAll() }
        sentAt.with { $0.removeAll() }
        applied.with { $0 = 0 }
        lastAck.with { $0 = 0 }
    }

    func note(_ failure: String) { failures.with { $0[failure, default: 0] += 1 } }

    func client(_ device: SimDevice) -> SyncHubClient {
        let hub = hubs[device.hub]
        return SyncHubClient(transport: SyncHTTPSClient(hub: hub.address, fingerprint: hub.fingerprint, keeper: device.keeper),
                             credential: device.credential.isEmpty ? nil : device.credential)
    }

    private func work() {
        while true {
            signal.wait()
            if stopping.with({ $0 }) { return }
            guard let task = queue.with({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            switch task {
            case .run(let body): body()
            case .finishPull(let connection): finish(connection)
            }
        }
    }

    /// The waiter: the parked pulls' sockets in one `epoll` set, so each wait costs what is ready,
    /// not all 500 sockets (`poll` of them all at each answer was 8 % of the simulated devices'
    /// CPU, in the kernel: docs/performance.md, session 54).
    private func wait() {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while !stopping.with({ $0 }) {
            let ready = epoll_wait(watch, &events, Int32(events.count), 5)
            guard ready > 0 else { continue }
            for event in events[0..<Int(ready)] {
                let fd = event.data.fd
                guard let connection = parked.with({ $0.removeValue(forKey: fd) }) else { continue }
                epoll_ctl(watch, EPOLL_CTL_DEL, fd, nil)
                enqueue(.finishPull(connection))
            }
        }
    }

    /// Parks a pull until its socket is readable.
    private func park(_ connection: PullConnection) {
        parked.with { $0[connection.fd] = connection }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = connection.fd
        if epoll_ctl(watch, EPOLL_CTL_ADD, connection.fd, &event) != 0 { fatalError("epoll_ctl: errno \(errno)") }
    }

    // MARK: pulls

    /// Starts the device's next pull and parks it.
    func pull(_ device: SimDevice, wait: Int? = nil) {
        let request = PullRequest(device: device.id, sentAt: wallMilliseconds(), cursor: device.cursor,
                                  waitMilliseconds: device.copyAfter == nil ? (wait ?? pullWaitMilliseconds) : 0, copyAfter: device.copyAfter)
        let hub = hubs[device.hub]
        do {
            let reusing = device.pullLink
            device.pullLink = nil
            let connection = try PullConnection.open(device: device, hub: hub.address, fingerprint: hub.fingerprint, request: request,
                                                     reusing: reusing)
            park(connection)
        } catch {
            note("pull connect: \(error)")
            usleep(50_000)
            if !stopping.with({ $0 }) { enqueue(.run { [self] in pull(device) }) }
        }
    }

    private func finish(_ connection: PullConnection) {
        let device = connection.device
        let response: SyncHTTPResponse?
        do { response = try connection.read() } catch {
            note("pull read: \(error)")
            enqueue(.run { [self] in pull(device) })
            return
        }
        guard let response else {   // not whole yet: parked again
            park(connection)
            return
        }
        let at = now()
        if connection.reusable { device.pullLink = connection.link }
        guard response.status == 200, let reply = try? SyncWireReader.decode(PullReply.self, from: Data(response.body)) else {
            note("pull status \(response.status)")
            usleep(100_000)
            enqueue(.run { [self] in pull(device) })
            return
        }
        var samples: [Double] = []
        if !reply.freshCopy {
            let ids = reply.entries.compactMap { entry -> String? in if case .event(let e) = entry { e.id } else { nil } }
            if !ids.isEmpty {
                let sent = sentAt.with { map in ids.compactMap { map[$0] } }
                samples = sent.map { ms(at &- $0) }
            }
        }
        if !samples.isEmpty { propagation.with { $0 += samples } }
        received.with { $0 += reply.entries.count }
        device.cursor = reply.cursor
        device.copyAfter = reply.copyAfter
        if reply.freshCopy { device.copies += 1 }
        if reply.copyAfter == nil, !reply.more, device.copies > 0 { _ = copied.with { $0.insert(device.index) } }
        if stopping.with({ $0 }) { return }
        pull(device, wait: reply.more || reply.copyAfter != nil ? 0 : nil)
    }

    // MARK: pushes

    /// Pushes what the device has due (and anything not yet acknowledged); true when the hub took it.
    @discardableResult
    func push(_ device: SimDevice, measured: Bool) -> Bool {
        let batch = device.takeBatch()
        guard !batch.isEmpty else { return true }
        let start = now()
        let events = batch.compactMap { entry -> String? in if case .event(let e) = entry.entry { e.id } else { nil } }
        if measured, !events.isEmpty {
            sentAt.with { map in for id in events where map[id] == nil { map[id] = start } }
        }
        do {
            let reply = try client(device).push(PushRequest(device: device.id, sentAt: wallMilliseconds(), entries: batch))
            let end = now()
            device.acknowledge(reply.acknowledged)
            if measured {
                pushLatencies.with { $0.append(ms(end - start)) }
                applied.with { $0 += batch.count }
                lastAck.with { $0 = max($0, end) }
            }
            return true
        } catch {
            if case .refused(.gap(let expected)) = error { device.acknowledge(expected &- 1) }
            note("push: \(error)")
            return false
        }
    }

    /// Runs `body` for every device on the workers and waits for all of them.
    func each(_ body: @escaping @Sendable (SimDevice) -> Void) {
        let group = DispatchGroup()
        for device in devices {
            group.enter()
            enqueue(.run { body(device); group.leave() })
        }
        group.wait()
    }
}
