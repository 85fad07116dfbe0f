import CLibPQ
import Foundation

/// Whether the way to the database stays on this machine or, when it crosses a network, is TLS
/// that checks the server's certificate (docs/centre.md, "Roles and least privilege"). A Unix
/// socket and the loopback addresses stay here; any other host must be reached with `sslmode`
/// `verify-ca` or `verify-full`: libpq's default (`prefer`) falls back to plain text, and
/// `require` encrypts without knowing who answers, so a machine in between could read every
/// child's day and stand in for the database.
///
/// Checked twice: before connecting, on what the connection string and the environment say (a
/// remote host without verifying TLS is refused before anything is sent to it), and once
/// connected, on what libpq actually used — a service file (`service=steppie-hub`) decides the
/// host and the mode only when libpq reads it.
package enum PostgresTransport {
    /// Whether `host` (libpq's `host` or `hostaddr`) stays on this machine: a Unix socket's folder
    /// (`/…`, or `@…` for an abstract socket), `localhost`, 127.0.0.0/8 or `::1`.
    package static func isLocal(_ host: String) -> Bool {
        let h = host.trimmingCharacters(in: .whitespaces)
        if h.isEmpty || h.hasPrefix("/") || h.hasPrefix("@") || h.lowercased() == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, h, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, h, &v6) == 1 {
            let bytes = withUnsafeBytes(of: &v6) { Array($0) }
            if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }                    // ::1
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff { return bytes[12] == 127 }   // ::ffff:127.x
        }
        return false
    }

    /// Whether `sslmode` checks the server's certificate.
    package static func verifiesServer(_ sslmode: String?) -> Bool { sslmode == "verify-ca" || sslmode == "verify-full" }

    /// The first host of `hosts` (libpq's comma-separated list, split) that a connection in
    /// `sslmode` would reach over a network without checking who answers; nil when none.
    package static func exposedHost(hosts: [String], sslmode: String?) -> String? {
        verifiesServer(sslmode) ? nil : hosts.first { !isLocal($0) }
    }

    /// Before connecting: the exposed host the connection string (with libpq's environment
    /// variables under it) names; nil when there is none, or when a service decides (checked
    /// once connected) or the string does not parse (libpq says why when it connects).
    package static func exposedHost(conninfo: String, environment: [String: String]) -> String? {
        guard let settings = settings(conninfo), settings["service"] == nil, environment["PGSERVICE"] == nil else { return nil }
        // `hostaddr` is where libpq connects when it is given; `host` is then the name the certificate is checked against.
        let hosts = settings["hostaddr"] ?? settings["host"] ?? environment["PGHOSTADDR"] ?? environment["PGHOST"] ?? ""
        let sslmode = settings["sslmode"] ?? environment["PGSSLMODE"] ?? "prefer"
        return exposedHost(hosts: hosts.split(separator: ",", omittingEmptySubsequences: false).map(String.init), sslmode: sslmode)
    }

    /// Once connected: the host reached when it is not local and the session is not TLS that
    /// checked the server's certificate; nil otherwise.
    static func exposedHost(of conn: PGConnection) -> String? {
        var sslmode: String?
        if let options = PQconninfo(conn) {
            sslmode = Self.values(options)["sslmode"]
            PQconninfoFree(options)
        }
        return exposedHost(host: PQhost(conn).map { String(cString: $0) } ?? "", address: PQhostaddr(conn).map { String(cString: $0) } ?? "",
                           tls: PQsslInUse(conn) == 1, sslmode: sslmode)
    }

    /// What a made session reached (`host` as named, the numeric `address` of a TCP connection,
    /// empty for a Unix socket), whether it is TLS and in which mode: the host when that is not
    /// local and not TLS that checked the server's certificate, nil otherwise.
    package static func exposedHost(host: String, address: String, tls: Bool, sslmode: String?) -> String? {
        guard !isLocal(address.isEmpty ? host : address) else { return nil }
        return tls && verifiesServer(sslmode) ? nil : (host.isEmpty ? address : host)
    }

    /// The settings a connection string gives (libpq's parser), nil when it does not parse.
    static func settings(_ conninfo: String) -> [String: String]? {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &error) else {
            if let error { PQfreemem(error) }
            return nil
        }
        defer { PQconninfoFree(options) }
        return values(options)
    }

    /// The keywords with a value in a libpq options array (ended by a NULL keyword).
    static func values(_ options: UnsafeMutablePointer<PQconninfoOption>) -> [String: String] {
        var out: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { out[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        return out
    }
}
