import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One client of the control socket: a non-blocking descriptor with bounded input and output
/// buffers. Owned by the host's loop (one thread); closes its descriptor in `deinit`.
final class ClientConnection {
    /// Longest request line; a longer one is refused and the connection closed.
    static let maxLineBytes = 64 * 1024
    /// Largest backlog of unread replies and events; a reader that falls further behind is dropped.
    static let maxOutboundBytes = 1 << 20
    /// A half-written line older than this closes the connection (a stalled or hostile client).
    static let partialLineTimeout: TimeInterval = 10

    let fd: Int32
    let peerUID: uid_t
    private var inbound: [UInt8] = []
    private var outbound: [UInt8] = []
    /// When the unfinished line in `inbound` began (monotonic seconds).
    private(set) var partialSince: Double?
    /// The child whose events this client receives.
    var subscribedChild: UUID?
    /// Set once the connection should end (after what is queued has been written, when possible).
    private(set) var closing = false
    private(set) var dead = false

    init(fd: Int32, peerUID: uid_t) {
        self.fd = fd
        self.peerUID = peerUID
    }

    deinit { Glibc.close(fd) }

    var wantsWrite: Bool { !outbound.isEmpty }

    /// Reads what is available and returns complete lines; an over-long line is reported once.
    func readLines(now: Double) -> (lines: [String], tooLong: Bool) {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var lines: [String] = []
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                dead = true
                break
            }
            if n == 0 { closing = true; break }
            inbound.append(contentsOf: chunk[0..<n])
            while let newline = inbound.firstIndex(of: 0x0A) {
                lines.append(String(decoding: inbound[..<newline], as: UTF8.self))
                inbound.removeSubrange(...newline)
            }
            if inbound.count > Self.maxLineBytes {
                inbound.removeAll()
                closing = true
                return (lines, true)
            }
            if n < chunk.count { break }
        }
        partialSince = inbound.isEmpty ? nil : (partialSince ?? now)
        return (lines, false)
    }

    /// Queues one line (a newline is added) and writes what the socket takes now.
    func send(_ line: String) {
        guard !dead else { return }
        outbound.append(contentsOf: line.utf8)
        outbound.append(0x0A)
        if outbound.count > Self.maxOutboundBytes { dead = true; outbound.removeAll(); return }
        flush()
    }

    /// Writes queued bytes until the socket would block.
    func flush() {
        while !outbound.isEmpty && !dead {
            let n = outbound.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                dead = true
                return
            }
            outbound.removeFirst(n)
        }
    }

    /// Ends the connection once what is queued has been written.
    func finish() { closing = true }

    /// True once the connection can be dropped: dead, or closing with nothing left to write.
    var finished: Bool { dead || (closing && outbound.isEmpty) }

    /// True when a half line has waited too long.
    func stalled(now: Double) -> Bool {
        guard let since = partialSince else { return false }
        return now - since > Self.partialLineTimeout
    }
}
