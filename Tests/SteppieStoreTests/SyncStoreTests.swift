import Foundation
import SteppieCore
import SteppieSync
import Testing
@testable import SteppieStore

/// A hub and devices on SQLite files, synced in process (the protocol's messages handed across
/// without HTTP): the store's side of docs/sync.md against the reference model's rules.
final class SyncRig {
    let hub: StoreFixture
    var devices: [StoreFixture] = []
    var ids: [DeviceID] = []
    let hubID = DeviceID(UUID())
    /// Milliseconds since 1970 on every clock of the rig (moved by hand).
    var physical: Int64
    /// Entries per pull reply (small ones make a fresh copy come in many pages).
    var pullLimit = SyncProtocol.maxBatchEntries
    /// The last copy file a `sync(copyAsFile: true)` wrote (kept for the tests to look at).
    var lastCopyFile: String?

    init() throws {
        hub = try StoreFixture()
        physical = Int64(hub.now.timeIntervalSince1970 * 1000)
        hub.store.setSyncClock { [unowned self] in Date(timeIntervalSince1970: Double(self.physical) / 1000) }
    }

    static func hash(_ n: Int) -> String { String(repeating: String(n % 10), count: 64) }

    func becomeHub() throws { try hub.store.becomeSyncHub(device: hubID, at: hub.now) }

    /// A device that joins with a code for these children.
    @discardableResult
    func join(_ device: StoreFixture, children: [String] = []) throws -> Int {
        let index = devices.count
        let code = SyncRig.hash(100 + index)
        try hub.store.syncHubInvite(codeHash: code, children: children, expiresAt: physical + 600_000)
        let id = DeviceID(UUID())
        device.store.setSyncClock { [unowned self] in Date(timeIntervalSince1970: Double(self.physical) / 1000) }
        let joined = try hub.store.syncHubJoin(codeHash: code, device: id, name: "device \(index)", credentialHash: SyncRig.hash(index),
                                              now: physical)
        try device.store.joinSyncHub(device: id, hubURL: "https://127.0.0.1:1", fingerprint: "f", hubDevice: joined.hub,
                                     credential: "c\(index)", at: device.now)
        devices.append(device)
        ids.append(id)
        return index
    }

    /// Pushes everything the device has waiting, then pulls until the hub has nothing more
    /// (`copyAsFeed`: a fresh copy's pages applied as feed pages, each folding its own days).
    func sync(_ index: Int, copyAsFeed: Bool = false, copyAsFile: Bool = false) throws {
        let store = devices[index].store
        while let request = try store.syncPushRequest(physical: physical) {
            switch try hub.store.syncHubPush(request, credentialHash: SyncRig.hash(index), now: physical) {
            case .success(let reply): try store.syncPushed(reply, physical: physical)
            case .failure(let refusal): throw refusal
            }
        }
        while true {
            let request = try store.syncPullRequest(physical: physical)
            if copyAsFile, case .success(let (due, _)?) = try hub.store.syncHubCopyDue(request, credentialHash: SyncRig.hash(index), now: physical) {
                // As `SQLiteSyncHub` gives it: the file written, the device's copy recorded, the reply naming it.
                let path = devices[index].directory.appendingPathComponent("copy-\(UUID().uuidString)").path
                let cursor = try hub.store.syncHubWriteCopy(children: due, to: path)
                try hub.store.syncHubCopyGiven(device: ids[index], children: due, cursor: cursor)
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                let file = CopyFile(name: String(repeating: "a", count: 32), bytes: UInt64(data.count), sha256: "")
                let reply = PullReply(entries: [], cursor: cursor, more: true, freshCopy: true, copyAfter: file.mark, children: due,
                                      hubTime: physical, copyFile: file)
                try store.syncPulled(reply, physical: physical)
                try store.syncApplyCopyFile(at: path, reply: reply, physical: physical)
                lastCopyFile = path
                continue
            }
            switch try hub.store.syncHubPull(request, credentialHash: SyncRig.hash(index), now: physical, limit: pullLimit) {
            case .success(var reply):
                if copyAsFeed {
                    reply = PullReply(entries: reply.entries, cursor: reply.cursor, more: reply.more, freshCopy: false,
                                      copyAfter: reply.copyAfter, children: reply.children, hubTime: reply.hubTime)
                }
                try store.syncPulled(reply, physical: physical)
                if !reply.more { return }
            case .failure(let refusal): throw refusal
            }
        }
    }

