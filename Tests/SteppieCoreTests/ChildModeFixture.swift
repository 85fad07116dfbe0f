import Foundation
@testable import SteppieCore

/// Three routines of one set, fixed ids and instants, in Seoul.
enum ChildModeFixture {
    static let zone = TimeZone(identifier: "Asia/Seoul") ?? .current
    static let setId = UUID(uuidString: "00000000-0000-4000-8000-0000000000a0") ?? UUID()
    static let r1 = UUID(uuidString: "00000000-0000-4000-8000-000000000001") ?? UUID()
    static let r2 = UUID(uuidString: "00000000-0000-4000-8000-000000000002") ?? UUID()
    static let r3 = UUID(uuidString: "00000000-0000-4000-8000-000000000003") ?? UUID()
    static let l1 = UUID(uuidString: "00000000-0000-4000-8000-0000000000b1") ?? UUID()
    static let l3 = UUID(uuidString: "00000000-0000-4000-8000-0000000000b3") ?? UUID()
    /// 2026-03-02 07:00 in Seoul.
    static let t0 = Timestamp.parse("2026-03-02T07:00:00+09:00") ?? Date()
    static let day = LocalDay(t0, in: zone)

    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    static func routine(_ id: UUID, _ order: Int, time: String? = nil) -> Routine {
        Routine(id: id, routineSetId: setId, title: LocalizedText(ko: "활동\(order)", en: "Activity \(order)"),
                icon: .builtin(name: "star"), order: order, scheduledTime: time.flatMap(LocalTime.init), createdAt: t0)
    }

    static func set(start: String? = nil) -> RoutineSet {
        RoutineSet(id: setId, childId: setId, name: LocalizedText(ko: "아침", en: "Morning"), isActive: true,
                   startTime: start.flatMap(LocalTime.init), createdAt: t0)
    }

    static func log(_ id: UUID, _ routine: UUID, completedAt: Date?, day: LocalDay = day) -> DailyLog {
        DailyLog(id: id, date: day, routineId: routine, routineSetId: setId, status: completedAt == nil ? .undone : .completed,
                 completedAt: completedAt, createdAt: completedAt ?? t0)
    }

    static func plan(done: [UUID: Date] = [:], start: String? = nil, times: [UUID: String] = [:], day: LocalDay = day) -> DayPlan {
        DayPlan(day: day, set: set(start: start), items: [r1, r2, r3].enumerated().map { i, id in
            DayPlan.Item(routine: routine(id, i, time: times[id]), log: done[id].map { log(id == r3 ? l3 : l1, id, completedAt: $0, day: day) })
        })
    }

    /// A state after `started`, with the given plan.
    static func state(_ plan: DayPlan = plan(), profile: FeedbackProfile = FeedbackProfile(), now: Date = t0) -> ChildModeState {
        var s = ChildModeState(timeZone: zone, profile: profile, plan: plan, now: now)
        s.focus = plan.current?.routine.id
        return s
    }
}
