import Foundation
import SteppieHTTP
import SteppieSync
import SteppieSyncHTTP
import SteppieTLS

/// A hub on 127.0.0.1 (any free port) over HTTPS with a TLS identity made the way the service
/// makes its own (`TLSIdentityStore` in a temporary folder), answering `SyncRoutes` for a
/// `TestHub`, and routes a test adds.
final class HubFixture {
    let folder: URL
    let identity: TLSIdentity
    let hub: TestHub
    let server: HTTPServer

    static let child = "d2c1b0a9-8f7e-4d6c-9b5a-493827161504"
    static let deviceA = DeviceID("3f0c9a52-8d1e-4c57-9b7a-2f6e1d0c4b11")!
    static let deviceB = DeviceID("7a1e3c5d-2b4f-4e6a-8c0d-1f2e3d4c5b6a")!

    /// `address`: where the hub listens (an IPv4 or IPv6 loopback literal).
    init(address: String = "127.0.0.1", routes: [HTTPRoute]? = nil, extraRoutes: [HTTPRoute] = []) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-sync-http-\(UUID().uuidString)")
        identity = try TLSIdentityStore(folder: folder.appendingPathComponent("tls").path)
            .loadOrCreate(commonName: "Steppie hub", dnsNames: ["localhost"], ipAddresses: ["127.0.0.1", "::1"], now: Date()).identity
        hub = TestHub(invited: [Self.child])
        let tls = HTTPServer.TLS(certificatePEM: identity.certificatePEM, privateKeyPEM: identity.privateKeyPEM)
        server = HTTPServer(HTTPServer.Configuration(address: address, port: 0, tls: tls, hosts: .local),
                            routes: (routes ?? SyncRoutes.make(handler: hub)) + extraRoutes)
        try server.start()
    }

    deinit {
        hub.wake.signal()
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    var address: HubAddress { HubAddress(host: server.address, port: server.port) }

    func transport(fingerprint: String? = nil, timeouts: SyncHTTPSClient.Timeouts = .init(),
                   keeper: SyncConnectionKeeper? = nil) -> SyncHTTPSClient {
        SyncHTTPSClient(hub: address, fingerprint: fingerprint ?? identity.fingerprint, timeouts: timeouts, keeper: keeper)
    }

    func client(credential: String?, fingerprint: String? = nil, timeouts: SyncHTTPSClient.Timeouts = .init()) -> SyncHubClient {
        SyncHubClient(transport: transport(fingerprint: fingerprint, timeouts: timeouts), credential: credential)
    }

    /// Joins `device` with the hub's code; the client that carries its new credential.
    func joined(_ device: DeviceID) throws -> SyncHubClient {
        let reply = try client(credential: nil).join(JoinRequest(code: TestHub.code, deviceName: "Device \(device.text.prefix(4))", device: device))
        return client(credential: reply.credential)
    }

    /// A title change for a routine of the fixture's child, stamped by `device` at the hub's time.
    static func title(_ routine: String, _ text: String, by device: DeviceID, counter: UInt32 = 0) -> SyncEntry {
        .change(FieldChange(entity: .routine, record: routine, child: child, field: "title",
                            value: .object(["en": .string(text), "ko": .string(text)]),
                            stamp: HybridTimestamp(wall: TestHub.now, counter: counter, device: device)))
    }

    static func push(_ device: DeviceID, _ entries: [SyncEntry], from seq: UInt64 = 1, sentAt: Int64 = TestHub.now,
                     protocolVersion: Int = SyncProtocol.version) -> PushRequest {
        PushRequest(protocolVersion: protocolVersion, device: device, sentAt: sentAt,
                    entries: entries.enumerated().map { NumberedEntry(seq: seq + UInt64($0.offset), entry: $0.element) })
    }
}
