import Glibc

/// Opens a TCP connection to a hub by a deadline: each address its name resolves to in turn, the
/// socket non-blocking (the TLS session waits on it with its own deadlines) and close-on-exec.
enum TCPConnection {
    /// A connected socket the caller closes.
    static func open(_ hub: HubAddress, until deadline: ContinuousClock.Instant) throws(SyncTransportError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let found = getaddrinfo(hub.host, String(hub.port), &hints, &list)
        guard found == 0, let list else {
            throw .unreachable(address: hub.authority, reason: String(cString: gai_strerror(found)))
        }
        defer { freeaddrinfo(list) }
        var reason = "no address"
        var next: UnsafeMutablePointer<addrinfo>? = list
        while let info = next {
            next = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
                            info.pointee.ai_protocol)
            guard fd >= 0 else {
                reason = String(cString: strerror(errno))
                continue
            }
            noDelay(fd)
            let code = connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 ? 0 : errno
            if code == 0 { return fd }
            guard code == EINPROGRESS else {
                reason = String(cString: strerror(code))
                close(fd)
                continue
            }
            do throws(SyncTransportError) {
                let error = try waitConnected(fd, until: deadline)
                if error == 0 { return fd }
                reason = String(cString: strerror(error))
                close(fd)
            } catch {
                close(fd)
                throw error
            }
        }
        throw .unreachable(address: hub.authority, reason: reason)
    }

    /// Sends each write at once (`TCP_NODELAY`): a request is one write, and with Nagle's rule
    /// the first one after the TLS handshake waited for the hub's delayed acknowledgement of the
    /// handshake's last message, 40–44 ms on this machine for every push on a new connection
    /// (0.6 ms without it: docs/sync.md, "HTTP mapping").
    static func noDelay(_ fd: Int32) {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// The connection's outcome (0: connected, else its errno) once it is known.
    private static func waitConnected(_ fd: Int32, until deadline: ContinuousClock.Instant) throws(SyncTransportError) -> Int32 {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { throw .timeout(.connect) }
            let (seconds, attoseconds) = remaining.components
            let milliseconds = min(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1, Int64(Int32.max))
            var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&entry, 1, Int32(milliseconds))
            if ready == 0 { throw .timeout(.connect) }
            if ready < 0 {
                if errno == EINTR { continue }
                return errno
            }
            var error: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) == 0 else { return errno }
            return error
        }
    }
}
