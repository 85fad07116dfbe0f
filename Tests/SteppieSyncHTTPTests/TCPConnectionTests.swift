import Glibc
import Testing
@testable import SteppieSyncHTTP

/// The device's socket to a hub.
@Suite struct TCPConnectionTests {
    /// Each write goes at once: without `TCP_NODELAY` the first request after a TLS handshake
    /// waited about 40 ms for the hub's delayed acknowledgement (docs/sync.md, "HTTP mapping").
    @Test func theDevicesSocketSendsEachWriteAtOnce() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, size) == 0 && listen(listener, 1) == 0
                && getsockname(listener, $0, &size) == 0 }
        }
        #expect(bound)
        let port = UInt16(bigEndian: address.sin_port)
        let fd = try TCPConnection.open(HubAddress(host: "127.0.0.1", port: port), until: .now + .seconds(5))
        defer { close(fd) }
        var flag: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        #expect(getsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &flag, &length) == 0)
        #expect(flag != 0)
    }
}
