import Foundation
import SteppieCore
import SteppieSync
import Testing
@testable import SteppieStore

/// A household hub's disk put back to an older copy (docs/sync.md, "A hub put back in time"), on
/// SQLite files: the device notices the gap and sends again everything it made, in an order the
/// hub takes.
@Suite struct SyncHubPutBackStoreTests {
    /// Pushes until nothing waits, handing each refusal to the device as the service does, then pulls.
    static func syncThroughRefusals(_ rig: SyncRig, _ index: Int) throws -> [SyncRefusal] {
        let store = rig.devices[index].store
        var refusals: [SyncRefusal] = []
        for _ in 0..<20 {
            guard let request = try store.syncPushRequest(physical: rig.physical) else { break }
            switch try rig.hub.store.syncHubPush(request, credentialHash: SyncRig.hash(index), now: rig.physical) {
            case .success(let reply): try store.syncPushed(reply, physical: rig.physical)
            case .failure(let refusal):
                refusals.append(refusal)
                try store.syncRefused(refusal, physical: rig.physical)
            }
        }
        try rig.sync(index)
        return refusals
    }

    /// A child made after the hub's backup, and a press of its card waiting when the hub comes back
    /// without it: the child's own fields go first, so the hub gives the child to the device again
    /// before it meets the press (sent after them it was refused as a child not given, for ever).
    /// Before it, a rename the hub took with its reply lost, and a newer rename of the same field
    /// not yet sent: both wait at once and are numbered again without clashing.
    @Test func aChildMadeAfterTheHubsBackupComesBackBeforeTheEntriesThatNameIt() throws {
        let rig = try SyncRig()
        try rig.becomeHub()
        let home = try StoreFixture()
        let mina = try home.childWithMorning("Mina")
        try rig.join(home)
        try rig.sync(0)
        let backup = rig.hub.directory.appendingPathComponent("backup.db").path
        #expect(try SyncStoreTests.sqlite3(rig.hub.path, ".backup '\(backup)'") == 0)

        // After the backup: a new child with its set, taken by the hub.
        rig.tick()
        home.now += 1
        let joon = try home.childWithMorning("Joon")
        try rig.sync(0)
        #expect(try rig.hub.store.child(id: joon.id).displayName == "Joon")
        // A rename the hub takes but whose reply never arrives, then a newer one of the same field.
        rig.tick()
        home.now += 1
        try home.store.renameChild(id: mina.id, to: "Mina K", at: home.now)
        let lost = try #require(try home.store.syncPushRequest(physical: rig.physical))
        guard case .success = try rig.hub.store.syncHubPush(lost, credentialHash: SyncRig.hash(0), now: rig.physical) else {
            Issue.record("the hub refused the rename")
            return
        }
        rig.tick()
        home.now += 1
        try home.store.renameChild(id: mina.id, to: "Mina Kim", at: home.now)
        // A card of Joon's pressed: waiting, it names a child the hub is about to forget.
        _ = try home.store.complete(childId: joon.id, day: home.today, at: home.now)

        // The hub's disk is put back.
        #expect(try SyncStoreTests.sqlite3(rig.hub.path, ".restore '\(backup)'") == 0)
        #expect(throws: StoreError.self) { try rig.hub.store.child(id: joon.id) }
        rig.tick()
        home.now += 1

        let refusals = try Self.syncThroughRefusals(rig, 0)
        #expect(refusals.allSatisfy { if case .gap = $0 { true } else { false } }, "\(refusals)")
        #expect(try home.store.syncPendingCount() == 0)
        #expect(try SyncRig.state(rig.hub.store) == SyncRig.state(home.store))
        #expect(try rig.hub.store.child(id: joon.id).displayName == "Joon")
        #expect(try rig.hub.store.child(id: mina.id).displayName == "Mina Kim")
        let day = try rig.hub.store.today(childId: joon.id, day: home.today)
        #expect(day.items.filter(\.isCompleted).count == 1, "the press made after the backup is on the hub")
    }
}
