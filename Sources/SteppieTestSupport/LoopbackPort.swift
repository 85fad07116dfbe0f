import Glibc

/// Free loopback ports for tests that must know a server's port before it binds (a hub restarted
/// on the same port, a client knocking before the server listens).
///
/// Below the kernel's ephemeral range on purpose: a port inside it can be handed to any outgoing
/// connect as its source port between the check and the server's bind, and a connect in a tight
/// loop to an unlistened port inside the range can be given that very port and connect to itself
/// (TCP simultaneous open), which holds the port and makes the server's bind fail with EADDRINUSE
/// (seen in CI, errno 98). The kernel never hands out a port below the range for `port: 0` binds or
/// outgoing connects, so nothing else in the process takes it between the check and the bind.
public enum LoopbackPort {
    /// `count` distinct free ports, nil when they cannot be found.
    public static func free(count: Int = 1) -> [UInt16]? {
        let low = ephemeralLow()
        guard low > 10_001 + count else { return nil }
        var found: [UInt16] = []
        for _ in 0..<(200 * count) where found.count < count {
            let port = UInt16(Int.random(in: 10_000..<low))
            if !found.contains(port), canBind(port) { found.append(port) }
        }
        return found.count == count ? found : nil
    }

    /// One free port (`free(count: 1)`).
    public static func one() -> UInt16? { free()?.first }

    /// The first port of `net.ipv4.ip_local_port_range` (32768 when it cannot be read).
    public static func ephemeralLow() -> Int {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.flatMap { Int($0) } ?? 32_768
    }

    /// Whether a socket can bind `127.0.0.1:port` now.
    public static func canBind(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let len = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 } }
    }
}
