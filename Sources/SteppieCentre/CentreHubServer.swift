import SteppieHTTP
import SteppieSync
import SteppieSyncHTTP
import SteppieTLS

/// The centre's hub's HTTPS endpoint (`steppie hub --listen ADDR:PORT`): the sync routes, then
/// the pages given (`pages`: the staff pages of SteppieCentreWeb, which depends on this module), on
/// the identity every hub process of the centre shares, answering only to the names given
/// (`--host`; any local name when it listens on loopback).
package final class CentreHubServer: Sendable {
    private let server: HTTPServer
    private let hub: PostgresSyncHub

    package init(address: String, port: UInt16, identity: TLSIdentity, hostNames: [String], maxConnections: UInt32, hub: PostgresSyncHub,
                pages: [HTTPRoute] = []) {
        self.hub = hub
        let tls = HTTPServer.TLS(certificatePEM: identity.certificatePEM, privateKeyPEM: identity.privateKeyPEM)
        var limits = HTTPServer.Limits()
        // Every held pull keeps its connection: room for a centre's devices, each pulling and pushing.
        limits.maxConnections = maxConnections
        limits.maxPerAddress = maxConnections
        let hosts: HTTPServer.HostPolicy = hostNames.isEmpty ? .local : .names(hostNames)
        server = HTTPServer(HTTPServer.Configuration(address: address, port: port, tls: tls, hosts: hosts, limits: limits),
                            routes: SyncRoutes.make(handler: hub, blobs: hub) + pages)
    }

    package var port: UInt16 { server.port }

    /// Binds and starts the threads.
    package func start() throws {
        do throws(HTTPServerError) {
            try server.start()
        } catch {
            switch error {
            case .unavailable(let address, let code): throw CentreHubServerError.unavailable(address: address, errno: code)
            }
        }
    }

    /// Answers the held pulls, then stops the threads (which wait for their requests).
    package func stop() {
        hub.shutdown()
        server.stop()
    }
}

/// Why the hub's endpoint could not start: the address (and errno) it could not listen on.
package enum CentreHubServerError: Error, Equatable, Sendable {
    case unavailable(address: String, errno: Int32)
}
