import Foundation
import Testing
@testable import SteppieCore

private func day(_ text: String) -> LocalDay {
    guard let d = LocalDay(text) else { fatalError("bad test day \(text)") }
    return d
}

@Suite struct ChildStatisticsTests {
    let brush = UUID()
    let dress = UUID()
    let old = UUID()

    private func routines() -> [TrackedRoutine] {
        [
            TrackedRoutine(id: brush, start: day("2026-01-01"), completionDays: ["2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04"].map(day)),
            TrackedRoutine(id: dress, start: day("2026-01-02"), completionDays: ["2026-01-02", "2026-01-04"].map(day)),
            // Soft-deleted on Jan 3: counts only up to then.
            TrackedRoutine(id: old, start: day("2026-01-01"), end: day("2026-01-03"), completionDays: ["2026-01-01"].map(day)),
        ]
    }

    @Test func childDayIsCompletedWhenEveryTrackedRoutineIsDone() {
        let stats = ChildStatistics(routines: routines(), reference: day("2026-01-05"))
        // Jan 1: brush+old done ✓. Jan 2: old missing ✗. Jan 3: dress, old missing ✗. Jan 4: brush+dress ✓. Jan 5: pending.
        #expect(stats.days == RoutineStatistics(currentStreak: 1, longestStreak: 1, completedDays: 2, eligibleDays: 5))
        #expect(stats.perRoutine[brush] == RoutineStatistics(currentStreak: 4, longestStreak: 4, completedDays: 4, eligibleDays: 5))
        #expect(stats.perRoutine[old] == RoutineStatistics(currentStreak: 0, longestStreak: 1, completedDays: 1, eligibleDays: 3))
        #expect(stats.completedRoutineDays == 4 + 2 + 1)
        #expect(stats.eligibleRoutineDays == 5 + 4 + 3)
        #expect(abs(stats.routineDayRate - 7.0 / 12.0) < 1e-12)
    }

    @Test func routinesNotCountedForTheChildStillGetTheirOwnStatistics() {
        let other = TrackedRoutine(id: UUID(), start: day("2026-01-01"), completionDays: [], countsForChild: false)
        let stats = ChildStatistics(routines: routines() + [other], reference: day("2026-01-05"))
        #expect(stats.days.completedDays == 2)
        #expect(stats.perRoutine[other.id]?.eligibleDays == 5)
        #expect(stats.eligibleRoutineDays == 12)
    }

    @Test func daysWithNothingTrackedNeitherCountNorBreak() {
        let a = TrackedRoutine(id: UUID(), start: day("2026-01-01"), end: day("2026-01-02"), completionDays: ["2026-01-01", "2026-01-02"].map(day))
        let b = TrackedRoutine(id: UUID(), start: day("2026-01-05"), completionDays: ["2026-01-05"].map(day))
        let stats = ChildStatistics(routines: [a, b], reference: day("2026-01-06"))
        #expect(stats.days == RoutineStatistics(currentStreak: 3, longestStreak: 3, completedDays: 3, eligibleDays: 4))
    }

    @Test func noRoutinesMeansEmpty() {
        let stats = ChildStatistics(routines: [], reference: day("2026-01-06"))
        #expect(stats.days == .empty)
        #expect(stats.routineDayRate == 0)
    }

    @Test func monthCalendarCountsCompletedOutOfTracked() throws {
        let month = try #require(YearMonth("2026-01"))
        let calendar = MonthCalendar(month: month, routines: routines(), reference: day("2026-01-05"))
        #expect(calendar.days.count == 31)
        let cells = calendar.days.prefix(6).map { "\($0.completed)/\($0.total)" }
        #expect(cells == ["2/2", "2/3", "1/3", "2/2", "0/2", "0/0"])
        #expect(calendar.days[0].outcome == .completed)
        #expect(calendar.days[1].outcome == .missed)
        #expect(calendar.days[4].outcome == .pending)
        #expect(calendar.days[4].isReference)
        #expect(calendar.days[5].isFuture)
        #expect(calendar.days[5].ratio == nil)
        #expect(calendar.days[1].ratio == 2.0 / 3.0)
    }

    @Test func monthCalendarBeforeAnyRoutineIsEmpty() throws {
        let calendar = MonthCalendar(month: try #require(YearMonth("2025-12")), routines: routines(), reference: day("2026-01-05"))
        #expect(calendar.days.allSatisfy { $0.total == 0 && $0.outcome == nil && !$0.isFuture })
    }

    @Test func yearMonthParsesAndListsDays() throws {
        #expect(YearMonth("2024-02")?.days.count == 29)
        #expect(YearMonth("2026-02")?.lastDay == day("2026-02-28"))
        #expect(YearMonth("2026-12")?.description == "2026-12")
        for bad in ["2026-13", "2026-00", "2026-1", "26-01", "2026/01", "2026-01-01", ""] { #expect(YearMonth(bad) == nil) }
    }
}
