import Foundation
import SteppieTestSupport
import Testing
import SteppieSync

/// A household of three devices and a hub under random edits, presses, lost replies, devices
/// going away and skewed clocks (issue 27): everything converges, every completion event is on
/// every device, every register ends with its latest write (no deleted record comes back), and
/// the contract's invariants hold on every device.
@Suite struct ConvergenceTests {
    static let seed: UInt64 = ProcessInfo.processInfo.environment["STEPPIE_SYNC_SEED"].flatMap { UInt64($0) } ?? 20_261_203

    @Test func threeDevicesConvergeUnderAThousandRandomOperations() throws {
        var rng = SeededRandom(seed: Self.seed)
        var world = SyncWorld(deviceCount: 3)
        // Each device starts with a child of its own; the hub gives every child to every device.
        var children: [String] = []
        for d in 0..<3 {
            let child = world.newId()
            children.append(child)
            world.write(d, .child, child, child: child, "name", .string("Child \(d)"))
            for _ in 0..<2 { Self.addSet(&world, d, child: child, routines: 3, rng: &rng) }
            world.hub.grant(world.devices[d].id, children: [child])
            world.push(d)
        }
        for d in 0..<3 { world.hub.grant(world.devices[d].id, children: Set(children)) }
        world.settle()

        var operations = 0
        while operations < 1_200 {
            world.now += Int64.random(in: 0...4_000, using: &rng)
            let d = Int.random(in: 0..<3, using: &rng)
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<8: world.online[d].toggle()
            case 8..<12: world.skews[d] = Int64.random(in: -180_000...180_000, using: &rng)
            case 12..<20: world.push(d, lost: Bool.random(using: &rng))
            case 20..<28: world.pull(d)
            case 28..<31: world.push(d, lost: false, limit: Int.random(in: 1...5, using: &rng))
            case 31..<33:
                // The hub's guardian gives every child (new ones too) to every device.
                let all = Set(world.hub.store.owners.values)
                for device in world.devices { world.hub.grant(device.id, children: all) }
            default:
                if Self.randomEdit(&world, d, rng: &rng) { operations += 1 }
            }
        }
        for d in 0..<3 { world.online[d] = true }
        world.settle()

