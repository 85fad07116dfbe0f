import Foundation
import Glibc
import SteppieHTTP
import SteppieSync
import SteppieSyncHTTP
import Testing

/// What a device does not let a hub do to it: send more than it takes, or keep it waiting.
@Suite struct SyncTransportLimitTests {
    typealias F = HubFixture
    static let nineMiB = 9 * 1024 * 1024

    /// A stream that sends `pieces` then ends (libmicrohttpd sends it without a length).
    final class Pieces: HTTPStreamSource {
        private var left: [[UInt8]]
        init(_ pieces: [[UInt8]]) { left = pieces }
        func next(_ peer: HTTPStreamPeer) -> HTTPStreamStep { left.isEmpty ? .end : .send(left.removeFirst()) }
    }

    static func failure<T>(_ body: () throws -> T) -> SyncTransportError? {
        do { _ = try body() } catch let error as SyncTransportError { return error } catch { Issue.record("\(error)") }
        return nil
    }

    @Test func anAnswerOverEightMiBIsRefusedWhetherItsLengthIsDeclaredOrNot() throws {
        let big = [UInt8](repeating: UInt8(ascii: " "), count: Self.nineMiB)
        let f = try F(extraRoutes: [
            .post("/big/declared") { _ in .bytes(200, big, type: "application/json") },
            .post("/big/streamed") { _ in
                HTTPResponse(status: 200, contentType: "application/json",
                             body: .stream(open: { _ in Pieces(stride(from: 0, to: big.count, by: 64 * 1024).map { Array(big[$0..<min($0 + 64 * 1024, big.count)]) }) }))
            },
        ])
        let transport = f.transport()
        #expect(transport.responseLimit == 8 * 1024 * 1024)
        for path in ["/big/declared", "/big/streamed"] {
            #expect(Self.failure { try transport.post(path, json: [], credential: nil) } == .responseTooLarge(limit: 8 * 1024 * 1024), "\(path)")
        }
        withExtendedLifetime(f) {}
    }

    @Test func aReplyStreamedWithoutALengthIsReadWhole() throws {
        // Every route answers a push with the same reply, sent in three pieces of unknown length.
        let pieces = [#"{"acknowledged":"#, #"7,"hubTime":"#, #"1772406000200}"#].map { Array($0.utf8) }
        let f = try F(routes: [
            .post(SyncHTTPMapping.pushPath) { _ in
                HTTPResponse(status: 200, contentType: "application/json", body: .stream(open: { _ in Pieces(pieces) }))
            },
        ])
        let response = try f.transport().post(SyncHTTPMapping.pushPath, json: [], credential: "x")
        #expect(response.body == pieces.flatMap { $0 })
        #expect(response.headers["transfer-encoding"] == "chunked")
        let reply = try f.client(credential: "x").push(F.push(F.deviceA, []))
        #expect(reply == PushReply(acknowledged: 7, hubTime: 1_772_406_000_200))
        withExtendedLifetime(f) {}
    }

    /// A TCP listener that never accepts (the kernel completes the connection; nobody answers).
    static func silentListener() throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) == 0 && listen(fd, 8) == 0 && getsockname(fd, $0, &size) == 0 }
        }
        try #require(bound)
        return (fd, UInt16(bigEndian: addr.sin_port))
    }

    @Test func aHubThatAcceptsAndNeverAnswersTimesOutWithinTheGivenTime() throws {
        let (fd, port) = try Self.silentListener()
        defer { close(fd) }
        let hub = HubAddress(host: "127.0.0.1", port: port)
        let cases: [(SyncHTTPSClient.Timeouts, SyncTransportError.Stage)] = [
            (.init(connectMilliseconds: 2_000, handshakeMilliseconds: 300, requestMilliseconds: 10_000), .handshake),
            (.init(connectMilliseconds: 2_000, handshakeMilliseconds: 10_000, requestMilliseconds: 400), .request),
        ]
        for (timeouts, stage) in cases {
            let client = SyncHubClient(transport: SyncHTTPSClient(hub: hub, fingerprint: "AB", timeouts: timeouts), credential: "x")
            let start = ContinuousClock.now
            let error = Self.failure { try client.push(F.push(F.deviceA, [])) }
            let took = ContinuousClock.now - start
            #expect(error == .timeout(stage))
            let limit = min(timeouts.handshakeMilliseconds, timeouts.requestMilliseconds)
            #expect(took >= .milliseconds(limit) && took < .milliseconds(limit + 1_500), "\(took)")
        }
    }

    @Test func aHubThatHoldsTheAnswerTimesOutWithinTheRequestTime() throws {
        let release = DispatchSemaphore(value: 0)
        let f = try F(extraRoutes: [
            .post("/slow") { _ in
                _ = release.wait(timeout: .now() + 10)
                return .json(200, "{}")
            },
        ])
        // Released before the server stops (which waits for its connections' threads).
        defer {
            release.signal()
            withExtendedLifetime(f) {}
        }
        let transport = f.transport(timeouts: .init(requestMilliseconds: 500))
        let start = ContinuousClock.now
        #expect(Self.failure { try transport.post("/slow", json: [], credential: nil) } == .timeout(.request))
        #expect(ContinuousClock.now - start < .milliseconds(2_000))
    }

    @Test func aClosedPortIsUnreachable() throws {
        let (fd, port) = try Self.silentListener()
        close(fd)
        let transport = SyncHTTPSClient(hub: HubAddress(host: "127.0.0.1", port: port), fingerprint: "AB")
        guard case .unreachable(let address, _)? = Self.failure({ try transport.post("/x", json: [], credential: nil) }) else {
            Issue.record("not unreachable")
            return
        }
        #expect(address == "127.0.0.1:\(port)")
    }

    @Test func aServerThatIsNotAHubIsAStatusOrABadAnswer() throws {
        let f = try F(routes: [.post(SyncHTTPMapping.pullPath) { _ in .json(200, #"{"hello":1}"#) }])
        let client = f.client(credential: "x")
        #expect(Self.failure { try client.push(F.push(F.deviceA, [])) } == .httpStatus(404))
        guard case .badResponse? = Self.failure({ try client.pull(PullRequest(device: F.deviceA, sentAt: 0, cursor: 0)) }) else {
            Issue.record("not a bad answer")
            return
        }
        withExtendedLifetime(f) {}
    }
}
