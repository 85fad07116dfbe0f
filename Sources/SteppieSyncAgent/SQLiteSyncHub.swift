import Foundation
import SteppieCore
import SteppieSecurity
import SteppieStore
import SteppieSync
import SteppieSyncHTTP
import Synchronization

/// The household hub of `steppie serve --hub` (docs/sync.md): every request on its own
/// connection thread opens its own store on the hub's database (SQLite serializes the writes), so
/// a held pull never holds up a push. A pull with nothing new waits until the feed moves (a push
/// taken here wakes it at once; an edit made on the hub by another process is seen within
/// `pollMilliseconds`) or its wait is over.
package final class SQLiteSyncHub: SyncHubHandling {
    package let databasePath: String
    package let timeZone: TimeZone
    package let clock: any WallClock
    /// The longest a pull is held, whatever the device asked.
    package static let maxWaitMilliseconds = 25_000
    package static let pollMilliseconds = 200
    private let feedMoved = NSCondition()
    private let stopping = Atomic<Bool>(false)
    private let log: @Sendable (CatalogMessage) -> Void
    /// Where photos' and recordings' content is kept, and how it is checked (nil: the hub keeps none).
    package let blobs: SyncBlobFiles?
    /// Fresh copies made into files (nil: copies go in pages, as the centre's hub gives them).
    package let copies: SyncCopyFiles?

    package init(databasePath: String, timeZone: TimeZone, clock: any WallClock, blobs: SyncBlobFiles? = nil,
                 copyFiles: Bool = true, log: @escaping @Sendable (CatalogMessage) -> Void) {
        self.blobs = blobs
        copies = copyFiles ? SyncCopyFiles(databasePath: databasePath) : nil
        self.databasePath = databasePath
        self.timeZone = timeZone
        self.clock = clock
        self.log = log
    }

    private var now: Int64 { SyncProtocol.milliseconds(clock.now()) }

    /// A store of the hub's database for one request; a database that cannot be opened or written
    /// now is `unavailable` (the device keeps its changes and asks again).
    private func withStore<T>(_ body: (Store) throws -> Result<T, SyncRefusal>) throws(SyncRefusal) -> T {
        let result: Result<T, SyncRefusal>
        do {
            let store = try Store(path: databasePath, timeZone: timeZone, mode: .existingOnly)
            let clock = self.clock
            store.setSyncClock { clock.now() }
            result = try body(store)
        } catch {
            log(CatalogMessage("sync.log.hubStore", ["reason": .message(CatalogMessage.log(error))]))
            throw .unavailable
        }
        return try result.get()
    }

    static func credentialHash(_ credential: String) -> String { SHA256.hex(of: Data(credential.utf8)) }

    package func push(_ request: PushRequest, credential: String) throws(SyncRefusal) -> PushReply {
        let reply = try withStore { try $0.syncHubPush(request, credentialHash: Self.credentialHash(credential), now: now) }
        feedMoved.lock()
        feedMoved.broadcast()
        feedMoved.unlock()
        return reply
    }

    package func pull(_ request: PullRequest, credential: String) throws(SyncRefusal) -> PullReply {
        let hash = Self.credentialHash(credential)
        let wait = min(max(request.waitMilliseconds, 0), Self.maxWaitMilliseconds)
        let deadline = Date().addingTimeInterval(Double(wait) / 1000)
        var request = request
        if let copies, let reply = try copyFile(request, hash: hash, copies: copies) { return reply }
        while true {
            let current = request
            let reply = try withStore { store in
                // The feed keeps its horizon (an index range; nothing to do on most requests).
                try store.syncHubForget(now: now)
                return try store.syncHubPull(current, credentialHash: hash, now: now)
            }
            if !reply.entries.isEmpty || reply.more || reply.freshCopy || Date() >= deadline
                || stopping.load(ordering: .sequentiallyConsistent) { return reply }
            // Nothing for this device yet: wait from where this reply left off.
            request = PullRequest(protocolVersion: request.protocolVersion, device: request.device, sentAt: request.sentAt,
                                  cursor: reply.cursor, waitMilliseconds: request.waitMilliseconds, copyAfter: nil)
            feedMoved.lock()
            _ = feedMoved.wait(until: min(deadline, Date().addingTimeInterval(Double(Self.pollMilliseconds) / 1000)))
            feedMoved.unlock()
        }
    }

    /// A fresh copy as one file (`SyncCopyFiles`) when the device's pull is due one; nil when the
    /// feed answers it (the device's files, if any, are then deleted: it took its copy).
    private func copyFile(_ request: PullRequest, hash: String, copies: SyncCopyFiles) throws(SyncRefusal) -> PullReply? {
        guard let (children, position) = try withStore({ try $0.syncHubCopyDue(request, credentialHash: hash, now: now) }) else {
            if copies.has(device: request.device) { copies.finished(device: request.device) }
            return nil
        }
        let made = try withStore { store -> Result<(file: CopyFile, cursor: UInt64)?, SyncRefusal> in
            // The device's copy stops being due only when it fetches the file (`copyChunk`): an
            // answer lost on the way leaves it due, and the next pull makes another file.
            .success(try copies.file(for: request.device, children: children, reusing: CopyFile.name(inMark: request.copyAfter),
                                     fresh: request.copyAfter == "=", position: position, now: clock.now()) { path in
                try store.syncHubWriteCopy(children: children, to: path)
            })
        }
        guard let made else { throw .unavailable }   // as many copies as the hub makes at once are being made
        log(CatalogMessage("sync.log.copyFile", ["bytes": .text(String(made.file.bytes)), "count": .text(String(children.count))]))
        return PullReply(entries: [], cursor: made.cursor, more: true, freshCopy: true, copyAfter: made.file.mark, children: children,
                         hubTime: now, copyFile: made.file)
    }

    /// Answers every held pull now (the service is stopping: its server waits for them).
    package func shutdown() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        feedMoved.lock()
        feedMoved.broadcast()
        feedMoved.unlock()
    }

    package func join(_ request: JoinRequest) throws(SyncRefusal) -> JoinReply {
        guard request.protocolVersion == SyncProtocol.version else {
            throw .protocolVersion(hub: SyncProtocol.version, device: request.protocolVersion)
        }
        let credential = Secrets.randomToken()
        let name = request.deviceName.trimmingCharacters(in: .whitespacesAndNewlines)
        let joined = try withStore { store in
            Result { try store.syncHubJoin(codeHash: SyncCodes.hash(request.code), device: request.device,
                                           name: name.isEmpty ? request.device.text : name,
                                           credentialHash: Self.credentialHash(credential), now: now) }
                .flatMapError { error in
                    if let refusal = error as? SyncRefusal { return .failure(refusal) }
                    return .failure(.unavailable)
                }
        }
        log(CatalogMessage("sync.log.joined", ["device": .text(name), "count": .text(String(joined.children.count))]))
        return JoinReply(credential: credential, hubDevice: joined.hub, children: joined.children)
    }
}

