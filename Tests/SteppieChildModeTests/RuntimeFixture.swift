import Foundation
import SteppieCore
import SteppieStore
import SteppieChildMode

/// A temporary database with one child and an active morning set, a manual clock, a recording
/// cue player, and a store wrapper that can be told to fail saves.
final class RuntimeFixture {
    let directory: URL
    let path: String
    let store: Store
    let faulty: FaultyStore
    let zone: TimeZone
    let clock: ManualWallClock
    let player = RecordingCuePlayer()
    let child: Child

    init(zone: String = "Asia/Seoul", now: String = "2026-03-02T06:50:00+09:00") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-runtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("steppie.db").path
        self.zone = TimeZone(identifier: zone) ?? .current
        store = try Store(path: path, timeZone: self.zone)
        clock = ManualWallClock(Timestamp.parse(now) ?? Date())
        child = try store.addChild(name: "Mina", at: clock.now())
        try store.createSet(childId: child.id, template: .morning, at: clock.now())
        faulty = FaultyStore(store)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func runtime(events: EventLog? = nil) throws -> ChildModeRuntime {
        try ChildModeRuntime(store: faulty, child: child, clock: clock, player: player, events: events)
    }

    /// Another process's connection to the same file.
    func otherProcess() throws -> Store { try Store(path: path, timeZone: zone) }
}

/// The real store, with saves that fail on request (as a full disk or a lost lock would).
final class FaultyStore: ChildModeStore {
    let base: Store
    var failSaves = false
    init(_ base: Store) { self.base = base }

    struct InjectedFailure: Error {}

    var timeZone: TimeZone { base.timeZone }
    func today(childId: UUID, day: LocalDay) throws -> DayPlan { try base.today(childId: childId, day: day) }
    func complete(childId: UUID, routineId: UUID?, day: LocalDay, at now: Date) throws -> DailyLog {
        if failSaves { throw InjectedFailure() }
        return try base.complete(childId: childId, routineId: routineId, day: day, at: now)
    }
    func undoCompletion(logId: UUID, day: LocalDay, at now: Date, windowSeconds: Int) throws -> DailyLog {
        if failSaves { throw InjectedFailure() }
        return try base.undoCompletion(logId: logId, day: day, at: now, windowSeconds: windowSeconds)
    }
    func child(id: UUID) throws -> Child { try base.child(id: id) }
    func resolveChild(_ selector: String?) throws -> Child { try base.resolveChild(selector) }
    func children(includeArchived: Bool) throws -> [Child] { try base.children(includeArchived: includeArchived) }
    func dataVersion() throws -> Int { try base.dataVersion() }
    func checkFileIdentity() throws { try base.checkFileIdentity() }
}
