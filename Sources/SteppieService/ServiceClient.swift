import CSocket
import Foundation
import SteppieFiles
#if canImport(Glibc)
import Glibc
#endif

/// A connection to a running service: one request, one reply, in order; then, after
/// `subscribe`, event lines. Used by the command line and the tests.
public final class ServiceClient {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var nextId = 1

    /// Connects to the socket at `path` when this user's service answers there; nil when nothing
    /// does, or when what answers cannot be trusted (`connectChecked` says why).
    public static func connect(path: String) -> ServiceClient? {
        (try? connectChecked(path: path)) ?? nil
    }

    /// Connects to the socket at `path`: nil when nothing listens there; refused when its folder is
    /// a link, not a folder or another user's, or when the process that answers runs as another
    /// user (SO_PEERCRED: this user or root only). Checked before anything is sent or read, so a
    /// socket another local user planted is never told a request nor believed (issue 24, class 3).
    public static func connectChecked(path: String) throws(ServiceTrustRefusal) -> ServiceClient? {
        do {
            guard try SocketFolder.check(OwnerOnly.parent(of: path)) else { return nil }
        } catch {
            throw .folder(error)
        }
        let fd = csocket_connect(path)
        guard fd >= 0 else { return nil }
        var uid: uid_t = 0
        var pid: pid_t = 0
        guard csocket_peer(fd, &uid, &pid) == 0 else {
            let e = errno
            Glibc.close(fd)
            throw .peerUnknown(socket: path, errno: e)
        }
        guard uid == getuid() || uid == 0 else {
            Glibc.close(fd)
            throw .otherUser(socket: path, uid: uid, pid: pid)
        }
        return ServiceClient(fd: fd)
    }

    private init(fd: Int32) { self.fd = fd }

    deinit { Glibc.close(fd) }

    /// Sends `request` (an id is given when it has none) and waits up to `timeout` for its reply.
    public func request(_ request: ServiceRequest, timeout: Double = 10) throws -> ServiceReply {
        var r = request
        if r.id == nil { r.id = nextId; nextId += 1 }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            try sendLine(String(decoding: try encoder.encode(r), as: UTF8.self))
        } catch {
            // At its connection limit the service answers `busy` and closes at once, and the
            // request may then meet a closed socket (a broken pipe): that answer is the reply.
            if let line = try? readLine(until: Date().addingTimeInterval(1)),
               let reply = try? JSONDecoder().decode(ServiceReply.self, from: Data(line.utf8)), reply.id == nil {
                return reply
            }
            throw error
        }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            guard let line = try readLine(until: deadline) else { throw ServiceFailure(code: .failed, message: "no reply") }
            // Event lines of a subscription may come before the reply.
            if let reply = try? JSONDecoder().decode(ServiceReply.self, from: Data(line.utf8)), reply.id == r.id || reply.id == nil {
                return reply
            }
        }
    }

    /// Writes one raw line (tests use it for hostile input).
    public func sendLine(_ line: String) throws {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        try sendRaw(bytes)
    }

    /// Writes bytes as they are.
    public func sendRaw(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ServiceFailure(code: .failed, message: "send: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    /// The next line from the service, or nil when `deadline` passed or the service closed.
    public func readLine(until deadline: Date) throws -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(min(left, 60) * 1000) + 1)
            if ready < 0 { if errno == EINTR { continue }; return nil }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// True once the service closed the connection (checked without waiting long).
    /// Whether the service has closed its end within `seconds`, reading nothing (`POLLRDHUP`):
    /// what it wrote before stays to be read.
    public func peerClosed(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        let rdhup: Int16 = 0x2000 // POLLRDHUP (Linux)
        while Date() < deadline {
            var p = pollfd(fd: fd, events: rdhup, revents: 0)
            if poll(&p, 1, 20) > 0, p.revents & (rdhup | Int16(POLLHUP)) != 0 { return true }
        }
        return false
    }

    public func isClosed(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 20) > 0 {
                var byte: UInt8 = 0
                let n = Glibc.recv(fd, &byte, 1, Int32(MSG_PEEK))
                if n == 0 { return true }
                if n > 0 { _ = try? readLine(until: Date()) ; buffer.removeAll() }
                if n < 0 && errno != EINTR && errno != EAGAIN { return true }
            }
        }
        return false
    }
}

/// Why a command would not talk to what answers at the control socket.
public enum ServiceTrustRefusal: Error, Equatable, Sendable {
    /// The socket's folder is not a real folder of this user.
    case folder(SocketFolderRefusal)
    /// A process of another user (not root) answers at `socket`.
    case otherUser(socket: String, uid: UInt32, pid: Int32)
    /// The peer's credentials could not be read.
    case peerUnknown(socket: String, errno: Int32)
}
