import Foundation
import SteppieHTTP
import SteppieSync
import SteppieSyncHTTP
import Testing

/// A device thread's requests share one HTTPS connection through a `SyncConnectionKeeper`
/// (libmicrohttpd's HTTP/1.1 keep-alive on the real hub fixture), and lose nothing when the hub
/// closes it in between.
@Suite struct SyncKeepAliveTests {
    typealias F = HubFixture

    /// Pushes `count` title changes, numbered from `from`, each answered with its acknowledgement.
    static func pushes(_ client: SyncHubClient, from: UInt64, count: Int) throws {
        for i in 0..<count {
            let seq = from + UInt64(i)
            let entry = F.title("6b1f4e2a-0c3d-4a5b-8c7d-9e0f1a2b3c4d", "Step \(seq)", by: F.deviceA, counter: UInt32(seq))
            let reply = try client.push(F.push(F.deviceA, [entry], from: seq))
            #expect(reply.acknowledged == seq)
        }
    }

    @Test func twentyRequestsThroughAKeeperShareOneConnection() throws {
        let f = try F()
        let credential = try #require(try f.joined(F.deviceA).credential)
        let keeper = SyncConnectionKeeper()
        let kept = SyncHubClient(transport: f.transport(keeper: keeper), credential: credential)
        try Self.pushes(kept, from: 1, count: 15)
        var cursor: UInt64 = 0
        for _ in 0..<5 {
            cursor = try kept.pull(PullRequest(device: F.deviceA, sentAt: TestHub.now, cursor: cursor)).cursor
        }
        #expect(keeper.connectionsOpened == 1)
        #expect(keeper.holdsConnection)
        #expect(f.hub.feed.position == 15)

        #expect(f.hub.calls.filter { $0 == "push" }.count == 15)
    }

    /// The hub restarts between two requests (its connections closed): the next request goes on a
    /// new connection and is taken once.
    @Test func aConnectionTheHubClosedIsReplacedAndTheRequestTakenOnce() throws {
        let f = try F()
        let credential = try #require(try f.joined(F.deviceA).credential)
        let keeper = SyncConnectionKeeper()
        let client = SyncHubClient(transport: f.transport(keeper: keeper), credential: credential)
        try Self.pushes(client, from: 1, count: 2)
        #expect(keeper.connectionsOpened == 1 && keeper.holdsConnection)

        let port = f.server.port
        f.server.stop()
        let tls = HTTPServer.TLS(certificatePEM: f.identity.certificatePEM, privateKeyPEM: f.identity.privateKeyPEM)
        let again = HTTPServer(HTTPServer.Configuration(address: "127.0.0.1", port: port, tls: tls, hosts: .local),
                               routes: SyncRoutes.make(handler: f.hub))
        try again.start()
        defer { again.stop() }
        try Self.pushes(client, from: 3, count: 2)
        #expect(keeper.connectionsOpened == 2)
        #expect(f.hub.feed.position == 4)
        #expect(f.hub.calls.filter { $0 == "push" }.count == 4)
    }

    /// An answer that says `Connection: close`, or one framed by the end of the connection, leaves
    /// nothing kept; a keeper made for one hub never lends its connection to another.
    @Test func aConnectionIsKeptOnlyWhenTheHubLetsItAndOnlyForTheSameHub() throws {
        let f = try F(extraRoutes: [
            .post("/closing") { _ in
                HTTPResponse(status: 200, contentType: "application/json", headers: [("Connection", "close")], body: .bytes(Array("{}".utf8)))
            },
        ])
        let keeper = SyncConnectionKeeper()
        let transport = f.transport(keeper: keeper)
        let answer = try transport.post("/closing", json: [], credential: nil)
        #expect(answer.status == 200 && !keeper.holdsConnection)

        let credential = try #require(try f.joined(F.deviceA).credential)
        try Self.pushes(SyncHubClient(transport: transport, credential: credential), from: 1, count: 1)
        #expect(keeper.holdsConnection && keeper.connectionsOpened == 2)
        let other = try F()
        let otherCredential = try #require(try other.joined(F.deviceA).credential)
        try Self.pushes(SyncHubClient(transport: other.transport(keeper: keeper), credential: otherCredential), from: 1, count: 1)
        #expect(keeper.connectionsOpened == 3)
        #expect(other.hub.feed.position == 1 && f.hub.feed.position == 1)
        keeper.drop()
        #expect(!keeper.holdsConnection)
    }
}
