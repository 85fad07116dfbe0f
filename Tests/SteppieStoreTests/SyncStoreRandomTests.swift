import Foundation
import SteppieTestSupport
import SteppieCore
import SteppieSync
import Testing
@testable import SteppieStore

/// Three device databases and a hub database under seeded random edits, presses, undos and
/// corrections over three days, synced at random moments: every database ends with the same
/// registers and events as the hub, the tables say what the registers decide (`SyncView`), and
/// every device shows each child the same day.
@Suite struct SyncStoreRandomTests {
    static let seed: UInt64 = ProcessInfo.processInfo.environment["STEPPIE_SYNC_SEED"].flatMap { UInt64($0) } ?? 20_261_203

    @Test func threeDatabasesConvergeUnderRandomOperations() throws {
        var rng = SeededRandom(seed: Self.seed)
        let rig = try SyncRig()
        try rig.becomeHub()
        let devices = try (0..<3).map { _ in try StoreFixture() }
        let first = try devices[0].childWithMorning("Mina")
        let second = try devices[0].childWithMorning("Joon")
        try devices[0].store.createSet(childId: second.id, template: .bedtime, at: devices[0].now)
        try rig.join(devices[0])
        try rig.sync(0)
        let children = [first.id, second.id]
        for d in 1..<3 {
            try rig.join(devices[d], children: children.map(\.lowercased))
            try rig.sync(d)
        }
        var done = 0, events = 0
        for _ in 0..<400 {
            rig.physical += Int64.random(in: 1_000...600_000, using: &rng)
            let d = Int.random(in: 0..<3, using: &rng)
            let f = devices[d]
            f.now = Date(timeIntervalSince1970: Double(rig.physical) / 1000)
            let child = children.randomElement(using: &rng) ?? first.id
            if Int.random(in: 0..<5, using: &rng) == 0 {
                try rig.sync(d)
                continue
            }
            do {
                events += try Self.randomOperation(f, child: child, rng: &rng)
                done += 1
            } catch is StoreError {
                // Refused as a guardian or child would be (all done, nothing to undo, …): nothing logged.
            } catch is GuardianEditError {}
        }
        try rig.syncAll()

        let hubState = try SyncRig.state(rig.hub.store)
        for (d, f) in devices.enumerated() {
            let state = try SyncRig.state(f.store)
            #expect(state == hubState, "device \(d) differs at \(Set(state.map { $0.joined(separator: "|") }).symmetricDifference(hubState.map { $0.joined(separator: "|") }).sorted().prefix(3))")
            try Self.expectTablesFollowRegisters(f, state: state, children: children)
        }
        let day = LocalDay(Date(timeIntervalSince1970: Double(rig.physical) / 1000), in: devices[0].zone)
        for child in children {
            let plans = try devices.map { try $0.store.today(childId: child, day: day) }
            for plan in plans.dropFirst() {
                #expect(plan.set?.id == plans[0].set?.id)
                #expect(plan.items.map(\.routine.id) == plans[0].items.map(\.routine.id))
                #expect(plan.items.map { $0.log?.status } == plans[0].items.map { $0.log?.status })
            }
        }
        #expect(done > 200, "only \(done) operations were taken")
        #expect(hubState.filter { $0[0] == "e" }.count == events, "every press, undo and correction everywhere")
    }

