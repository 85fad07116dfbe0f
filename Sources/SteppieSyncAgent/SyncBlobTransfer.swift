import Foundation
import SteppieSecurity
import SteppieStore
import SteppieSync
import SteppieSyncHTTP

/// A device's side of photos' and recordings' content (docs/sync.md, "Photos and recordings"):
/// before a push, every blob its entries name that the hub lacks is sent (asked first with
/// `HEAD`, so each is sent once); after a pull, every blob a row names that is missing here is
/// fetched, checked against its hash and written atomically. Until a blob comes, its routine shows
/// what it shows when a photo or recording file is missing; nothing else waits for it.
package enum SyncBlobTransfer {
    /// Sends what the hub lacks. A blob not kept here (its file gone) or refused by the hub (its
    /// bytes no longer match its name) is left out; a transport failure stops the push (its
    /// entries wait and everything is tried again).
    @discardableResult
    package static func send(_ blobs: [SyncBlob], store: Store, client: SyncHubClient) throws -> Int {
        guard !blobs.isEmpty else { return 0 }
        let files = SyncBlobFiles(databasePath: store.path)
        var sent = 0
        for blob in blobs {
            guard let path = files.locate(blob.sha256, store: store), let bytes = SyncBlobFiles.read(path) else { continue }
            if try client.hasBlob(blob.sha256) { continue }
            let result = Result { () throws(SyncTransportError) in try client.putBlob(blob.sha256, bytes: bytes) }
            switch result {
            case .success(let stored): if stored { sent += 1 }
            case .failure(let failure):
                if case .refused(let refusal) = failure, refusal != .unknownDevice, refusal != .unavailable { continue }
                throw failure
            }
        }
        return sent
    }

    /// Fetches every blob named here whose file is missing; returns how many came. A failure
    /// (network, a hash that does not match) leaves that blob for the next pull.
    @discardableResult
    package static func fetchMissing(store: Store, client: SyncHubClient) -> Int {
        let files = SyncBlobFiles(databasePath: store.path)
        guard let named = try? store.syncBlobsNamedHere() else { return 0 }
        var fetched = 0
        for blob in named where files.locate(blob.sha256, store: store) == nil {
            do {
                guard let bytes = try client.blob(blob.sha256, hash: { SHA256.hex(of: Data($0)) }) else { continue }
                try SyncBlobFiles.writeAtomically(bytes, to: files.path(of: blob))
                fetched += 1
            } catch {
                continue
            }
        }
        return fetched
    }
}