        #expect(world.failures.isEmpty, "\(world.failures.prefix(3))")
        try Self.expectConverged(world)
        #expect(world.events.count > 200, "the run made \(world.events.count) events")
    }

    /// The hub restored from a backup older than what the devices hold (a centre's `pg_restore`, a
    /// household hub's disk put back): its feed ends earlier, it acknowledges less, and positions
    /// after the backup's are handed out again. Each device notices (a push gap below what it was
    /// acknowledged, or a cursor past the feed's end) and sends everything it holds again: nothing
    /// made before or after the restore is lost, and everything converges.
    @Test func aHubRestoredFromAnOlderBackupLosesNothingTheDevicesHold() throws {
        var rng = SeededRandom(seed: Self.seed &+ 7)
        var world = SyncWorld(deviceCount: 3)
        let child = world.newId()
        world.write(0, .child, child, child: child, "name", .string("Mina"))
        Self.addSet(&world, 0, child: child, routines: 4, rng: &rng)
        for device in world.devices { world.hub.grant(device.id, children: [child]) }
        world.settle()
        let backup = world.hub
        // After the backup: edits and presses on every device, all taken by the hub and pulled.
        var made = 0
        while made < 60 {
            world.now += 1_000
            if Self.randomEdit(&world, Int.random(in: 0..<3, using: &rng), rng: &rng) { made += 1 }
            if made % 10 == 0 { world.settle() }
        }
        world.settle()
        #expect(world.devices.allSatisfy { $0.pending.isEmpty && $0.acknowledged > 0 })
        // Device 2 makes more that the hub takes, then the hub is put back to the backup.
        for _ in 0..<5 { world.now += 1_000; _ = Self.randomEdit(&world, 2, rng: &rng) }
        world.push(2)
        world.hub = backup
        // Device 0 edits after the restore (its push meets the gap); device 1 only pulls.
        for _ in 0..<5 { world.now += 1_000; _ = Self.randomEdit(&world, 0, rng: &rng) }
        world.pull(1)
        world.settle()
        #expect(world.failures.isEmpty, "\(world.failures.prefix(3))")
        try Self.expectConverged(world)
        #expect(world.events.count > 5, "the run made \(world.events.count) events")
    }

    /// Asserts the end state: devices equal the hub, registers hold their latest writes, every
    /// event everywhere, invariants on every device.
    static func expectConverged(_ world: SyncWorld, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let hubView = SyncView(world.hub.store)
        for device in world.devices {
            #expect(device.pending.isEmpty, "device \(device.id) still has \(device.pending.count) entries", sourceLocation: sourceLocation)
            let given = world.hub.grants[device.id] ?? []
            let expected = world.hub.store.restricted(to: given)
            // Named by record, so a failure says where the two differ (not two whole replicas).
            let differing = Set(device.replica.registers.keys).union(expected.registers.keys)
                .filter { device.replica.registers[$0] != expected.registers[$0] }.sorted()
            #expect(differing.isEmpty, "device \(device.id) differs from the hub at \(differing.prefix(5))", sourceLocation: sourceLocation)
            #expect(Set(device.replica.events.keys) == Set(world.events.filter { given.contains($0.child) }.map(\.id)),
                    sourceLocation: sourceLocation)
            let view = SyncView(device.replica)
            for (id, child) in view.children { #expect(child == hubView.children[id], sourceLocation: sourceLocation) }
            for (key, day) in view.days { #expect(day == hubView.days[key], sourceLocation: sourceLocation) }
            try expectInvariants(view, sourceLocation: sourceLocation)
        }
        // Each register's value is its latest write's, whichever device made it and whenever it
        // arrived: a delete is undone only by a later restore, never by an edit or a late device.
        var latest: [String: FieldChange] = [:]
        for change in world.writes {
            let key = "\(change.entity)/\(change.record)/\(change.field)"
            if let seen = latest[key], change.stamp < seen.stamp { continue }
            latest[key] = change
        }
        var restamped = 0
        for (_, change) in latest {
            let held = world.hub.store.registers[change.key]?[change.field]
            if held?.stamp == change.stamp {
                #expect(held?.value == change.value, sourceLocation: sourceLocation)
            } else {
                restamped += 1 // only changes stamped again after a wrong clock (none in this run)
            }
        }
        #expect(restamped == 0, sourceLocation: sourceLocation)
        #expect(Set(world.hub.store.events.keys) == Set(world.events.map(\.id)), sourceLocation: sourceLocation)
    }

    static func expectInvariants(_ view: SyncView, sourceLocation: SourceLocation) throws {
        for (childId, child) in view.children {
            let sets = view.sets.filter { $0.value.child == childId }
            if sets.contains(where: { !$0.value.deleted }) {
                let active = try #require(child.activeSet, sourceLocation: sourceLocation)
                #expect(view.sets[active]?.deleted == false, sourceLocation: sourceLocation)
                #expect(view.sets[active]?.child == childId, sourceLocation: sourceLocation)
            }
        }
        for (setId, set) in view.sets {
            #expect(Set(set.visibleOrder).count == set.visibleOrder.count, sourceLocation: sourceLocation)
            for id in set.visibleOrder {
                let routine = view.routines[id]
                #expect(routine?.set == setId && routine?.active == true && routine?.deleted == false, sourceLocation: sourceLocation)
            }
            let visible = view.routines.filter { $0.value.set == setId && $0.value.active && !$0.value.deleted }
            #expect(visible.count == set.visibleOrder.count, sourceLocation: sourceLocation)
        }
    }

    // MARK: - Random edits, as a guardian or a child would make them on one device

    static func addSet(_ world: inout SyncWorld, _ d: Int, child: String, routines: Int, rng: inout SeededRandom) {
        let set = world.newId()
        world.write(d, .routineSet, set, child: child, "child", .string(child))
        world.write(d, .routineSet, set, child: child, "name", .object(["en": .string("Set \(set.suffix(3))")]))
        var order: [SyncValue] = []
        for i in 0..<routines {
            let routine = world.newId()
            world.write(d, .routine, routine, child: child, "set", .string(set))
            world.write(d, .routine, routine, child: child, "title", .object(["en": .string("Routine \(i)")]))
            order.append(.string(routine))
        }
        world.write(d, .routineSet, set, child: child, "order", .array(order))
        if world.devices[d].replica.value(RecordKey(.child, child), "activeSet") == nil {
            world.write(d, .child, child, child: child, "activeSet", .string(set))
        }
    }

    /// One edit on device `d` against what it sees now; false when nothing fitted.
    static func randomEdit(_ world: inout SyncWorld, _ d: Int, rng: inout SeededRandom) -> Bool {
        let view = SyncView(world.devices[d].replica)
        guard let (childId, child) = view.children.sorted(by: { $0.key < $1.key }).randomElement(using: &rng) else { return false }
        let sets = view.sets.filter { $0.value.child == childId && !$0.value.deleted }.sorted { $0.key < $1.key }
        let routines = view.routines.filter { r in sets.contains { $0.key == r.value.set } }.sorted { $0.key < $1.key }
        let day = "2026-03-0\(Int.random(in: 1...9, using: &rng))"
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<30:
            guard let active = child.activeSet, let set = view.sets[active], let routine = set.visibleOrder.randomElement(using: &rng) else { return false }
            world.record(d, child: childId, routine: routine, set: active, date: day, .press)
        case 30..<38:
            guard let (id, routine) = routines.randomElement(using: &rng) else { return false }
            world.record(d, child: childId, routine: id, set: routine.set, date: day, .undo)
        case 38..<44:
            guard let (id, routine) = routines.randomElement(using: &rng) else { return false }
            world.record(d, child: childId, routine: id, set: routine.set, date: day, Bool.random(using: &rng) ? .correctDone : .correctUndone)
        case 44..<54:
            guard let (id, _) = routines.randomElement(using: &rng) else { return false }
            world.write(d, .routine, id, child: childId, "title", .object(["en": .string("T\(Int.random(in: 0...999, using: &rng))")]))
        case 54..<60:
            guard let (id, _) = routines.randomElement(using: &rng) else { return false }
            world.write(d, .routine, id, child: childId, "icon", .object(["type": .string("builtin"), "name": .string(["star", "sun", "moon"].randomElement(using: &rng) ?? "star")]))
        case 60..<68:
            guard let (setId, set) = sets.randomElement(using: &rng) else { return false }
            world.write(d, .routineSet, setId, child: childId, "order", .array(set.visibleOrder.shuffled(using: &rng).map(SyncValue.string)))
        case 68..<74:
            guard let (id, routine) = routines.randomElement(using: &rng) else { return false }
            world.write(d, .routine, id, child: childId, "deleted", .bool(!routine.deleted))
        case 74..<78:
            guard let (id, routine) = routines.randomElement(using: &rng) else { return false }
            world.write(d, .routine, id, child: childId, "active", .bool(!routine.active))
        case 78..<82:
            guard sets.count < 5 else { return false }
            addSet(&world, d, child: childId, routines: Int.random(in: 1...4, using: &rng), rng: &rng)
        case 82..<87:
            guard let (setId, _) = sets.randomElement(using: &rng) else { return false }
            world.write(d, .child, childId, child: childId, "activeSet", .string(setId))
        case 87..<89:
            guard let (setId, _) = sets.randomElement(using: &rng), setId != child.activeSet else { return false }
            world.write(d, .routineSet, setId, child: childId, "deleted", .bool(true))
        case 89..<92:
            guard let (setId, _) = sets.randomElement(using: &rng) else { return false }
            world.write(d, .schedule, childId, child: childId, "slots",
                        .array([.object(["weekday": .int(Int64.random(in: 1...7, using: &rng)), "start": .string("07:00"), "set": .string(setId)])]))
        case 92..<97:
            let field = ["pitch", "ttsRate", "intensity", "undoDurationSeconds"].randomElement(using: &rng) ?? "pitch"
            world.write(d, .child, childId, child: childId, "profile.\(field)", .int(Int64.random(in: 0...99, using: &rng)))
        case 97:
            guard view.children.count < 8 else { return false }
            let newChild = world.newId()
            world.write(d, .child, newChild, child: newChild, "name", .string("New \(newChild.suffix(3))"))
            addSet(&world, d, child: newChild, routines: 2, rng: &rng)
        default:
            world.write(d, .child, childId, child: childId, "archived", .bool(!child.archived))
        }
        return true
    }
}
