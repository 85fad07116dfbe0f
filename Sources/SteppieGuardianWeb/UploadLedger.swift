import Foundation
import SteppieFiles
import SteppieSecurity
import Synchronization

/// Why a large upload (a backup archive or a routine photo) is refused before or while it arrives.
public enum UploadRefusal: Error, Sendable, Equatable {
    /// This browser's session is already sending one.
    case sessionBusy
    /// `UploadLedger.maxInFlight` uploads are arriving on the device already.
    case deviceBusy
    /// The uploads arriving and waiting for confirmation would take more than the device's room.
    case deviceFull(limitMiB: Int)
    /// The upload could not be written to its file.
    case writeFailed(errno: Int32)

    /// The HTTP status that says it.
    public var status: Int {
        switch self {
        case .sessionBusy: 429
        case .deviceBusy, .deviceFull: 503
        case .writeFailed: 500
        }
    }
}

/// The large uploads of one device, shared by the kiosk's and the home network's guardian pages:
/// how many are arriving (each holds a connection, and a photo form up to ~10 MiB of memory) and
/// how many bytes of backup archives are on disk, arriving or waiting for a confirmation. Without
/// it six parallel 250 MiB uploads from one session reached 1.7 GiB of memory, and archives
/// nobody confirmed stayed on disk for ever.
public final class UploadLedger: Sendable {
    /// Large uploads arriving at once on the device.
    public static let maxInFlight = 2
    /// Large uploads arriving at once from one session (a browser sends one form at a time).
    public static let maxInFlightPerSession = 1
    /// Bytes of archives on disk, arriving and waiting (two whole backups of the largest size).
    public static let maxDiskBytes = 512 << 20

    struct State {
        var next: UInt64 = 0
        /// Uploads arriving: id → session token.
        var flights: [UInt64: String] = [:]
        /// Spooled archives: id → (path, bytes written).
        var files: [UInt64: (path: String, bytes: Int)] = [:]
        /// Leftovers are removed once per ledger (the first guardian pages that start with it).
        var swept = false
    }

    let state = Mutex(State())

    public init() {}

    /// Uploads arriving now (tests).
    public var inFlightCount: Int { state.withLock { $0.flights.count } }
    /// Bytes of spooled archives on disk now (tests).
    public var diskBytes: Int { state.withLock { $0.files.values.reduce(0) { $0 + $1.bytes } } }

    /// A place for one upload of `session`, held until the slot is released or dropped.
    func reserve(session: String) -> Result<UploadSlot, UploadRefusal> {
        state.withLock { s in
            if s.flights.values.filter({ $0 == session }).count >= Self.maxInFlightPerSession { return .failure(.sessionBusy) }
            if s.flights.count >= Self.maxInFlight { return .failure(.deviceBusy) }
            s.next += 1
            s.flights[s.next] = session
            return .success(UploadSlot(ledger: self, id: s.next))
        }
    }

    fileprivate func endFlight(_ id: UInt64) { _ = state.withLock { $0.flights.removeValue(forKey: id) } }

    /// A new owner-only file in `folder` for an archive as it arrives; removed when dropped.
    package func spool(in folder: String) throws(UploadRefusal) -> SpoolFile {
        let path = folder + "/upload-" + Secrets.randomToken(byteCount: 16) + ".zip"
        let fd: Int32
        do {
            _ = try OwnerOnly.createDirectories(folder)
            fd = try OwnerOnly.openForWriting(path, exclusive: true)
        } catch {
            throw .writeFailed(errno: EIO)
        }
        let id = state.withLock { s in
            s.next += 1
            s.files[s.next] = (path, 0)
            return s.next
        }
        return SpoolFile(ledger: self, id: id, path: path, fd: fd)
    }

    /// Counts `count` more bytes of a spooled file, unless the device's room would be passed.
    fileprivate func grow(_ id: UInt64, by count: Int) -> Bool {
        state.withLock { s in
            guard let file = s.files[id] else { return false }
            let total = s.files.values.reduce(0) { $0 + $1.bytes }
            guard total + count <= Self.maxDiskBytes else { return false }
            s.files[id] = (file.path, file.bytes + count)
            return true
        }
    }

    fileprivate func forget(_ id: UInt64) { _ = state.withLock { $0.files.removeValue(forKey: id) } }

    /// Removes every file in `folder` that no upload of this ledger holds: archives left by a
    /// service that was stopped or killed while they waited, and half-written downloads. Done
    /// once per ledger, when the first guardian pages start (nothing can be arriving then).
    func removeLeftovers(in folder: String) {
        let held: Set<String>? = state.withLock { s in
            guard !s.swept else { return nil }
            s.swept = true
            return Set(s.files.values.map(\.path))
        }
        guard let held, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where !held.contains(folder + "/" + name) {
            // Only what Steppie puts there; unlink never follows a link, and a folder is left alone.
            unlink(folder + "/" + name)
        }
    }
}

/// One upload's place among those arriving; given back when released or dropped.
package final class UploadSlot: Sendable {
    private let ledger: UploadLedger
    private let id: UInt64
    fileprivate init(ledger: UploadLedger, id: UInt64) { self.ledger = ledger; self.id = id }
    deinit { ledger.endFlight(id) }
}

/// An uploaded archive in an owner-only file of the upload folder, written as it arrives. The file
/// lives as long as this object: the request that brings it, then the pending restore that keeps
/// it (the session's), so a session that ends by any way — sign-out, idle end, eviction, a PIN
/// change — takes its archive with it.
public final class SpoolFile: Sendable, Equatable {
    public let path: String
    private let ledger: UploadLedger
    private let id: UInt64
    /// The descriptor while the archive arrives (-1 once written), and the bytes written.
    private let file: Mutex<(fd: Int32, size: Int)>

    fileprivate init(ledger: UploadLedger, id: UInt64, path: String, fd: Int32) {
        self.ledger = ledger; self.id = id; self.path = path
        file = Mutex((fd, 0))
    }

    deinit {
        finishWriting()
        unlink(path)
        ledger.forget(id)
    }

    /// Bytes written so far.
    public var size: Int { file.withLock { $0.size } }

    /// Appends a piece of the archive; refused past the device's room or when the write fails.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(UploadRefusal) {
        guard ledger.grow(id, by: bytes.count) else { throw .deviceFull(limitMiB: UploadLedger.maxDiskBytes >> 20) }
        let result: Result<Void, UploadRefusal> = file.withLock { f in
            guard f.fd >= 0 else { return .failure(.writeFailed(errno: EBADF)) }
            do {
                try Descriptor.writeAll(f.fd, bytes, path: path)
            } catch {
                return .failure(.writeFailed(errno: EIO))
            }
            f.size += bytes.count
            return .success(())
        }
        try result.get()
    }

    /// Closes the descriptor (the archive is read again by its path).
    package func finishWriting() {
        file.withLock { f in
            if f.fd >= 0 { close(f.fd) }
            f.fd = -1
        }
    }

    public static func == (a: SpoolFile, b: SpoolFile) -> Bool { a === b }
}

extension GuardianWeb {
    /// The device's large uploads these pages count against (tests).
    public var uploads: UploadLedger { config.uploads }
}
