import SteppieTestSupport
import Testing
import SteppieSync

/// The hub's promises against the reference model: idempotent pushes, all-or-nothing batches,
/// hostile peers refused with nothing changed, clocks, the horizon and resumable copies.
@Suite struct HubFeedTests {
    /// A world with one child on device 0, given to both devices, settled.
    static func household() -> (SyncWorld, child: String, set: String, routines: [String]) {
        var world = SyncWorld(deviceCount: 2)
        var rng = SeededRandom(seed: 7)
        let child = world.newId()
        world.write(0, .child, child, child: child, "name", .string("Mina"))
        ConvergenceTests.addSet(&world, 0, child: child, routines: 3, rng: &rng)
        world.hub.grant(world.devices[0].id, children: [child])
        world.hub.grant(world.devices[1].id, children: [child])
        world.settle()
        let set = world.hub.store.registers.keys.first { $0.entity == .routineSet }?.id ?? ""
        let routines = SyncView(world.hub.store).sets[set]?.visibleOrder ?? []
        return (world, child, set, routines)
    }

    @Test func aReplayedPushChangesNothingAndIsAcknowledgedAgain() throws {
        var (world, child, _, routines) = Self.household()
        world.write(0, .routine, routines[0], child: child, "title", .object(["en": .string("Wake up!")]))
        let pushed = world.devices[0].pushRequest(physical: world.physical(0))
        let request = try #require(pushed)
        let first = try world.hub.push(request, now: world.now)
        let feedAfterFirst = world.hub.feed
        let storeAfterFirst = world.hub.store
        let again = try world.hub.push(request, now: world.now)
        #expect(first == again)
        #expect(world.hub.feed == feedAfterFirst && world.hub.store == storeAfterFirst)
    }

    @Test func aPushAfterAGapIsRefusedWithWhereToResume() throws {
        var (world, child, _, routines) = Self.household()
        for i in 0..<3 { world.write(0, .routine, routines[0], child: child, "title", .object(["en": .string("T\(i)")])) }
        let pushed = world.devices[0].pushRequest(physical: world.physical(0))
        let request = try #require(pushed)
        let skipping = PushRequest(device: request.device, sentAt: request.sentAt, entries: Array(request.entries.dropFirst()))
        let acked = world.hub.acknowledged[request.device] ?? 0
        #expect(throws: SyncRefusal.gap(expected: acked + 1)) { try world.hub.push(skipping, now: world.now) }
    }

