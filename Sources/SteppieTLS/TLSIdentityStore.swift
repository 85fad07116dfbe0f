import Foundation
import SteppieFiles

/// Where a server's identity is kept: an owner-only folder (0700) holding the certificate and its
/// key (0600), made on first use and reused on every later start, so the fingerprint a guardian
/// checked once stays the same.
public struct TLSIdentityStore: Sendable {
    public let folder: String
    public var certificatePath: String { folder + "/guardian-cert.pem" }
    public var keyPath: String { folder + "/guardian-key.pem" }

    public init(folder: String) { self.folder = folder }

    /// `<database folder>/tls`, beside the database and its `assets/`.
    public init(databasePath: String) {
        self.init(folder: OwnerOnly.parent(of: databasePath) + "/tls")
    }

    /// The stored identity, or a new one made (and stored) when there is no certificate yet.
    ///
    /// A stored certificate is never replaced silently: one that cannot be read, whose key is
    /// missing or not its own, or that has expired is an error (the guardian removes the folder to
    /// make a new one, and checks the new fingerprint). A key without a certificate is what a
    /// first start interrupted between the two writes leaves; it is replaced.
    public func loadOrCreate(commonName: String, dnsNames: [String], ipAddresses: [String],
                             now: Date) throws(TLSError) -> (identity: TLSIdentity, created: Bool) {
        do throws(FileRefusal) {
            try OwnerOnly.createDirectories(folder)
            if let kind = OwnerOnly.kind(of: folder), kind != .directory { throw FileRefusal.notDirectory(path: folder, kind: kind) }
            try OwnerOnly.tighten(folder)
        } catch { throw .file(error) }
        if OwnerOnly.kind(of: certificatePath) != nil {
            let identity = try load()
            guard identity.notAfter > now else { throw .expired(path: certificatePath, notAfter: identity.notAfter) }
            return (identity, false)
        }
        let identity = try TLSIdentity.generate(commonName: commonName, dnsNames: dnsNames, ipAddresses: ipAddresses, now: now)
        // The key first: a certificate on disk always has its key beside it.
        try write(identity.privateKeyPEM, to: keyPath)
        try write(identity.certificatePEM, to: certificatePath)
        return (identity, true)
    }

    /// The stored identity (files tightened to 0600 if they were looser).
    public func load() throws(TLSError) -> TLSIdentity {
        let certificate = try read(certificatePath)
        guard OwnerOnly.kind(of: keyPath) != nil else { throw .file(.missing(path: keyPath)) }
        let key = try read(keyPath)
        return try TLSIdentity.load(certificatePEM: certificate, privateKeyPEM: key, certificatePath: certificatePath, keyPath: keyPath)
    }

    private func read(_ path: String) throws(TLSError) -> String {
        do throws(FileRefusal) {
            if let kind = OwnerOnly.kind(of: path), kind != .regular { throw FileRefusal.notRegularFile(path: path, kind: kind) }
            try OwnerOnly.tighten(path)
        } catch { throw .file(error) }
        // A PEM certificate or key is a few kB; anything large is not ours.
        guard let bytes = OwnerOnly.head(of: path, count: 64 * 1024) else {
            throw .file(.system(path: path, operation: "open", errno: errno, reason: String(cString: strerror(errno))))
        }
        guard bytes.count < 64 * 1024, let text = String(validating: bytes, as: UTF8.self) else { throw .damaged(path: path) }
        return text
    }

    /// Writes a whole file through a 0600 temporary file, flushed, then renamed into place.
    private func write(_ text: String, to path: String) throws(TLSError) {
        let temporary = path + ".new"
        do throws(FileRefusal) {
            unlink(temporary)
            let fd = try OwnerOnly.openForWriting(temporary, exclusive: true)
            do throws(FileRefusal) {
                try Descriptor.writeAll(fd, text, path: temporary)
                try Descriptor.sync(fd, path: temporary)
            } catch {
                close(fd)
                unlink(temporary)
                throw error
            }
            close(fd)
            guard rename(temporary, path) == 0 else {
                let e = errno
                unlink(temporary)
                throw FileRefusal.system(path: path, operation: "rename", errno: e, reason: String(cString: strerror(e)))
            }
        } catch { throw .file(error) }
    }
}
