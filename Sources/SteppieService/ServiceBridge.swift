import CSocket
import Foundation
import Synchronization

/// Hands work from the HTTP threads to the service's own thread (the store and the runtimes are
/// not thread-safe) and waits for the result; an eventfd wakes the service's `poll` at once.
///
/// What the caller is told is what happened: a job the service thread has not started within
/// the timeout is withdrawn (it will never run) and answered 503; a job already running is
/// waited for to the end and answered with its own result, however long it takes.
final class ServiceBridge: Sendable {
    /// A job's life: waiting in the queue, withdrawn by its caller, taken by the service thread.
    enum Phase: Sendable, Equatable { case queued, withdrawn, running }

    // Unchecked: the work closure (not `@Sendable`: it touches the service's non-Sendable state)
    // and its result cross threads: the HTTP thread creates the job, the service thread runs it,
    // and the semaphore orders the result's write before the caller's read, which the compiler
    // cannot see.
    private final class Job: @unchecked Sendable {
        let work: () -> (status: Int, body: String)
        let done = DispatchSemaphore(value: 0)
        let phase = Mutex(Phase.queued)
        var result: (status: Int, body: String) = ServiceBridge.busy
        init(_ work: @escaping () -> (status: Int, body: String)) { self.work = work }
    }

    static let busy: (status: Int, body: String) = (503, "{\"error\":\"busy\"}")

    private let jobs = Mutex<[Job]>([])
    let wakeFD: Int32

    init() { wakeFD = csocket_eventfd() }
    deinit { close(wakeFD) }

    /// Runs `work` on the service's thread. When the thread has not taken it within `timeout`,
    /// the job is withdrawn and never runs: 503. Once taken, it is waited for and its result returned.
    func run(timeout: TimeInterval = 5, _ work: @escaping () -> (status: Int, body: String)) -> (status: Int, body: String) {
        let job = Job(work)
        jobs.withLock { $0.append(job) }
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
        if job.done.wait(timeout: .now() + timeout) == .success { return job.result }
        let withdrawn = job.phase.withLock { phase -> Bool in
            guard phase == .queued else { return false }
            phase = .withdrawn
            return true
        }
        if withdrawn { return Self.busy }
        // Started before the deadline: its effect is happening, so its answer is the truth.
        job.done.wait()
        return job.result
    }

    /// Called by the service's thread after `poll`: runs every waiting job not withdrawn.
    func drain() {
        var counter: UInt64 = 0
        _ = read(wakeFD, &counter, 8)
        let pending = jobs.withLock { jobs -> [Job] in
            defer { jobs.removeAll() }
            return jobs
        }
        for job in pending {
            let taken = job.phase.withLock { phase -> Bool in
                guard phase == .queued else { return false }
                phase = .running
                return true
            }
            guard taken else { continue }
            job.result = job.work()
            job.done.signal()
        }
    }
}
