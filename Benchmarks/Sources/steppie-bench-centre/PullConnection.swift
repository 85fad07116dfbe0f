import Foundation
import Glibc
import SteppieSync
import SteppieSyncHTTP
import SteppieTLS

/// A TCP connection to a hub and its TLS session, closed when it goes: one device's pulls go one
/// after another on it while the hub keeps it open (HTTP/1.1 keep-alive, as the service's sync
/// threads do since `SyncConnectionKeeper`).
final class PullLink: @unchecked Sendable {
    let fd: Int32
    let session: TLSClientSession
    init(fd: Int32, session: TLSClientSession) { self.fd = fd; self.session = session }
    deinit { close(fd) }
}

/// A device's held pull (long poll) on an HTTPS connection, as `SyncHTTPSClient` makes it (TLS, the
/// fingerprint checked before the request leaves, kept open between pulls), but parked: the
/// bench's waiter thread watches every parked socket at once with `epoll`, so 500 devices' held
/// pulls need no thread each.
final class PullConnection: @unchecked Sendable {
    let device: SimDevice
    let link: PullLink
    var fd: Int32 { link.fd }
    var session: TLSClientSession { link.session }
    let sentAt: UInt64
    let deadline: ContinuousClock.Instant
    var reader = HTTPResponseReader(bodyLimit: SyncHTTPSClient.defaultResponseLimit)
    /// The answer was framed and the hub did not close: the next pull may go on the same link.
    private(set) var reusable = false

    private init(device: SimDevice, link: PullLink, deadline: ContinuousClock.Instant) {
        self.device = device
        self.link = link
        self.deadline = deadline
        sentAt = now()
    }

    /// Sends the pull on `reusing` when it is given and still open, else on a new connection to
    /// `hub` whose certificate is checked first.
    static func open(device: SimDevice, hub: HubAddress, fingerprint: String, request: PullRequest,
                     reusing: PullLink? = nil) throws -> PullConnection {
        let start = ContinuousClock.now
        guard let body = SyncProtocol.encode(request) else { throw WireError("encode") }
        var head = "POST \(SyncHTTPMapping.pullPath) HTTP/1.1\r\nHost: \(hub.authority)\r\nAuthorization: Bearer \(device.credential)\r\n"
        head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: keep-alive\r\nAccept: application/json\r\n\r\n"
        let bytes = Array(head.utf8) + Array(body)
        let deadline = start + .milliseconds(request.waitMilliseconds + 30_000)
        if let reusing {
            var entry = pollfd(fd: reusing.fd, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, 0) == 0, (try? reusing.session.send(bytes, until: start + .seconds(10))) != nil {
                return PullConnection(device: device, link: reusing, deadline: deadline)
            }
        }
        let fd = try connect(port: hub.port)
        let session: TLSClientSession
        do { session = try TLSClientSession(socket: fd) } catch {
            close(fd)
            throw error
        }
        let link = PullLink(fd: fd, session: session)
        try session.handshake(until: start + .seconds(10))
        guard SyncHTTPSClient.sameFingerprint(fingerprint, try session.peerFingerprint()) else { throw WireError("fingerprint") }
        try session.send(bytes, until: start + .seconds(10))
        return PullConnection(device: device, link: link, deadline: deadline)
    }

    /// Reads what has come: the reply when whole, nil when more is to come (parked again).
    func read() throws -> SyncHTTPResponse? {
        while true {
            let bytes: [UInt8]
            do {
                bytes = try session.receive(max: 64 * 1024, until: ContinuousClock.now + .milliseconds(5))
            } catch {
                guard error == .timedOut else { throw error }
                if ContinuousClock.now > deadline { throw WireError("held pull past its deadline") }
                return nil
            }
            if bytes.isEmpty { return try reader.finish() }
            if try reader.take(bytes), let response = reader.response {
                reusable = !(response.headers["connection"]?.lowercased().contains("close") ?? false) && !reader.hasBytesAfterAnswer
                return response
            }
        }
    }

    /// A loopback TCP connection, non-blocking once made (as the device's transport uses it).
    static func connect(port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw WireError("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let made = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard made == 0 else {
            let e = errno
            close(fd)
            throw WireError("connect: errno \(e)")
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }
}

struct WireError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
