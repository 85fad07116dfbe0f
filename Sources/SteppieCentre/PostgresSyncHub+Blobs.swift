import Foundation
import SteppieCore
import SteppieFiles
import SteppieSecurity
import SteppieSync
import SteppieSyncHTTP

extension PostgresSyncHub: SyncBlobHandling {
    /// The device's children, or `unknownDevice`.
    private func children(_ credential: String) throws -> Result<Set<String>, SyncRefusal> {
        guard let children = try store.deviceChildren(credentialHash: Self.credentialHash(credential)) else { return .failure(.unknownDevice) }
        return .success(children)
    }

    package func hasBlob(_ sha256: String, credential: String) throws(SyncRefusal) -> Bool {
        try answer { () throws -> Result<Bool, SyncRefusal> in
            guard case .success = try children(credential) else { return .failure(.unknownDevice) }
            return .success(try store.hasBlob(sha256))
        }
    }

    package func blob(_ sha256: String, credential: String) throws(SyncRefusal) -> [UInt8]? {
        // Another child's content (or none a register names) is answered as absent.
        try answer { () throws -> Result<[UInt8]?, SyncRefusal> in
            guard case .success(let given) = try children(credential) else { return .failure(.unknownDevice) }
            return .success(try store.blob(sha256, children: given))
        }
    }

    package func putBlob(_ sha256: String, bytes: [UInt8], credential: String) throws(SyncRefusal) -> Bool {
        let stored = try answer { () throws -> Result<Bool, SyncRefusal> in
            guard case .success = try children(credential) else { return .failure(.unknownDevice) }
            guard let checkBlob else { return .failure(.unavailable) }
            // The household hub's checks: the name, the size, the bytes' own hash; then the content.
            if let refusal = SyncBlob.refusal(name: sha256, count: bytes.count, sha256: { SHA256.hex(of: Data(bytes)) }) {
                return .failure(refusal)
            }
            if try store.hasBlob(sha256) { return .success(false) }
            switch Self.checked(bytes, checkBlob) {
            case .failure(let refusal): return .failure(refusal)
            case .success: return .success(try store.storeBlob(sha256, bytes: bytes))
            }
        }
        if stored { self.log(CatalogMessage("sync.log.blobStored", ["sha256": .text(sha256), "bytes": .text(String(bytes.count))])) }
        return stored
    }

    /// The content check on a private temporary file holding the bytes (the audio check reads a file).
    private static func checked(_ bytes: [UInt8], _ check: ([UInt8], String) -> Result<SyncBlob.Kind, SyncRefusal>)
        -> Result<SyncBlob.Kind, SyncRefusal> {
        let folder = NSTemporaryDirectory() + "steppie-hub-check-" + UUID().uuidString.lowercased()
        let file = folder + "/blob.part"
        defer {
            unlink(file)
            rmdir(folder)
        }
        do {
            _ = try OwnerOnly.createDirectories(folder)
            let fd = try OwnerOnly.openForWriting(file, exclusive: true)
            defer { close(fd) }
            try bytes.withUnsafeBytes { try Descriptor.writeAll(fd, $0, path: file) }
        } catch {
            return .failure(.unavailable)
        }
        return check(bytes, file)
    }
}
