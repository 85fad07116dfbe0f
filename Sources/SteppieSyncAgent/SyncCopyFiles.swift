import Foundation
import SteppieCore
import SteppieFiles
import SteppieSecurity
import SteppieSync
import Synchronization

/// The household hub's fresh copies made into files (docs/sync.md, "A fresh copy as one file"),
/// in a folder beside its database (`<database>.copies/`, owner-only, emptied when the hub
/// starts). A file is made for one device, given again to that device only while it fetches it
/// (`copyAfter` names it), and deleted when the device has taken it, when the device is given
/// another, or an hour after it was last asked for. At most `maxBuilding` are made at once; a
/// device that finds the hub busy is told to ask again (`unavailable`), keeping what it has.
package final class SyncCopyFiles: Sendable {
    package let folder: String
    /// A file and whom it is for.
    struct Entry {
        let device: DeviceID
        let children: [String]
        let path: String
        let file: CopyFile
        let cursor: UInt64
        let madeAt: Date
        var lastAsked: Date
        /// The device has fetched a piece (so it recorded the reply naming the file).
        var fetched = false
    }
    private let entries = Mutex<[String: Entry]>([:])
    private let building = Atomic<Int>(0)
    package static let maxBuilding = 2
    package static let keepSeconds: TimeInterval = 3600
    package static let afreshSeconds: TimeInterval = 300

    package init(databasePath: String) {
        folder = databasePath + ".copies"
        // What an earlier run left is never given again (its entries were in that run's memory).
        if let names = try? FileManager.default.contentsOfDirectory(atPath: folder) {
            for name in names { try? FileManager.default.removeItem(atPath: folder + "/" + name) }
        }
    }

    /// The copy file for `device` of `children`: one still here for the same device and children
    /// (the one named `reusing` first: a device going on with its fetch; any other when the device
    /// asks afresh, e.g. after its request for it timed out while it was made), unless `fresh`
    /// (the device refused the one it had); else a new one made by `make` (given the path, it
    /// writes the file and returns its feed position). Nil when `maxBuilding` are being made.
    /// (A file asked for afresh is given again only when made within `afreshSeconds` and at or
    /// before the feed's `position` now: a hub put back in time makes another.)
    package func file(for device: DeviceID, children: [String], reusing name: String?, fresh: Bool = false, position: UInt64,
                      now: Date, make: (String) throws -> UInt64) throws -> (file: CopyFile, cursor: UInt64)? {
        forgetOld(now: now)
        if !fresh, let kept = entries.withLock({ all -> Entry? in
            let mine = all.values.filter { $0.device == device && $0.children == children }
            let recent = mine.filter { now.timeIntervalSince($0.madeAt) <= Self.afreshSeconds && $0.cursor <= position }
            guard var entry = mine.first(where: { $0.file.name == name }) ?? recent.max(by: { $0.cursor < $1.cursor }) else { return nil }
            entry.lastAsked = now
            all[entry.file.name] = entry
            return entry
        }) {
            return (kept.file, kept.cursor)
        }
        finished(device: device)
        guard building.add(1, ordering: .sequentiallyConsistent).newValue <= Self.maxBuilding else {
            building.subtract(1, ordering: .sequentiallyConsistent)
            return nil
        }
        defer { building.subtract(1, ordering: .sequentiallyConsistent) }
        do throws(FileRefusal) { _ = try OwnerOnly.createDirectories(folder) } catch { throw error }
        let name = Self.newName()
        let path = folder + "/" + name
        do {
            let cursor = try make(path)
            guard let (bytes, sha) = Self.measure(path) else {
                throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            let file = CopyFile(name: name, bytes: bytes, sha256: sha)
            entries.withLock {
                $0[name] = Entry(device: device, children: children, path: path, file: file, cursor: cursor, madeAt: now, lastAsked: now)
            }
            return (file, cursor)
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
    }

    /// Up to `CopyFile.chunkBytes` of the file named `name` from `offset`, when it is `device`'s;
    /// nil otherwise (answered as absent). An offset at the end gives no bytes.
    package func chunk(_ name: String, offset: UInt64, device: DeviceID, now: Date) -> [UInt8]? {
        guard let entry = entries.withLock({ all -> Entry? in
            guard var entry = all[name], entry.device == device else { return nil }
            entry.lastAsked = now
            all[name] = entry
            return entry
        }), offset <= entry.file.bytes, let handle = FileHandle(forReadingAtPath: entry.path) else { return nil }
        defer { try? handle.close() }
        do {
            try handle.seek(toOffset: offset)
            let count = Int(min(UInt64(CopyFile.chunkBytes), entry.file.bytes - offset))
            let data = try handle.read(upToCount: count) ?? Data()
            return data.count == count ? Array(data) : nil
        } catch {
            return nil
        }
    }

    /// The children and cursor of the device's file `name` when no piece of it was fetched yet
    /// (nil otherwise): the first fetch shows the device has recorded the reply naming it.
    package func unfetched(_ name: String, device: DeviceID) -> (children: [String], cursor: UInt64)? {
        entries.withLock { all in
            guard let entry = all[name], entry.device == device, !entry.fetched else { return nil }
            return (entry.children, entry.cursor)
        }
    }

    /// Notes that the device fetched a piece of `name`.
    package func markFetched(_ name: String) {
        entries.withLock { $0[name]?.fetched = true }
    }

    /// Deletes the device's files (it took its copy, or is given another).
    package func finished(device: DeviceID) {
        let gone = entries.withLock { all -> [Entry] in
            let mine = all.values.filter { $0.device == device }
            for entry in mine { all[entry.file.name] = nil }
            return mine
        }
        for entry in gone { try? FileManager.default.removeItem(atPath: entry.path) }
    }

    /// Whether the device has a file here (so a pull that needs none can tell it is done).
    package func has(device: DeviceID) -> Bool {
        entries.withLock { $0.values.contains { $0.device == device } }
    }

    private func forgetOld(now: Date) {
        let gone = entries.withLock { all -> [Entry] in
            let old = all.values.filter { now.timeIntervalSince($0.lastAsked) > Self.keepSeconds }
            for entry in old { all[entry.file.name] = nil }
            return old
        }
        for entry in gone { try? FileManager.default.removeItem(atPath: entry.path) }
    }

    /// 32 random lowercase hex digits.
    static func newName() -> String {
        SHA256.hex(of: Data(Secrets.randomToken().utf8)).prefix(32).description
    }

    /// The file's length and SHA-256, read in 1 MiB pieces.
    package static func measure(_ path: String) -> (UInt64, String)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hash = SHA256()
        var bytes: UInt64 = 0
        while let data = try? handle.read(upToCount: 1 << 20), !data.isEmpty {
            hash.update(data)
            bytes += UInt64(data.count)
        }
        return (bytes, hash.finalHex())
    }
}
