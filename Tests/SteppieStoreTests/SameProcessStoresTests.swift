import Foundation
import SteppieCore
import SteppieStore
import Testing

/// Two stores on one file in one process (the service and its guardian pages): opening the second
/// must not release the first one's SQLite locks, or another process closing its connection
/// deletes the WAL and the service's next write fails (or worse, goes to an unlinked file).
@Suite("Stores in one process")
struct SameProcessStoresTests {
    @Test("a second store on the same file keeps the WAL alive when another process opens and closes the database")
    func secondStoreKeepsLocks() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-two-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/steppie.db"
        let zone = TimeZone(identifier: "Asia/Seoul") ?? .current
        let now = Date(timeIntervalSince1970: 1_764_547_200)
        let first = try Store(path: path, timeZone: zone)
        _ = try first.addChild(name: "Mina", at: now)
        let second = try Store(path: path, timeZone: zone, mode: .existingOnly)
        #expect(try second.children().count == 1)
        let walBefore = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.systemFileNumber] as? Int
        // Another process opens the database and closes it: it must see our connections.
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [path, "SELECT count(*) FROM children;"]
        sqlite.standardOutput = FileHandle.nullDevice
        try sqlite.run()
        sqlite.waitUntilExit()
        #expect(sqlite.terminationStatus == 0)
        let walAfter = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.systemFileNumber] as? Int
        #expect(walBefore != nil && walAfter == walBefore, "the WAL was deleted or replaced")
        try first.checkFileIdentity()
        try second.checkFileIdentity()
        _ = try first.addChild(name: "Joon", at: now)
        _ = try second.addChild(name: "Ara", at: now)
        #expect(try Store(path: path, timeZone: zone).children().count == 3)
    }
}
