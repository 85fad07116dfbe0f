import Foundation
import SteppieCore
import SteppieSync
import Testing
@testable import SteppieStore

/// A day's corrections are decided from all its events whatever order they arrive in (issue 27:
/// the same state on every device): a correction that reaches a device before the press it
/// corrects is written again when the press comes.
@Suite struct SyncDayOrderTests {
    static func corrections(_ f: StoreFixture) throws -> [String] {
        try f.rawConnection().query("""
            SELECT id || ' ' || date || ' ' || done || ' ' || COALESCE(previous_status, '-') FROM log_corrections ORDER BY id
            """) { $0.text(0) }
    }

    @Test func aCorrectionArrivingBeforeThePressItFollowsEndsTheSameEverywhere() throws {
        let (rig, home, school, child) = try SyncRig.homeAndSchool()
        let routine = try #require(try home.store.today(childId: child.id, day: home.today).items.first?.routine)
        // Home presses and does not sync yet; a minute later school, which has not seen the press,
        // marks the day done (a guardian's correction), and syncs first.
        _ = try home.store.complete(childId: child.id, day: home.today, at: home.now)
        rig.tick(seconds: 60)
        school.now = home.now.addingTimeInterval(60)
        _ = try school.store.setDayEntry(childId: child.id, routineId: routine.id, day: school.today, done: true, at: school.now)
        try rig.sync(1)
        // A third device takes the correction now, the press later, each in its own pull.
        let third = try StoreFixture()
        try rig.join(third, children: [child.id.lowercased])
        try rig.sync(2)
        try rig.sync(0)
        try rig.syncAll()
        try rig.sync(2)
        let hub = try Self.corrections(rig.hub)
        #expect(hub.count == 1)
        #expect(try Self.corrections(home) == hub)
        #expect(try Self.corrections(school) == hub)
        #expect(try Self.corrections(third) == hub, "the first fold's previous status stayed")
    }
}
