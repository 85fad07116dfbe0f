import Foundation
import SteppieGuardianWeb
import SteppieHTTP
import SteppieTLS

/// One of the service's page servers: an `HTTPServer` given the kiosk's or the home network's
/// route table, the pages' security headers and host policy.
final class PageServer {
    let server: HTTPServer
    /// The guardian pages it serves (nil: none).
    let guardian: GuardianWeb?
    /// The board whose streams end when this server stops (the kiosk's).
    private let board: StateBoard?

    private init(_ server: HTTPServer, guardian: GuardianWeb?, board: StateBoard?) {
        self.server = server
        self.guardian = guardian
        self.board = board
    }

    deinit { stop() }

    /// The kiosk's pages on loopback, plain HTTP.
    static func kiosk(address: String, port: UInt16, webDirectory: URL, photosDirectory: URL?, board: StateBoard,
                      guardian: GuardianWeb? = nil, press: @escaping KioskRoutes.Press) -> PageServer {
        let routes = KioskRoutes.kiosk(board: board, webDirectory: webDirectory, photosDirectory: photosDirectory,
                                       guardian: guardian, press: press)
        let configuration = HTTPServer.Configuration(address: address, port: port, hosts: .local, headers: securityHeaders)
        return PageServer(HTTPServer(configuration, routes: routes), guardian: guardian, board: board)
    }

    /// The guardian pages on the home network, HTTPS only with the device's certificate,
    /// answering to `hostNames` (addresses and host names, without the port).
    static func guardianLAN(address: String, port: UInt16, identity: TLSIdentity, hostNames: [String], webDirectory: URL,
                            guardian: GuardianWeb) -> PageServer {
        let tls = HTTPServer.TLS(certificatePEM: identity.certificatePEM, privateKeyPEM: identity.privateKeyPEM)
        let configuration = HTTPServer.Configuration(address: address, port: port, tls: tls, hosts: .names(hostNames),
                                                     headers: securityHeaders)
        return PageServer(HTTPServer(configuration, routes: KioskRoutes.guardianLAN(webDirectory: webDirectory, guardian: guardian)),
                          guardian: guardian, board: nil)
    }

    // No Strict-Transport-Security: with a self-signed certificate it would make the browser's
    // "proceed" (after the fingerprint is checked) impossible for that name.
    static let securityHeaders: [String: String] = [
        "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; media-src 'self' blob:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        "X-Content-Type-Options": "nosniff",
        // Not no-referrer: with it a browser sends `Origin: null` on form posts, and the origin check needs it.
        "Referrer-Policy": "same-origin",
        "X-Frame-Options": "DENY",
    ]

    var port: UInt16 { server.port }
    var address: String { server.address }
    var allowedHosts: Set<String> { server.allowedHosts }

    /// Binds and starts the threads; `ServiceError.httpUnavailable` when the address cannot be used.
    func start() throws(ServiceError) {
        do throws(HTTPServerError) {
            try server.start()
        } catch {
            switch error {
            case .unavailable(let address, let code): throw .httpUnavailable(address: address, errno: code)
            }
        }
    }

    /// Ends the event streams (the kiosk's) and stops the threads.
    func stop() {
        board?.close()
        server.stop()
    }

    /// The guardian pages' address on this server, with `host` (an address or a name it answers to).
    func guardianURL(host: String) -> String { server.url(host: host, path: "/guardian/") }

    /// The address a browser opens for a child.
    func pageURL(child: String) -> String { server.url(host: server.address, path: "/child/\(child)") }
}