    func syncAll() throws {
        for i in devices.indices { try sync(i) }
        for i in devices.indices { try sync(i) }
    }

    /// Every register and event of a store, canonical.
    static func state(_ store: Store, children: Set<String>? = nil) throws -> [[String]] {
        var lines: [[String]] = []
        _ = try store.syncCanonicalState(children: children) { lines.append($0) }
        return lines
    }

    func tick(seconds: Double = 1) { physical += Int64(seconds * 1000) }

    /// A hub, a home device with a child and its morning set, and a school device given that
    /// child (or, `schoolGetsTheChild: false`, no child), both synced.
    static func homeAndSchool(schoolGetsTheChild: Bool = true) throws -> (SyncRig, StoreFixture, StoreFixture, Child) {
        let rig = try SyncRig()
        try rig.becomeHub()
        let home = try StoreFixture(), school = try StoreFixture()
        let child = try home.childWithMorning()
        try rig.join(home)
        try rig.sync(0)
        try rig.join(school, children: schoolGetsTheChild ? [child.id.lowercased] : [])
        if schoolGetsTheChild { try rig.sync(1) }
        return (rig, home, school, child)
    }
}

@Suite struct SyncStoreTests {
    @Test func aDatabaseThatNeverJoinedLogsNothing() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        _ = try f.store.complete(childId: child.id, day: f.today, at: f.now)
        let raw = try f.rawConnection()
        for table in ["sync_registers", "sync_events", "sync_outbox", "sync_feed", "sync_state"] {
            #expect(try raw.queryFirst("SELECT COUNT(*) FROM \(table)") { $0.int(0) } == 0, "\(table)")
        }
    }

    @Test func joiningLogsEveryRowAndEveryCompletionOnce() throws {
        let rig = try SyncRig()
        try rig.becomeHub()
        let device = try StoreFixture()
        let child = try device.childWithMorning()
        _ = try device.store.complete(childId: child.id, day: device.today, at: device.now)
        try rig.join(device)
        let raw = try device.rawConnection()
        let routines = try raw.queryFirst("SELECT COUNT(*) FROM routines") { $0.int(0) } ?? 0
        #expect(routines > 2)
        // Every field of every routine, set and child, each set's order and the child's active set.
        let expected = routines * SyncColumns.routines.fields.count + SyncColumns.routineSets.fields.count + 1
            + SyncColumns.children.fields.count + 1
        #expect(try raw.queryFirst("SELECT COUNT(*) FROM sync_registers") { $0.int(0) } == expected)
        #expect(try raw.queryFirst("SELECT COUNT(*) FROM sync_events WHERE kind = 'press'") { $0.int(0) } == 1)
        #expect(try device.store.syncPendingCount() == expected + 1)
    }

    @Test func aHubMadeFromADatabaseWithHistoryHoldsItAllOutsideTheFeedAndANewDeviceCopiesIt() throws {
        let rig = try SyncRig()
        let child = try rig.hub.childWithMorning()
        let day = rig.hub.today
        let pressed = try rig.hub.store.complete(childId: child.id, day: day, at: rig.hub.now)
        let routines = try rig.hub.store.today(childId: child.id, day: day).items.map(\.routine)
        _ = try rig.hub.store.setDayEntry(childId: child.id, routineId: routines[1].id, day: day, done: true,
                                          at: rig.hub.now.addingTimeInterval(60))
        try rig.becomeHub()
        let raw = try rig.hub.rawConnection()
        let count = { (sql: String) in try raw.queryFirst(sql) { $0.int(0) } ?? -1 }
        // Every field, each set's order and the child's active set, as the join's baseline has them.
        let expected = routines.count * SyncColumns.routines.fields.count + SyncColumns.routineSets.fields.count + 1
            + SyncColumns.children.fields.count + 1
        #expect(try count("SELECT COUNT(*) FROM sync_registers") == expected)
        #expect(try count("SELECT COUNT(*) FROM sync_feed") == 0)
        // The presses and the correction as events, each its own stamp in the order they were
        // made, and the hub's clock after them.
        let events = try raw.query("SELECT id, kind, stamp FROM sync_events ORDER BY stamp") { [$0.text(0), $0.text(1), $0.text(2)] }
        // (The correction's completed log is a press too, as in a joining device's baseline.)
        #expect(events.map { $0[1] }.sorted() == ["correctDone", "press", "press"])
        #expect(events[0][0] == pressed.id.lowercased)
        #expect(Set(events.map { $0[2] }).count == events.count)
        let clock = try #require(try rig.hub.store.syncState()?.clock.description)
        #expect(events.allSatisfy { $0[2] <= clock })
        // A later edit on the hub sorts after the baseline; a new device copies everything.
        rig.tick()
        try rig.hub.store.renameChild(id: child.id, to: "Mina B", at: rig.hub.now)
        #expect(try count("SELECT COUNT(*) FROM sync_feed") == 1)
        let device = try StoreFixture()
        try rig.join(device, children: [child.id.lowercased])
        try rig.sync(0)
        #expect(try SyncRig.state(device.store) == SyncRig.state(rig.hub.store))
        #expect(try device.store.log(day: day, routineId: pressed.routineId)?.status == .completed)
        #expect(try device.store.log(day: day, routineId: routines[1].id)?.status == .completed)
        #expect(try device.store.children().map(\.displayName) == ["Mina B"])
    }

    @Test func lookingForAPushWithNothingWaitingCommitsNothing() throws {
        let (rig, home, _, child) = try SyncRig.homeAndSchool()
        defer { withExtendedLifetime(rig) {} }   // the devices' sync clocks read the rig's
        let raw = try home.rawConnection()
        let version = { try raw.queryFirst("PRAGMA data_version") { $0.int(0) } ?? -1 }
        let before = try version()
        #expect(try home.store.syncPushRequest(physical: 1) == nil)
        #expect(try version() == before)   // another connection's commit would move it
        _ = try home.store.complete(childId: child.id, day: home.today, at: home.now)
        #expect(try version() != before)
        #expect(try home.store.syncPushRequest(physical: 1)?.entries.count == 1)
    }

    @Test func anEditIsLoggedInItsOwnTransactionAndCoalescedUntilSent() throws {
        let rig = try SyncRig()
        try rig.becomeHub()
        let device = try StoreFixture()
        let child = try device.childWithMorning()
        try rig.join(device)
        try rig.sync(0)
        #expect(try device.store.syncPendingCount() == 0)
        try device.store.renameChild(id: child.id, to: "Minah", at: device.now)
        try device.store.renameChild(id: child.id, to: "Mina Kim", at: device.now)
        #expect(try device.store.syncPendingCount() == 1)   // the latest name only
        let push = try #require(try device.store.syncPushRequest(physical: rig.physical))
        guard case .change(let change) = try #require(push.entries.first?.entry) else { Issue.record("not a change"); return }
        #expect(change.field == "name" && change.value == .string("Mina Kim"))
        // Sent but not acknowledged: a new edit is a new entry after it (sequence numbers have no gaps).
        try device.store.renameChild(id: child.id, to: "Mina", at: device.now)
        let again = try #require(try device.store.syncPushRequest(physical: rig.physical))
        #expect(again.entries.map(\.seq) == [push.entries[0].seq, push.entries[0].seq + 1])
        // A failed edit logs nothing.
        #expect(throws: (any Error).self) { try device.store.renameChild(id: child.id, to: "", at: device.now) }
        #expect(try device.store.syncPendingCount() == 2)
    }

    @Test func twoDevicesConvergeOnEveryRegisterEventAndTable() throws {
        let (rig, home, school, child) = try SyncRig.homeAndSchool()
        // School has the child, its set and routines in the same order, active.
        let homePlan = try home.store.today(childId: child.id, day: home.today)
        let schoolPlan = try school.store.today(childId: child.id, day: school.today)
        #expect(schoolPlan.items.map(\.routine.id) == homePlan.items.map(\.routine.id))
        #expect(schoolPlan.set?.id == homePlan.set?.id)

        // Both press the first card while apart (one entry, both presses kept), a rename at home,
        // a reorder at school.
        rig.tick()
        _ = try home.store.complete(childId: child.id, day: home.today, at: home.now)
        rig.tick()
        _ = try school.store.complete(childId: child.id, day: school.today, at: school.now.addingTimeInterval(1))
        let routines = homePlan.items.map(\.routine)
        var renamed = routines[2]
        renamed.title = LocalizedText(["en": "Shoes on", "ko": "신발 신기"])
        rig.tick()
        try home.store.updateRoutine(renamed, at: home.now)
        rig.tick()
        try school.store.reorder(setId: try #require(homePlan.set?.id), ids: [routines[0], routines[1], routines[3], routines[2]].map(\.id)
            + routines.dropFirst(4).map(\.id), at: school.now)
        try rig.syncAll()

        let hubState = try SyncRig.state(rig.hub.store)
        #expect(try SyncRig.state(home.store) == hubState)
        #expect(try SyncRig.state(school.store) == hubState)
        let a = try home.store.today(childId: child.id, day: home.today)
        let b = try school.store.today(childId: child.id, day: school.today)
        #expect(a.items.map(\.routine.id) == b.items.map(\.routine.id))
        #expect(a.items.map(\.routine.title) == b.items.map(\.routine.title))
        #expect(a.items.map { $0.log?.status } == b.items.map { $0.log?.status })
        #expect(a.items.filter { $0.log?.status == .completed }.map(\.routine.id) == [routines[0].id])
        #expect(hubState.filter { $0[0] == "e" && $0[6] == "press" }.count == 2)
        #expect(b.items[3].routine.title.value(for: "en") == "Shoes on")
        // Back in step, the next press at school is the second card, and home sees it.
        rig.tick()
        let next = try school.store.complete(childId: child.id, day: school.today, at: school.now.addingTimeInterval(2))
        #expect(next.routineId == routines[1].id)
        try rig.syncAll()
        #expect(try home.store.log(day: home.today, routineId: routines[1].id)?.status == .completed)
    }

    @Test func theSameFieldEditedOnBothSidesEndsWithTheLaterStampEverywhere() throws {
        let (rig, home, school, child) = try SyncRig.homeAndSchool()
        rig.tick()
        try school.store.renameChild(id: child.id, to: "Mina S", at: school.now)
        rig.tick()
        try home.store.renameChild(id: child.id, to: "Mina H", at: home.now)
        // The earlier edit arrives at the hub last: the later one still wins.
        try rig.sync(0)
        try rig.sync(1)
        try rig.sync(0)
        #expect(try home.store.child(id: child.id).displayName == "Mina H")
        #expect(try school.store.child(id: child.id).displayName == "Mina H")
        #expect(try rig.hub.store.child(id: child.id).displayName == "Mina H")
    }

    @Test func aPushNamingAChildNotGivenIsRefusedWithTheHubUnchanged() throws {
        let (rig, _, _, child) = try SyncRig.homeAndSchool(schoolGetsTheChild: false)   // school given no child
        let before = try SyncRig.state(rig.hub.store)
        let stamp = HybridTimestamp(wall: rig.physical, counter: 0, device: rig.ids[1])
        let hostile = PushRequest(device: rig.ids[1], sentAt: rig.physical, entries: [NumberedEntry(seq: 1, entry: .change(
            FieldChange(entity: .child, record: child.id.lowercased, child: child.id.lowercased, field: "name", value: .string("X"), stamp: stamp)))])
        #expect(try rig.hub.store.syncHubPush(hostile, credentialHash: SyncRig.hash(1), now: rig.physical)
            == .failure(.childNotGiven(child: child.id.lowercased)))
        #expect(try rig.hub.store.syncHubPush(hostile, credentialHash: SyncRig.hash(7), now: rig.physical) == .failure(.unknownDevice))
        #expect(try SyncRig.state(rig.hub.store) == before)
        #expect(try rig.hub.store.child(id: child.id).displayName == "Mina")
    }

    @Test func aReplayedPushIsAcknowledgedAgainAndAppliedOnce() throws {
        let rig = try SyncRig()
        try rig.becomeHub()
        let home = try StoreFixture()
        let child = try home.childWithMorning()
        try rig.join(home)
        try rig.sync(0)
        _ = try home.store.complete(childId: child.id, day: home.today, at: home.now)
        let push = try #require(try home.store.syncPushRequest(physical: rig.physical))
        let first = try rig.hub.store.syncHubPush(push, credentialHash: SyncRig.hash(0), now: rig.physical)
        let feed = try rig.hub.store.syncHubPosition()
        let second = try rig.hub.store.syncHubPush(push, credentialHash: SyncRig.hash(0), now: rig.physical)
        #expect(first == second)
        #expect(try rig.hub.store.syncHubPosition() == feed)
    }

    @Test func aDeleteWinsOverAConcurrentEditAndNothingComesBack() throws {
        let (rig, home, school, child) = try SyncRig.homeAndSchool()
        let plan = try home.store.today(childId: child.id, day: home.today)
        let floss = plan.items[1].routine
        rig.tick()
        try school.store.deleteRoutine(id: floss.id, at: school.now)
        rig.tick()
        var renamed = try home.store.routine(id: floss.id)
        renamed.title = LocalizedText(["en": "Floss well"])
        try home.store.updateRoutine(renamed, at: home.now)
        try rig.syncAll()
        for store in [home.store, school.store, rig.hub.store] {
            let routine = try store.routine(id: floss.id)
            #expect(routine.deletedAt != nil)
            #expect(routine.title.value(for: "en") == "Floss well")
            #expect(try store.today(childId: child.id, day: home.today).items.map(\.routine.id).contains(floss.id) == false)
        }
        #expect(try SyncRig.state(home.store) == SyncRig.state(school.store))
    }

    @Test func aRestoreOnAJoinedDeviceIsRefused() throws {
        let rig = try SyncRig()
        try rig.becomeHub()
        let home = try StoreFixture()
        _ = try home.childWithMorning()
        try rig.join(home)
        let snapshot = try home.store.snapshot()
        #expect(throws: StoreError.restoreWhileJoined) { try home.store.replaceAll(with: snapshot) }
    }

    @Test func aRestoreOnTheHubIsAChangeThatEveryDeviceTakesAndLosesNoCompletion() throws {
        let (rig, home, school, child) = try SyncRig.homeAndSchool()
        let plan = try home.store.today(childId: child.id, day: home.today)
        let first = plan.items[0].routine, second = plan.items[1].routine
        // The backup: taken on the hub with the first card done at home.
        rig.tick()
        let pressed = try home.store.complete(childId: child.id, day: home.today, at: home.now)
        try rig.syncAll()
        let backup = try rig.hub.store.snapshot()
        // After it: the first card renamed at home, a new card at school, the second card done at school.
        rig.tick()
        var renamed = first
        renamed.title = LocalizedText(["en": "Wash face later"])
        try home.store.updateRoutine(renamed, at: home.now)
        rig.tick()
        let added = try school.store.addRoutine(setId: try #require(plan.set?.id), title: LocalizedText(["en": "Feed the cat"]),
                                                at: school.now)
        rig.tick()
        let later = try school.store.complete(childId: child.id, day: school.today, at: school.now.addingTimeInterval(5))
        #expect(later.routineId == second.id)
        try rig.syncAll()
        let eventsBefore = try SyncRig.state(rig.hub.store).filter { $0[0] == "e" }

        // The hub's guardian restores the backup: allowed on the hub, and a change like any other.
        rig.tick()
        try rig.hub.store.replaceAll(with: backup)
        try rig.syncAll()
        let hubState = try SyncRig.state(rig.hub.store)
        #expect(try SyncRig.state(home.store) == hubState)
        #expect(try SyncRig.state(school.store) == hubState)
        // No event was removed: both presses are still events, and both cards still done everywhere.
        #expect(Set(eventsBefore).isSubset(of: Set(hubState.filter { $0[0] == "e" })))
        for store in [rig.hub.store, home.store, school.store] {
            // The backup's title is back; the card made after it is deleted, not resurrected later.
            #expect(try store.routine(id: first.id).title == first.title)
            #expect(try store.routine(id: added.id).deletedAt != nil)
            let today = try store.today(childId: child.id, day: home.today)
            #expect(today.items.map(\.routine.id).contains(added.id) == false)
            #expect(try store.log(day: home.today, routineId: first.id)?.status == .completed)
            #expect(try store.log(day: home.today, routineId: second.id)?.status == .completed)
            #expect(try store.log(day: home.today, routineId: first.id)?.completedAt == pressed.completedAt)
        }
        // A device's restore is still refused.
        #expect(throws: StoreError.restoreWhileJoined) { try school.store.replaceAll(with: backup) }
    }

    @Test func aCopyInSmallPagesBringsEveryRowWhateverOrderThePagesCameIn() throws {
        let rig = try SyncRig()
        try rig.becomeHub()
        let home = try StoreFixture(), school = try StoreFixture()
        let mina = try home.childWithMorning("Mina")
        let joon = try home.childWithMorning("Joon")
        try home.store.createSet(childId: joon.id, template: .bedtime, at: home.now)
        _ = try home.store.complete(childId: mina.id, day: home.today, at: home.now)
        try rig.join(home)
        try rig.sync(0)
        rig.pullLimit = 7   // a routine's fields come pages before its set's (keys sort routine/… < routineSet/…)
        try rig.join(school, children: [mina.id.lowercased, joon.id.lowercased])
        try rig.sync(1)
        for child in [mina.id, joon.id] {
            let a = try home.store.today(childId: child, day: home.today), b = try school.store.today(childId: child, day: school.today)
            #expect(b.items.map(\.routine.id) == a.items.map(\.routine.id))
            #expect(b.items.map { $0.log?.status } == a.items.map { $0.log?.status })
            let schoolSets = try school.store.sets(childId: child).map { "\($0.id) \($0.createdAt) \($0.isActive)" }
            let homeSets = try home.store.sets(childId: child).map { "\($0.id) \($0.createdAt) \($0.isActive)" }
            #expect(schoolSets.sorted() == homeSets.sorted())
        }
        #expect(try SyncRig.state(school.store) == SyncRig.state(rig.hub.store))
    }

    @Test func twoChildrenOfTheSameNameBothArriveAndTheHubRenamesTheLaterOne() throws {
        let rig = try SyncRig()
        try rig.becomeHub()
        let home = try StoreFixture(), school = try StoreFixture()
        let homeMina = try home.childWithMorning("Mina")
        try rig.join(home)
        try rig.sync(0)
        rig.tick()
        let schoolMina = try school.childWithMorning("mina")   // names compare without case
        try rig.join(school, children: [homeMina.id.lowercased])
        try rig.sync(1)
        // Home gets the school's child too once the hub's guardian gives it.
        try rig.hub.store.syncHubGrant(device: rig.ids[0], children: [homeMina.id.lowercased, schoolMina.id.lowercased])
        try rig.syncAll()
        for store in [home.store, school.store, rig.hub.store] {
            let names = try store.children().map(\.displayName).sorted()
            #expect(names == ["Mina", "mina (2)"], "\(names) \(store === home.store ? "home" : store === school.store ? "school" : "hub")")
            #expect(try store.today(childId: schoolMina.id, day: school.today).items.count > 3)
        }
        #expect(try SyncRig.state(home.store) == SyncRig.state(rig.hub.store))
        #expect(try SyncRig.state(school.store) == SyncRig.state(rig.hub.store))
        let raw = try rig.hub.rawConnection()
        #expect(try raw.queryFirst("SELECT reason FROM sync_conflicts WHERE reason LIKE 'renamed:%'") { $0.text(0) } == "renamed: mina → mina (2)")
        let renamed = try #require(try rig.hub.store.syncConflicts().first { $0.kind == .renamed })
        #expect(renamed.from == "mina" && renamed.to == "mina (2)" && renamed.record == schoolMina.id.lowercased)
    }

    /// A device given another child whose copy's first answer is lost (the connection cut after
    /// the hub committed) is given the copy again: the hub counts it taken only when the device
    /// sends back the mark of its last page.
    @Test func aGrantedChildsCopyWhoseAnswerWasLostIsGivenAgain() throws {
        let (rig, home, school, child) = try SyncRig.homeAndSchool()
        let joon = try home.childWithMorning("Joon")
        try rig.sync(0)
        try rig.sync(1)
        #expect(try school.store.children().map(\.displayName) == ["Mina"])
        try rig.hub.store.syncHubGrant(device: rig.ids[1], children: [child.id.lowercased, joon.id.lowercased])
        rig.pullLimit = 5
        let request = try school.store.syncPullRequest(physical: rig.physical)
        let lost = try rig.hub.store.syncHubPull(request, credentialHash: SyncRig.hash(1), now: rig.physical, limit: 5).get()
        #expect(lost.freshCopy && lost.more)
        try rig.sync(1)
        #expect(try school.store.children().map(\.displayName).sorted() == ["Joon", "Mina"])
        #expect(try SyncRig.state(school.store) == SyncRig.state(rig.hub.store))
        // Taken: the next pull reads the feed.
        let next = try rig.hub.store.syncHubPull(try school.store.syncPullRequest(physical: rig.physical), credentialHash: SyncRig.hash(1),
                                                 now: rig.physical).get()
        #expect(!next.freshCopy)
    }

    /// Runs the sqlite3 tool on a database (another program's write); its exit status.
    static func sqlite3(_ path: String, _ sql: String) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [path, sql]
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    @Test func anotherProgramsWriteWorksAndIsLoggedWhenTheDatabaseSyncs() throws {
        let alone = try StoreFixture()
        let mina = try alone.childWithMorning()
        #expect(try Self.sqlite3(alone.path, "UPDATE children SET display_name = 'Mina K' WHERE id = '\(mina.id.lowercased)'") == 0)
        #expect(try alone.store.child(id: mina.id).displayName == "Mina K")

        let rig = try SyncRig()
        try rig.becomeHub()
        let home = try StoreFixture()
        let joon = try home.childWithMorning("Joon")
        try rig.join(home)
        try rig.sync(0)
        #expect(try Self.sqlite3(home.path, "UPDATE children SET pitch = 77 WHERE id = '\(joon.id.lowercased)'") == 0)
        let push = try #require(try home.store.syncPushRequest(physical: rig.physical))
        guard case .change(let change) = try #require(push.entries.first?.entry) else { Issue.record("not a change"); return }
        #expect(change.field == "profile.pitch" && change.value == .int(77))
    }
}