extension SQLiteSyncHub: SyncCopyHandling {
    package func copyChunk(_ name: String, offset: UInt64, credential: String) throws(SyncRefusal) -> [UInt8]? {
        guard let copies else { return nil }
        let device = try withStore { store -> Result<DeviceID, SyncRefusal> in
            guard let device = try store.syncHubDevice(credentialHash: Self.credentialHash(credential)) else { return .failure(.unknownDevice) }
            return .success(device)
        }
        if let first = copies.unfetched(name, device: device) {
            try withStore { store in
                .success(try store.syncHubCopyGiven(device: device, children: first.children, cursor: first.cursor))
            }
            copies.markFetched(name)
        }
        return copies.chunk(name, offset: offset, device: device, now: clock.now())
    }
}

extension SQLiteSyncHub: SyncBlobHandling {
    /// The device's children, or `unknownDevice`.
    private func children(_ store: Store, _ credential: String) throws -> Result<Set<String>, SyncRefusal> {
        guard let children = try store.syncHubDeviceChildren(credentialHash: Self.credentialHash(credential)) else {
            return .failure(.unknownDevice)
        }
        return .success(children)
    }

    package func hasBlob(_ sha256: String, credential: String) throws(SyncRefusal) -> Bool {
        try withStore { store in
            try children(store, credential).map { _ in blobs?.locate(sha256, store: store) != nil }
        }
    }

    package func blob(_ sha256: String, credential: String) throws(SyncRefusal) -> [UInt8]? {
        try withStore { store in
            try children(store, credential).flatMap { given -> Result<[UInt8]?, SyncRefusal> in
                // Another child's content (or none a register names) is answered as absent.
                guard let blobs, (try? store.syncHubBlobNamed(sha256: sha256, children: given)) == true,
                      let path = blobs.locate(sha256, store: store) else { return .success(nil) }
                return .success(SyncBlobFiles.read(path))
            }
        }
    }

    package func putBlob(_ sha256: String, bytes: [UInt8], credential: String) throws(SyncRefusal) -> Bool {
        let stored = try withStore { store in
            try children(store, credential).flatMap { _ -> Result<Bool, SyncRefusal> in
                guard let blobs else { return .failure(.unavailable) }
                return blobs.store(bytes, sha256: sha256, store: store)
            }
        }
        if stored { log(CatalogMessage("sync.log.blobStored", ["sha256": .text(sha256), "bytes": .text(String(bytes.count))])) }
        return stored
    }
}

/// Joining codes: kept at the hub as the SHA-256 of their digits only (`sync invite` shows
/// `1234-5678`; a device may type it with or without the dash).
package enum SyncCodes {
    package static func hash(_ code: String) -> String {
        SHA256.hex(of: Data(code.filter { $0.isASCII && $0.isNumber }.utf8))
    }
}