    @Test func hostileBatchesAreRefusedWholeWithTheStoreUnchanged() throws {
        var (world, child, set, routines) = Self.household()
        let stranger = world.newId()
        // Another household's child, known to the hub but not given to device 1.
        world.hub.grant(world.devices[0].id, children: [child, stranger])
        world.write(0, .child, stranger, child: stranger, "name", .string("Other"))
        world.settle()
        let device = world.devices[1].id
        let seq = (world.hub.acknowledged[device] ?? 0) + 1
        func stamp(_ d: DeviceID = device, wall: Int64? = nil) -> HybridTimestamp {
            HybridTimestamp(wall: wall ?? world.now, counter: 0, device: d)
        }
        let good = SyncEntry.change(FieldChange(entity: .routine, record: routines[0], child: child, field: "title",
                                                value: .object(["en": .string("ok")]), stamp: stamp()))
        let cases: [(SyncEntry, SyncRefusal)] = [
            (.change(FieldChange(entity: .child, record: stranger, child: stranger, field: "name", value: .string("x"), stamp: stamp())),
             .childNotGiven(child: stranger)),
            (.change(FieldChange(entity: .routine, record: routines[1], child: child, field: "owner", value: .string("x"), stamp: stamp())),
             .malformed(reason: "unknown field")),
            (.change(FieldChange(entity: .routine, record: routines[1], child: child, field: "title", value: .string("x"),
                                 stamp: stamp(world.devices[0].id))),
             .malformed(reason: "stamp of another device")),
            (.change(FieldChange(entity: .routine, record: routines[1], child: child, field: "title", value: .string("x"),
                                 stamp: stamp(wall: world.now + 300_001))),
             .malformed(reason: "stamp ahead of the hub's clock")),
            (.change(FieldChange(entity: .routineSet, record: set, child: child, field: "child", value: .string(stranger), stamp: stamp())),
             .malformed(reason: "reference to another child's record")),
            (.event(CompletionEvent(id: "x", child: child, routine: routines[0], set: set, date: "2026-13-45", kind: .press,
                                    at: "2026-03-02T07:00:00.000+09:00", stamp: stamp())),
             .malformed(reason: "date")),
        ]
        for (bad, refusal) in cases {
            let before = (world.hub.store, world.hub.feed, world.hub.acknowledged)
            let request = PushRequest(device: device, sentAt: world.now, entries: [NumberedEntry(seq: seq, entry: good), NumberedEntry(seq: seq + 1, entry: bad)])
            #expect(throws: refusal) { try world.hub.push(request, now: world.now) }
            #expect(world.hub.store == before.0 && world.hub.feed == before.1 && world.hub.acknowledged == before.2)
        }
        world.hub.remove(device)
        let removed = PushRequest(device: device, sentAt: world.now, entries: [NumberedEntry(seq: seq, entry: good)])
        #expect(throws: SyncRefusal.unknownDevice) { try world.hub.push(removed, now: world.now) }
        #expect(throws: SyncRefusal.unknownDevice) { try world.hub.pull(PullRequest(device: device, sentAt: world.now, cursor: 0), now: world.now) }
        let oldProtocol = PushRequest(protocolVersion: 0, device: world.devices[0].id, sentAt: world.now, entries: [])
        #expect(throws: SyncRefusal.protocolVersion(hub: 1, device: 0)) { try world.hub.push(oldProtocol, now: world.now) }
        let big = PushRequest(device: world.devices[0].id, sentAt: world.now,
                              entries: (1...UInt64(SyncProtocol.maxBatchEntries + 1)).map { NumberedEntry(seq: $0, entry: good) })
        #expect(throws: SyncRefusal.tooLarge) { try world.hub.push(big, now: world.now) }
    }

    @Test func aDeviceMoreThanFiveMinutesOffWaitsAndLosesNothingOnceItsClockIsRight() throws {
        var (world, child, set, routines) = Self.household()
        world.skews[1] = 6 * 60 * 1000
        world.record(1, child: child, routine: routines[0], set: set, date: "2026-03-02", .press)
        world.write(1, .routine, routines[1], child: child, "title", .object(["en": .string("Skewed edit")]))
        let accepted = world.push(1)
        #expect(!accepted)
        #expect(world.devices[1].lastRefusal == .clockSkew(offsetMilliseconds: 6 * 60 * 1000))
        #expect(world.devices[1].pending.count == 2)
        // Meanwhile device 0 edits the same title, later in real time but earlier than the skewed stamp.
        world.now += 1_000
        world.write(0, .routine, routines[1], child: child, "title", .object(["en": .string("Home edit")]))
        world.push(0)
        world.skews[1] = 0 // the clock is put right
        world.now += 1_000
        world.settle()
        #expect(world.devices[1].pending.isEmpty && world.devices[1].lastRefusal == nil)
        #expect(Set(world.hub.store.events.keys) == Set(world.events.map(\.id)))
        // Stamped again when the clock was right: the skewed edit is now the later one, on every device.
        for device in world.devices {
            #expect(device.replica.value(RecordKey(.routine, routines[1]), "title") == .object(["en": .string("Skewed edit")]))
            #expect(device.replica == world.hub.store)
        }
    }

    @Test func aDeviceAwayLongerThanTheHorizonGetsAFreshCopyAndNothingDeletedComesBack() throws {
        var (world, child, _, routines) = Self.household()
        world.online[1] = false
        world.write(0, .routine, routines[2], child: child, "deleted", .bool(true))
        world.push(0)
        world.now += 200 * 24 * 60 * 60 * 1000
        world.write(0, .routine, routines[0], child: child, "title", .object(["en": .string("Later")]))
        world.push(0)
        world.hub.forget(now: world.now)
        #expect(world.hub.forgottenThrough > 0)
        // Device 1 edited the deleted routine while away, and comes back.
        world.write(1, .routine, routines[2], child: child, "title", .object(["en": .string("Edited while away")]))
        world.online[1] = true
        world.settle()
        let view = SyncView(world.devices[1].replica)
        #expect(view.routines[routines[2]]?.deleted == true)
        #expect(view.routines[routines[0]]?.title == .object(["en": .string("Later")]))
        #expect(world.devices[1].replica == world.hub.store && world.devices[0].replica == world.hub.store)
    }

