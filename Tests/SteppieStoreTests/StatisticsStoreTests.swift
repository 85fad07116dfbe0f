import Foundation
import Testing
import SteppieCore
@testable import SteppieStore

@Suite struct StatisticsStoreTests {
    private func day(_ text: String) throws -> LocalDay { try #require(LocalDay(text)) }
    private func at(_ text: String) throws -> Date { try #require(Timestamp.parse(text)) }

    /// Two routines from Mar 2 (Seoul); the second soft-deleted on Mar 5.
    private func fixture() throws -> (StoreFixture, Child, Routine, Routine) {
        let f = try StoreFixture(now: "2026-03-02T06:00:00+09:00")
        let child = try f.store.addChild(name: "Mina", at: f.now)
        let set = try f.store.createSet(childId: child.id, name: LocalizedText(ko: "아침", en: "Morning"), at: f.now)
        let brush = try f.store.addRoutine(setId: set.id, title: LocalizedText(ko: "양치하기", en: "Brush teeth"), at: f.now)
        let dress = try f.store.addRoutine(setId: set.id, title: LocalizedText(ko: "옷 입기", en: "Get dressed"), at: f.now)
        // Seoul mornings: 07:30 local is 22:30 UTC of the previous day; the log keeps the local date.
        for (date, count) in [("2026-03-02", 2), ("2026-03-03", 1), ("2026-03-04", 2)] {
            for _ in 0..<count { try f.store.complete(childId: child.id, day: try day(date), at: try at("\(date)T07:30:00+09:00")) }
        }
        try f.store.db.run("UPDATE routines SET deleted_at = '2026-03-05T08:00:00.000+09:00' WHERE id = ?", [.text(dress.id.lowercased)])
        return (f, child, brush, dress)
    }

    @Test func historiesCarryTrackingPeriodsAndLocalCompletionDays() throws {
        let (f, child, brush, dress) = try fixture()
        let histories = try f.store.routineHistories(childId: child.id)
        #expect(histories.map(\.routine.id) == [brush.id, dress.id])
        let first = try #require(histories.first?.tracked)
        #expect(first.start == (try day("2026-03-02")))
        #expect(first.end == nil)
        #expect(first.completionDays == Set(try ["2026-03-02", "2026-03-03", "2026-03-04"].map(day)))
        let second = try #require(histories.last?.tracked)
        #expect(second.end == (try day("2026-03-05")))
        #expect(second.completionDays == Set(try ["2026-03-02", "2026-03-04"].map(day)))
        #expect(histories.allSatisfy { $0.inActiveSet && $0.tracked.countsForChild })
    }

    @Test func childStatisticsFollowStackDayRules() throws {
        let (f, child, brush, dress) = try fixture()
        let stats = try f.store.childStatistics(childId: child.id, reference: try day("2026-03-06"))
        #expect(stats.perRoutine[brush.id] == RoutineStatistics(currentStreak: 0, longestStreak: 3, completedDays: 3, eligibleDays: 5))
        #expect(stats.perRoutine[dress.id] == RoutineStatistics(currentStreak: 0, longestStreak: 1, completedDays: 2, eligibleDays: 4))
        #expect(stats.days == RoutineStatistics(currentStreak: 0, longestStreak: 1, completedDays: 2, eligibleDays: 5))
        // On Mar 4 (before the deletion) both streaks were alive, today done.
        let earlier = try f.store.childStatistics(childId: child.id, reference: try day("2026-03-04"))
        #expect(earlier.perRoutine[brush.id]?.currentStreak == 3)
        #expect(earlier.days.currentStreak == 1)
    }

    @Test func monthCalendarCountsPerDay() throws {
        let (f, child, _, _) = try fixture()
        let calendar = try f.store.monthCalendar(childId: child.id, month: try #require(YearMonth("2026-03")), reference: try day("2026-03-06"))
        #expect(calendar.days.prefix(7).map { "\($0.completed)/\($0.total)" } == ["0/0", "2/2", "1/2", "2/2", "0/2", "0/1", "0/0"])
        #expect(calendar.days[6].isFuture)
        let february = try f.store.monthCalendar(childId: child.id, month: try #require(YearMonth("2026-02")), reference: try day("2026-03-06"))
        #expect(february.days.allSatisfy { $0.total == 0 })
    }

    @Test func routinesOfAnInactiveSetDoNotCountForTheChild() throws {
        let (f, child, brush, _) = try fixture()
        let other = try f.store.createSet(childId: child.id, name: LocalizedText(ko: "저녁", en: "Evening"), at: f.now)
        let bath = try f.store.addRoutine(setId: other.id, title: LocalizedText(ko: "목욕하기", en: "Take a bath"), at: f.now)
        let stats = try f.store.childStatistics(childId: child.id, reference: try day("2026-03-06"))
        #expect(stats.perRoutine[bath.id]?.eligibleDays == 5)
        #expect(stats.days.completedDays == 2)
        #expect(stats.perRoutine[brush.id]?.completedDays == 3)
    }

    @Test func unknownChildIsReported() throws {
        let f = try StoreFixture()
        let id = UUID()
        #expect(throws: StoreError.childNotFound(id.lowercased)) { try f.store.routineHistories(childId: id) }
    }
}
