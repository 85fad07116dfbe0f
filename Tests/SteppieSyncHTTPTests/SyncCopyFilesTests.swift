import Foundation
import SteppieSync
import SteppieSyncAgent
import Testing

/// The household hub's copy files (`SyncCopyFiles`, docs/sync.md "A fresh copy as one file"):
/// given again to their device only, made anew when the device refused one, when its children
/// changed or when the hub's feed is now before the file's position; pieces only to their device.
@Suite struct SyncCopyFilesTests {
    static let mina = DeviceID("3f0c9a52-8d1e-4c57-9b7a-2f6e1d0c4b11")!
    static let joon = DeviceID("7a1e3c5d-2b4f-4e6a-8c0d-1f2e3d4c5b6a")!

    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-copies-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        var database: String { url.appendingPathComponent("hub.db").path }
    }

    /// Writes `bytes` of a pattern as the file and returns `cursor`.
    static func maker(_ cursor: UInt64, bytes: Int = 10_000) -> (String) throws -> UInt64 {
        { path in
            try Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 * 7) }).write(to: URL(fileURLWithPath: path))
            return cursor
        }
    }

    @Test func aFileIsGivenAgainOnlyToItsDeviceAndOnlyWhileItStillHolds() throws {
        let folder = try Folder()
        let copies = SyncCopyFiles(databasePath: folder.database)
        let now = Date()
        let first = try #require(try copies.file(for: Self.mina, children: ["a"], reusing: nil, position: 10, now: now,
                                                 make: Self.maker(10)))
        #expect(first.cursor == 10 && first.file.bytes == 10_000 && SyncBlob.isHash(first.file.sha256))
        // Going on with its fetch, or asking afresh soon after: the same file.
        let again = try #require(try copies.file(for: Self.mina, children: ["a"], reusing: first.file.name, position: 12, now: now,
                                                 make: Self.maker(12)))
        let afresh = try #require(try copies.file(for: Self.mina, children: ["a"], reusing: nil, position: 12, now: now,
                                                  make: Self.maker(12)))
        #expect(again.file == first.file && afresh.file == first.file)
        // Pieces: the whole file in order for its device, nothing for another.
        #expect(copies.chunk(first.file.name, offset: 0, device: Self.mina, now: now)?.count == 10_000)
        #expect(copies.chunk(first.file.name, offset: 10_000, device: Self.mina, now: now) == [])
        #expect(copies.chunk(first.file.name, offset: 10_001, device: Self.mina, now: now) == nil)
        #expect(copies.chunk(first.file.name, offset: 0, device: Self.joon, now: now) == nil)
        // Refused by the device: another file, the old one gone.
        let refused = try #require(try copies.file(for: Self.mina, children: ["a"], reusing: nil, fresh: true, position: 12, now: now,
                                                   make: Self.maker(12)))
        #expect(refused.file.name != first.file.name)
        #expect(copies.chunk(first.file.name, offset: 0, device: Self.mina, now: now) == nil)
        // Other children, or a feed now before the file's position (a hub put back in time): another.
        let other = try #require(try copies.file(for: Self.mina, children: ["a", "b"], reusing: nil, position: 12, now: now,
                                                 make: Self.maker(12)))
        let back = try #require(try copies.file(for: Self.mina, children: ["a", "b"], reusing: nil, position: 5, now: now,
                                                make: Self.maker(5)))
        #expect(Set([refused.file.name, other.file.name, back.file.name]).count == 3 && back.cursor == 5)
        // Asked afresh after five minutes: another (the old one is not given to a new request).
        let later = try #require(try copies.file(for: Self.mina, children: ["a", "b"], reusing: nil, position: 20,
                                                 now: now.addingTimeInterval(SyncCopyFiles.afreshSeconds + 1), make: Self.maker(20)))
        #expect(later.file.name != back.file.name && later.cursor == 20)
        // Only the device's newest file is kept on disk.
        let left = try FileManager.default.contentsOfDirectory(atPath: copies.folder)
        #expect(left == [later.file.name])
        // A hub that starts again empties the folder.
        _ = SyncCopyFiles(databasePath: folder.database)
        #expect(try FileManager.default.contentsOfDirectory(atPath: copies.folder).isEmpty)
    }
}