    @Test func aFreshCopyInSmallPagesIsResumableAndEqualsTheStore() throws {
        var (world, child, _, routines) = Self.household()
        for i in 0..<20 { world.write(0, .routine, routines[i % 3], child: child, "title", .object(["en": .string("T\(i)")])) }
        world.push(0)
        var late = SyncDevice(id: DeviceID("00000000-0000-4000-8000-0000000000ff")!)
        world.hub.grant(late.id, children: [child])
        var pages = 0
        while true {
            let reply = try world.hub.pull(late.pullRequest(physical: world.now), now: world.now, limit: 3)
            // Another device edits in the middle of the copy: the feed after the copy brings it.
            if pages == 2 {
                world.write(0, .routine, routines[1], child: child, "color", .string("color.card.mint"))
                world.push(0)
            }
            try late.pulled(reply, physical: world.now)
            pages += 1
            if !reply.more { break }
        }
        #expect(pages > 3)
        let tail = try world.hub.pull(late.pullRequest(physical: world.now), now: world.now)
        try late.pulled(tail, physical: world.now)
        #expect(late.replica == world.hub.store)
    }

    /// A device given another child whose copy's answers are lost (the connection cut, the device
    /// killed with them in hand) is given the copy again, however many are lost, and only the
    /// closing mark it sends after the last page ends the copy; a grant between two pages starts
    /// the copy again, so no row of the new child before the page is missed.
    @Test func aCopyIsDueUntilTheDeviceSaysItTookTheLastPage() throws {
        var (world, child, _, routines) = Self.household()
        let other = world.newId()
        world.hub.grant(world.devices[0].id, children: [child, other])
        world.write(0, .child, other, child: other, "name", .string("Joon"))
        for i in 0..<6 { world.write(0, .routine, routines[i % 3], child: child, "title", .object(["en": .string("T\(i)")])) }
        world.settle()
        let school = world.devices[1]
        world.hub.grant(school.id, children: [child, other])
        // Every answer of the copy but the closing one is lost once; then the closing one too.
        var device = school
        var asked: Set<String?> = []
        var answers = 0
        while true {
            let reply = try world.hub.pull(device.pullRequest(physical: world.now), now: world.now, limit: 4)
            answers += 1
            #expect(reply.freshCopy)
            if asked.insert(device.copyAfter).inserted { continue }   // lost: the device asks the same again
            try device.pulled(reply, physical: world.now)
            if !reply.more { break }
            #expect(reply.copyAfter != nil)
        }
        #expect(answers > 4)
        #expect(device.replica == world.hub.store)
        // Taken: the next pull reads the feed.
        let after = try world.hub.pull(device.pullRequest(physical: world.now), now: world.now)
        #expect(!after.freshCopy)

        // A grant between two pages: the copy starts again with the new children's seal.
        let third = world.newId()
        world.hub.grant(world.devices[0].id, children: [child, other, third])
        world.write(0, .child, third, child: third, "name", .string("Ara"))
        world.settle()
        world.hub.grant(device.id, children: [child, other])   // unchanged: no copy due
        world.hub.grant(device.id, children: [child])
        let first = try world.hub.pull(device.pullRequest(physical: world.now), now: world.now, limit: 2)
        try device.pulled(first, physical: world.now)
        #expect(first.freshCopy && first.more)
        world.hub.grant(device.id, children: [child, other, third])
        var restarted = false
        while true {
            let reply = try world.hub.pull(device.pullRequest(physical: world.now), now: world.now, limit: 2)
            if reply.entries.first == first.entries.first { restarted = true }
            try device.pulled(reply, physical: world.now)
            if !reply.more { break }
        }
        #expect(restarted)
        #expect(device.replica == world.hub.store.restricted(to: [child, other, third]))
        #expect(!(try world.hub.pull(device.pullRequest(physical: world.now), now: world.now).freshCopy))
    }
}
