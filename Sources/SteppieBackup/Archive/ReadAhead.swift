import Foundation
import Synchronization

/// Pulls chunks from a source on a thread of its own, a few chunks ahead of the one reader:
/// data.json inflates (libzip), is hashed (nettle) and counted against the read budget on one core
/// while the JSON parser reads on the other. The reader sees exactly the bytes, the end and the
/// error the source gives, in the same order. Not `Sendable`: one reader.
final class ReadAhead {
    /// One pull of the source, as the reader will see it.
    private enum Chunk: Sendable {
        case bytes([UInt8])
        case end
        case failed(any Error)
    }

    /// What the two threads share.
    private final class Shared: Sendable {
        struct Queue {
            var chunks: [Chunk] = []
            var cancelled = false
            var stopped = false
        }
        let queue = Mutex(Queue())
        // Every semaphore starts at 0 (libdispatch refuses to dispose of one below its starting
        // value); `room` is given its `depth` by signals.
        let filled = DispatchSemaphore(value: 0)
        let room = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)

        init() { for _ in 0..<ReadAhead.depth { room.signal() } }
    }

    /// The source, handed to the read-ahead thread: nothing else uses it until `stop()` has joined
    /// that thread. (It holds a libzip file, which is not thread-safe but is used by one thread at
    /// a time.) `@unchecked`: the closure is not `@Sendable`, and handing it from one thread to
    /// the next is an order of events the compiler cannot check.
    private final class Handover: @unchecked Sendable {
        let pull: (UnsafeMutableRawBufferPointer) throws -> Int
        init(_ pull: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) { self.pull = pull }
    }

    static let chunkSize = 1 << 18
    /// Chunks that may wait for the reader (with the one read and the one being pulled: 1.5 MiB).
    static let depth = 4

    private let shared = Shared()
    private var current: [UInt8] = []
    private var offset = 0
    private var done: Result<Void, any Error>?

    /// Starts pulling from `pull` at once, until its end, its error or `stop()`.
    init(_ pull: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) {
        let shared = self.shared, source = Handover(pull)
        let thread = Thread { ReadAhead.run(shared, source) }
        thread.name = "steppie-read-ahead"
        thread.start()
    }

    deinit { stop() }

    private static func run(_ shared: Shared, _ source: Handover) {
        while true {
            shared.room.wait()
            if shared.queue.withLock({ $0.cancelled }) { break }
            let chunk: Chunk
            do {
                let bytes = try [UInt8](unsafeUninitializedCapacity: chunkSize) { buffer, count in
                    count = try source.pull(UnsafeMutableRawBufferPointer(buffer))
                }
                chunk = bytes.isEmpty ? .end : .bytes(bytes)
            } catch {
                chunk = .failed(error)
            }
            shared.queue.withLock { $0.chunks.append(chunk) }
            shared.filled.signal()
            guard case .bytes = chunk else { break }
        }
        shared.finished.signal()
    }

    /// Fills `buffer` with the next bytes; 0 at the end; the source's error where it failed.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while offset == current.count {
            if let done {
                try done.get()
                return 0
            }
            shared.filled.wait()
            let chunk = shared.queue.withLock { $0.chunks.removeFirst() }
            shared.room.signal()
            offset = 0
            switch chunk {
            case .bytes(let bytes): current = bytes
            case .end: current = []; done = .success(())
            case .failed(let error): current = []; done = .failure(error)
            }
        }
        let n = min(buffer.count, current.count - offset)
        current.withUnsafeBytes { bytes in
            guard let to = buffer.baseAddress, let from = bytes.baseAddress else { return }
            to.copyMemory(from: from + offset, byteCount: n)
        }
        offset += n
        return n
    }

    /// Stops pulling and waits for the thread to end; afterwards the source is the caller's again.
    func stop() {
        let first = shared.queue.withLock { q -> Bool in
            defer { q.cancelled = true; q.stopped = true }
            return !q.stopped
        }
        guard first else { return }
        shared.room.signal()
        shared.finished.wait()
    }
}
