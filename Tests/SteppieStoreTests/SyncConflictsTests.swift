import Foundation
import SteppieCore
import SteppieSync
import Testing
@testable import SteppieStore

/// `sync_conflicts` read back for the guardian's sync page: newest first, its kind told without
/// SQLite's words, at most `limit`.
@Suite struct SyncConflictsTests {
    @Test func aChildWhoseNameTheHubAlreadyHasIsNotedAsADuplicateNewestFirst() throws {
        let rig = try SyncRig()
        _ = try rig.hub.store.addChild(name: "Sam", at: rig.hub.now)
        try rig.becomeHub()
        #expect(try rig.hub.store.syncConflicts().isEmpty)
        let device = try StoreFixture()
        let sam = try device.store.addChild(name: "Sam", at: device.now)
        let index = try rig.join(device)
        rig.tick()
        try rig.sync(index)
        // The hub's tables cannot take a second active "Sam": noted, then settled by the hub's own
        // rename (docs/sync.md rule 8), which is noted after it.
        let conflicts = try rig.hub.store.syncConflicts()
        #expect(conflicts.map(\.kind) == [.renamed, .duplicate])
        let first = try #require(conflicts.last)
        #expect(first.entity == SyncEntity.child.rawValue && first.record == sam.id.lowercased && first.kind == .duplicate)
        #expect(first.at == rig.physical)
        #expect(conflicts.first?.from == "Sam" && conflicts.first?.to == "Sam (2)")

        // Newest first, and no more than asked for.
        let raw = try rig.hub.rawConnection()
        try raw.run("INSERT INTO sync_conflicts (at, entity, record, reason) VALUES (?, 'routine', 'r1', 'FOREIGN KEY constraint failed')",
                    [.integer(rig.physical + 5)])
        try raw.run("INSERT INTO sync_conflicts (at, entity, record, reason) VALUES (?, 'routine', 'r2', 'CHECK constraint failed')",
                    [.integer(rig.physical + 9)])
        let newest = try rig.hub.store.syncConflicts(limit: 2)
        #expect(newest.map(\.record) == ["r2", "r1"])
        #expect(newest.map(\.kind) == [.other, .missingParent])
        #expect(try rig.hub.store.syncConflicts(limit: 0).isEmpty)
    }
}
