import Foundation
import SteppieCore
import SteppieSync
import Testing
@testable import SteppieCentreWeb

/// The overview and the month folded from registers and events by the devices' rules.
struct CentreOverviewTests {
    let device = DeviceID(UUID())
    let other = DeviceID(UUID())
    var tick: Int64 = 1_796_000_000_000

    mutating func stamp(_ on: DeviceID? = nil) -> HybridTimestamp {
        tick += 1
        return HybridTimestamp(wall: tick, counter: 0, device: on ?? device)
    }

    /// Mina with a set of three routines (the middle one inactive, then a fourth one active).
    mutating func centre() -> (SyncReplica, child: String, routines: [String], set: String) {
        var r = SyncReplica()
        let child = UUID().uuidString.lowercased(), set = UUID().uuidString.lowercased()
        let routines = (0..<4).map { _ in UUID().uuidString.lowercased() }
        r.apply(FieldChange(entity: .child, record: child, child: child, field: "name", value: .string("Mina"), stamp: stamp()))
        r.apply(FieldChange(entity: .routineSet, record: set, child: child, field: "child", value: .string(child), stamp: stamp()))
        for (i, id) in routines.enumerated() {
            r.apply(FieldChange(entity: .routine, record: id, child: child, field: "set", value: .string(set), stamp: stamp()))
            r.apply(FieldChange(entity: .routine, record: id, child: child, field: "title",
                                value: .object(["en": .string("Step \(i)"), "ko": .string("단계 \(i)")]), stamp: stamp()))
            if i == 1 { r.apply(FieldChange(entity: .routine, record: id, child: child, field: "active", value: .bool(false), stamp: stamp())) }
        }
        r.apply(FieldChange(entity: .routineSet, record: set, child: child, field: "order", value: .array([0, 2, 3].map { .string(routines[$0]) }),
                            stamp: stamp()))
        r.apply(FieldChange(entity: .child, record: child, child: child, field: "activeSet", value: .string(set), stamp: stamp()))
        return (r, child, routines, set)
    }

    mutating func press(_ r: inout SyncReplica, _ child: String, _ routine: String, _ set: String, _ date: String,
                        _ kind: CompletionEvent.Kind = .press, on: DeviceID? = nil, at: String = "2026-12-04T09:00:00+09:00") {
        r.apply(CompletionEvent(id: UUID().uuidString.lowercased(), child: child, routine: routine, set: set, date: date, kind: kind,
                                at: at, stamp: stamp(on)))
    }

    @Test mutating func theCurrentActivityIsTheFirstVisibleRoutineNotDoneToday() {
        var (r, child, routines, set) = centre()
        var overview = CentreOverview(replica: r, children: [child], day: "2026-12-04")
        #expect(overview.children.map(\.name) == ["Mina"])
        #expect(overview.children[0].current?.routine == routines[0])
        #expect(overview.children[0].done == 0 && overview.children[0].total == 3)
        #expect(overview.children[0].lastPress == nil)

        press(&r, child, routines[0], set, "2026-12-04", at: "2026-12-04T09:00:00+09:00")
        press(&r, child, routines[2], set, "2026-12-04", on: other, at: "2026-12-04T09:05:00+09:00")
        // Yesterday's press of the last one does not count today.
        press(&r, child, routines[3], set, "2026-12-03")
        overview = CentreOverview(replica: r, children: [child], day: "2026-12-04")
        #expect(overview.children[0].current?.routine == routines[3])
        #expect(overview.children[0].current?.title.values["en"] == "Step 3")
        #expect(overview.children[0].done == 2)
        #expect(overview.children[0].lastPress == CentreOverview.Press(at: "2026-12-04T09:05:00+09:00", device: other))

        // An undo after the press leaves it not done (DayFold), and it is current again.
        press(&r, child, routines[2], set, "2026-12-04", .undo)
        overview = CentreOverview(replica: r, children: [child], day: "2026-12-04")
        #expect(overview.children[0].current?.routine == routines[2])
        #expect(overview.children[0].done == 1)
    }

    @Test mutating func archivedAndUnknownChildrenAreLeftOut() {
        var (r, child, _, _) = centre()
        r.apply(FieldChange(entity: .child, record: child, child: child, field: "archived", value: .bool(true), stamp: stamp()))
        #expect(CentreOverview(replica: r, children: [child, "nobody"], day: "2026-12-04").children.isEmpty)
    }

    @Test mutating func theMonthCountsTheActiveSetsActiveRoutinesPerDay() throws {
        var (r, child, routines, set) = centre()
        // A routine made on 2026-12-02 is tracked from then on.
        tick = 1_796_200_000_000
        let late = UUID().uuidString.lowercased()
        r.apply(FieldChange(entity: .routine, record: late, child: child, field: "set", value: .string(set), stamp: stamp()))
        r.apply(FieldChange(entity: .routineSet, record: set, child: child, field: "order",
                            value: .array([0, 2, 3].map { .string(routines[$0]) } + [.string(late)]), stamp: stamp()))
        press(&r, child, routines[0], set, "2026-12-03")
        press(&r, child, routines[2], set, "2026-12-03")
        press(&r, child, routines[1], set, "2026-12-03")   // inactive: not counted
        press(&r, child, routines[0], set, "2026-12-04")
        let zone = try #require(TimeZone(identifier: "Asia/Seoul"))
        let month = try #require(YearMonth("2026-12")), today = try #require(LocalDay("2026-12-04"))
        let calendar = CentreOverview.month(replica: r, child: child, month: month, reference: today, timeZone: zone)
        let days = Dictionary(uniqueKeysWithValues: calendar.days.map { ($0.day.description, ($0.completed, $0.total)) })
        // The routines were made on 2026-11-30 (the stamps' wall time in Seoul): tracked all month.
        #expect(days["2026-12-01"]! == (0, 3))
        #expect(days["2026-12-02"]! == (0, 4))
        #expect(days["2026-12-03"]! == (2, 4))
        #expect(days["2026-12-04"]! == (1, 4))
        #expect(days["2026-12-05"]! == (0, 0))
    }

    @Test func acceptLanguageChoosesThePagesLanguageByWeight() {
        #expect(CentreRequest.preferred("en-US,en;q=0.9,ko;q=0.8") == "en")
        #expect(CentreRequest.preferred("fr, ko;q=0.5, en;q=0.4") == "ko")
        #expect(CentreRequest.preferred("en;q=0, ko") == "ko")
        #expect(CentreRequest.preferred("fr") == nil)
        #expect(CentreRequest.preferred(nil) == nil)
    }
}
