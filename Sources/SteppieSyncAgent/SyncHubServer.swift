import SteppieHTTP
import SteppieSync
import SteppieSyncHTTP
import SteppieTLS

/// The hub's HTTPS endpoint (`steppie serve --hub ADDR:PORT`): the sync routes only, on the
/// service's own certificate (the one its guardian pages present, so a device checks the same
/// fingerprint the guardian already knows), answering only to the names of this machine.
package final class SyncHubServer: Sendable {
    private let server: HTTPServer
    private let hub: SQLiteSyncHub

    package init(address: String, port: UInt16, identity: TLSIdentity, hostNames: [String], hub: SQLiteSyncHub) {
        self.hub = hub
        let tls = HTTPServer.TLS(certificatePEM: identity.certificatePEM, privateKeyPEM: identity.privateKeyPEM)
        var limits = HTTPServer.Limits()
        // A held pull keeps its connection: room for a household's devices, each pulling and pushing.
        limits.maxConnections = 64
        limits.maxPerAddress = 16
        let hosts: HTTPServer.HostPolicy = hostNames.isEmpty ? .local : .names(hostNames)
        server = HTTPServer(HTTPServer.Configuration(address: address, port: port, tls: tls, hosts: hosts, limits: limits),
                            routes: SyncRoutes.make(handler: hub, blobs: hub, copies: hub))
    }

    package var port: UInt16 { server.port }

    /// Binds and starts the threads; the address that could not be used and why (errno).
    package func start() throws -> Void {
        do throws(HTTPServerError) {
            try server.start()
        } catch {
            switch error {
            case .unavailable(let address, let code): throw SyncHubServerError.unavailable(address: address, errno: code)
            }
        }
    }
    /// Answers the held pulls, then stops the threads (which wait for their requests).
    package func stop() {
        hub.shutdown()
        server.stop()
    }
}

/// Why the hub's endpoint could not start.
package enum SyncHubServerError: Error, Equatable, Sendable {
    case unavailable(address: String, errno: Int32)
}
