import CSocket
import Foundation

/// Hands work from the HTTP threads to the service's own thread (the store and the runtimes are
/// not thread-safe) and waits for the result; an eventfd wakes the service's `poll` at once.
final class ServiceBridge: @unchecked Sendable {
    private final class Job: @unchecked Sendable {
        let work: () -> (status: Int, body: String)
        let done = DispatchSemaphore(value: 0)
        var result: (status: Int, body: String) = (503, "{\"error\":\"busy\"}")
        init(_ work: @escaping () -> (status: Int, body: String)) { self.work = work }
    }

    private let lock = NSLock()
    private var jobs: [Job] = []
    let wakeFD: Int32

    init() { wakeFD = csocket_eventfd() }
    deinit { close(wakeFD) }

    /// Runs `work` on the service's thread; 503 when it does not answer within `timeout`.
    func run(timeout: TimeInterval = 5, _ work: @escaping () -> (status: Int, body: String)) -> (status: Int, body: String) {
        let job = Job(work)
        lock.withLock { jobs.append(job) }
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
        if job.done.wait(timeout: .now() + timeout) == .timedOut { return (503, "{\"error\":\"busy\"}") }
        return job.result
    }

    /// Called by the service's thread after `poll`: runs every waiting job.
    func drain() {
        var counter: UInt64 = 0
        _ = read(wakeFD, &counter, 8)
        let pending = lock.withLock { () -> [Job] in
            defer { jobs.removeAll() }
            return jobs
        }
        for job in pending {
            job.result = job.work()
            job.done.signal()
        }
    }
}