    /// One random edit, press, undo or correction on device `f`; returns the events it logged.
    static func randomOperation(_ f: StoreFixture, child: UUID, rng: inout SeededRandom) throws -> Int {
        let store = f.store
        let sets = try store.sets(childId: child)
        guard let set = sets.randomElement(using: &rng) else { return 0 }
        let routines = try store.routines(setId: set.id).filter(\.isVisible)
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<30:
            _ = try store.complete(childId: child, day: f.today, at: f.now)
            return 1
        case 30..<38:
            _ = try store.undo(childId: child, day: f.today, at: f.now, windowSeconds: 900)
            return 1
        case 38..<46:
            let history = try store.routines(setId: set.id, includeDeleted: true)
            guard let routine = history.randomElement(using: &rng) else { return 0 }
            let change = try store.setDayEntry(childId: child, routineId: routine.id, day: f.today.adding(days: -1),
                                               done: Bool.random(using: &rng), at: f.now)
            if case .changed = change { return 1 }
            return 0
        case 46..<58:
            guard var routine = routines.randomElement(using: &rng) else { return 0 }
            routine.title = LocalizedText(["en": "Task \(Int.random(in: 0..<1000, using: &rng))", "ko": "할 일"])
            try store.updateRoutine(routine, at: f.now)
        case 58..<68:
            guard let routine = routines.randomElement(using: &rng), routines.count > 1 else { return 0 }
            try store.moveRoutine(id: routine.id, to: Int.random(in: 0..<routines.count, using: &rng), at: f.now)
        case 68..<74:
            guard let routine = routines.randomElement(using: &rng), routines.count > 1 else { return 0 }
            _ = try store.deleteRoutine(id: routine.id, at: f.now)
        case 74..<79:
            guard let routine = try store.deletedRoutines(childId: child).randomElement(using: &rng)?.routine else { return 0 }
            _ = try store.restoreRoutine(id: routine.id, at: f.now)
        case 79..<84:
            _ = try store.addRoutine(setId: set.id, title: LocalizedText(["en": "New \(Int.random(in: 0..<1000, using: &rng))"]),
                                     position: nil, at: f.now)
        case 84..<88:
            try store.activateSet(set.id, at: f.now)
        case 88..<92:
            var patch = ProfilePatch()
            patch.pitch = Int.random(in: 0...99, using: &rng)
            _ = try store.updateProfile(childId: child, patch, at: f.now)
        case 92..<95:
            try store.renameChild(id: child, to: "Child \(Int.random(in: 0..<1000, using: &rng))", at: f.now)
        default:
            guard let start = LocalTime(hour: Int.random(in: 6...20, using: &rng), minute: 0) else { return 0 }
            let entry = ScheduleEntry(weekdays: [Weekday.allCases.randomElement(using: &rng) ?? .monday], start: start, routineSetId: set.id)
            _ = try store.setScheduleEntry(childId: child, entry, at: f.now)
        }
        return 0
    }

    /// The tables of one database say what its registers and events decide (`SyncView`).
    static func expectTablesFollowRegisters(_ f: StoreFixture, state: [[String]], children: [UUID],
                                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        var replica = SyncReplica()
        for line in state {
            if line[0] == "r", let entity = SyncEntity(rawValue: line[1]), let value = SyncJSON.value(line[5]),
               let stamp = HybridTimestamp(line[6]) {
                replica.apply(FieldChange(entity: entity, record: line[2], child: line[4], field: line[3], value: value, stamp: stamp))
            } else if line[0] == "e", let kind = CompletionEvent.Kind(rawValue: line[6]), let stamp = HybridTimestamp(line[8]) {
                replica.apply(CompletionEvent(id: line[1], child: line[2], routine: line[3], set: line[4], date: line[5], kind: kind,
                                              at: line[7], stamp: stamp))
            }
        }
        let view = SyncView(replica)
        for child in children {
            let active = try f.store.sets(childId: child).first(where: \.isActive)?.id.lowercased
            #expect(active == view.children[child.lowercased]?.activeSet, sourceLocation: sourceLocation)
            for set in try f.store.sets(childId: child) {
                let visible = try f.store.routines(setId: set.id).filter(\.isVisible).map(\.id.lowercased)
                #expect(visible == view.sets[set.id.lowercased]?.visibleOrder, "set \(set.id)", sourceLocation: sourceLocation)
            }
        }
        for (key, entry) in view.days {
            guard let routine = UUID(uuidString: key.routine), let day = LocalDay(key.date) else { continue }
            let log = try f.store.log(day: day, routineId: routine)
            #expect(log?.status.rawValue == entry.status.rawValue, "\(key)", sourceLocation: sourceLocation)
        }
    }
}
