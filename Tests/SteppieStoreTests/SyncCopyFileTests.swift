import Foundation
import SteppieCore
import SteppieSync
import Testing
@testable import SteppieStore

/// A fresh copy given as one file (docs/sync.md, "A fresh copy as one file"): a device given some
/// children gets a file of theirs only, and a file that is not what its reply said (another
/// shape, other children, a value that cannot be read, bytes that are not SQLite) is refused
/// whole, the device's database unchanged.
@Suite struct SyncCopyFileTests {
    /// A hub with two children of one device, and a second device given only the first of them.
    static func rig() throws -> (SyncRig, given: String, other: String) {
        let rig = try SyncRig()
        try rig.becomeHub()
        let home = try StoreFixture()
        let mina = try home.childWithMorning("Mina"), joon = try home.childWithMorning("Joon")
        try rig.join(home)
        _ = try home.store.complete(childId: mina.id, day: home.today, at: home.now)
        _ = try home.store.complete(childId: joon.id, day: home.today, at: home.now)
        try rig.sync(0)
        return (rig, mina.id.lowercased, joon.id.lowercased)
    }

    @Test func aFileHoldsOnlyTheChildrenTheDeviceWasGiven() throws {
        let (rig, given, other) = try Self.rig()
        let school = try StoreFixture()
        try rig.join(school, children: [given])
        try rig.sync(1, copyAsFile: true)
        let file = try Connection(path: try #require(rig.lastCopyFile), wal: false)
        let children = Set(try file.query("SELECT child FROM registers UNION SELECT child FROM targets") { $0.text(0) })
        #expect(children == [given])
        let titles = try file.query("SELECT title FROM looks") { $0.text(0) }
        #expect(!titles.isEmpty)
        #expect(try SyncRig.state(school.store) == SyncRig.state(rig.hub.store, children: [given]))
        #expect(try SyncRig.state(school.store).allSatisfy { !$0.contains(other) })
    }

    /// Each way of spoiling a file (SQL run on a copy the hub wrote).
    static let spoilers: [(String, String)] = [
        ("a stamp that is not one", "UPDATE registers SET stamp = 'soon' WHERE rowid = 1"),
        ("a value that is not JSON", "UPDATE registers SET value = '{' WHERE rowid = 1"),
        ("an entity no device knows", "UPDATE registers SET entity = 'payroll' WHERE rowid = 1"),
        ("other children", "UPDATE meta SET value = '[]' WHERE key = 'children'"),
        ("another cursor", "UPDATE meta SET value = '999999' WHERE key = 'cursor'"),
        ("another format", "UPDATE meta SET value = '2' WHERE key = 'format'"),
        ("a table more", "CREATE TABLE extra (x)"),
        ("a trigger", "CREATE TRIGGER t AFTER INSERT ON meta BEGIN SELECT 1; END"),
        ("an event of no target", "UPDATE events SET target = 424242"),
        ("an event kind out of range", "UPDATE events SET kind = 9"),
        ("an origin that is no device id", "UPDATE origins SET device = 'x'"),
    ]

    @Test(arguments: spoilers.indices)
    func aSpoiledFileIsRefusedAndNothingChanges(_ index: Int) throws {
        let (name, spoil) = Self.spoilers[index]
        let (rig, given, _) = try Self.rig()
        let school = try StoreFixture()
        try rig.join(school, children: [given])
        // The hub writes the file and the device records the reply naming it, as `sync` does.
        let request = try school.store.syncPullRequest(physical: rig.physical)
        guard case .success(let (due, _)?) = try rig.hub.store.syncHubCopyDue(request, credentialHash: SyncRig.hash(1), now: rig.physical) else {
            Issue.record("no copy due")
            return
        }
        let path = school.directory.appendingPathComponent("copy").path
        let cursor = try rig.hub.store.syncHubWriteCopy(children: due, to: path)
        let file = CopyFile(name: String(repeating: "b", count: 32), bytes: 0, sha256: "")
        let reply = PullReply(entries: [], cursor: cursor, more: true, freshCopy: true, copyAfter: file.mark, children: due,
                              hubTime: rig.physical, copyFile: file)
        try school.store.syncPulled(reply, physical: rig.physical)
        try Connection(path: path, wal: false).execute(spoil)
        let before = try school.store.dump()
        #expect(throws: StoreError.self, "\(name)") { try school.store.syncApplyCopyFile(at: path, reply: reply, physical: rig.physical) }
        do {
            try school.store.syncApplyCopyFile(at: path, reply: reply, physical: rig.physical)
        } catch let error as StoreError {
            guard case .syncCopyFileRefused = error else {
                Issue.record("\(name): \(error)")
                return
            }
        }
        #expect(try school.store.dump() == before, "\(name)")
        // The unspoiled file is still taken afterwards (nothing was left half done).
        let clean = school.directory.appendingPathComponent("clean").path
        let again = try rig.hub.store.syncHubWriteCopy(children: due, to: clean)
        #expect(again == cursor)
        try school.store.syncApplyCopyFile(at: clean, reply: reply, physical: rig.physical)
        #expect(try SyncRig.state(school.store) == SyncRig.state(rig.hub.store, children: [given]))
    }

    @Test func bytesThatAreNotSQLiteAreRefused() throws {
        let (rig, given, _) = try Self.rig()
        let school = try StoreFixture()
        try rig.join(school, children: [given])
        let file = CopyFile(name: String(repeating: "c", count: 32), bytes: 0, sha256: "")
        let reply = PullReply(entries: [], cursor: 1, more: true, freshCopy: true, copyAfter: file.mark, children: [given],
                              hubTime: rig.physical, copyFile: file)
        try school.store.syncPulled(reply, physical: rig.physical)
        let path = school.directory.appendingPathComponent("junk").path
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        let before = try school.store.dump()
        do {
            try school.store.syncApplyCopyFile(at: path, reply: reply, physical: rig.physical)
            Issue.record("junk taken")
        } catch let error as StoreError {
            guard case .syncCopyFileRefused = error else {
                Issue.record("\(error)")
                return
            }
        }
        #expect(try school.store.dump() == before)
    }
}
