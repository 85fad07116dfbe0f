import Foundation
import SteppiePostgres
import SteppieTLS

/// The centre's hub's TLS identity, kept in the database (`hub_identity`) so every `steppie hub`
/// process on it presents the same certificate and a device checks one fingerprint whichever
/// answers. Made with the project's identity generator by the first process that finds none,
/// under the `hub_state` row lock: two processes starting at once agree on one.
package enum CentreIdentity {
    /// The stored identity, or a new one made and stored now.
    package static func loadOrCreate(_ pool: PostgresPool, commonName: String, dnsNames: [String], ipAddresses: [String],
                                     now: Date) throws -> TLSIdentity {
        try pool.withConnection { c in
            try c.transaction { c in
                _ = try CentreStore.lockHub(c)
                if let stored = try load(c) { return stored }
                let identity = try TLSIdentity.generate(commonName: commonName, dnsNames: dnsNames, ipAddresses: ipAddresses, now: now)
                try c.run("""
                    INSERT INTO hub_identity (id, certificate_pem, private_key_pem, fingerprint) VALUES ('singleton', $1, $2, $3)
                    """, [.text(identity.certificatePEM), .text(identity.privateKeyPEM), .text(identity.fingerprint)])
                return identity
            }
        }
    }

    /// The stored identity, nil when no hub process has made one yet.
    package static func load(_ pool: PostgresPool) throws -> TLSIdentity? {
        try pool.withConnection { c in try load(c) }
    }

    private static func load(_ c: PostgresConnection) throws -> TLSIdentity? {
        guard let (certificate, key) = try c.queryFirst("SELECT certificate_pem, private_key_pem FROM hub_identity WHERE id = 'singleton'", [],
                                                        { (try $0.text(0), try $0.text(1)) }) else { return nil }
        return try TLSIdentity.load(certificatePEM: certificate, privateKeyPEM: key,
                                    certificatePath: "hub_identity.certificate_pem", keyPath: "hub_identity.private_key_pem")
    }
}
