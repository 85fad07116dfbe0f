import Foundation
import Testing
@testable import SteppieCore

private func day(_ text: String) -> LocalDay {
    guard let d = LocalDay(text) else { fatalError("bad test day \(text)") }
    return d
}

private func month(_ text: String) -> YearMonth {
    guard let m = YearMonth(text) else { fatalError("bad test month \(text)") }
    return m
}

/// A month for a report: the month's days for counts, rates and longest streaks; the streak still
/// running on the month's last judged day counted whole (it may have begun the month before).
@Suite struct MonthReportTests {
    let brush = UUID()
    let old = UUID()

    @Test func aPastMonthCountsItsOwnDaysAndTheStreakRunningAtItsEnd() throws {
        // Done every day from 28 Jan to 3 Feb, then 10–11 Feb and the last two days of February.
        let done = ["2026-01-28", "2026-01-29", "2026-01-30", "2026-01-31", "2026-02-01", "2026-02-02", "2026-02-03",
                    "2026-02-10", "2026-02-11", "2026-02-27", "2026-02-28", "2026-03-01"].map(day)
        let routines = [TrackedRoutine(id: brush, start: day("2026-01-20"), completionDays: done),
                        // Deleted on 5 Feb: 5 days of February.
                        TrackedRoutine(id: old, start: day("2026-01-01"), end: day("2026-02-05"), completionDays: [day("2026-02-02")])]
        let report = MonthReport(month: month("2026-02"), routines: routines, reference: day("2026-03-10"))
        #expect(report.through == day("2026-02-28"))
        let s = try #require(report.inMonth.perRoutine[brush])
        // 7 of 28 February days; the longest run *in February* is 3 (1–3 Feb), not the 7 across months.
        #expect(s == RoutineStatistics(currentStreak: 2, longestStreak: 3, completedDays: 7, eligibleDays: 28))
        #expect(report.inMonth.perRoutineStreaks[brush]?.longest == day("2026-02-01")...day("2026-02-03"))
        // On 28 Feb the streak running is 2 (27–28); 1 Mar is after the report's end.
        #expect(report.atEnd.perRoutine[brush]?.currentStreak == 2)
        #expect(report.inMonth.perRoutine[old] == RoutineStatistics(currentStreak: 0, longestStreak: 1, completedDays: 1, eligibleDays: 5))
        #expect(report.covers(brush) && report.covers(old))
        // Same rules as the child's statistics: the whole days of February on their own.
        #expect(report.inMonth.days == ChildStatistics(routines: routines.map { $0.clipped(to: day("2026-02-01")...day("2026-02-28")) },
                                                       reference: day("2026-02-28")).days)
    }

    @Test func aStreakFromTheMonthBeforeIsCountedWholeOnTheMonthsLastDay() {
        let done = (0..<10).map { day("2026-01-27").adding(days: $0) }   // 27 Jan … 5 Feb
        let routine = TrackedRoutine(id: brush, start: day("2026-01-01"), completionDays: done)
        let report = MonthReport(month: month("2026-02"), routines: [routine], reference: day("2026-02-05"))
        #expect(report.through == day("2026-02-05"))
        #expect(report.atEnd.perRoutine[brush]?.currentStreak == 10)
        #expect(report.atEnd.perRoutineStreaks[brush]?.current == day("2026-01-27")...day("2026-02-05"))
        #expect(report.inMonth.perRoutine[brush] == RoutineStatistics(currentStreak: 5, longestStreak: 5, completedDays: 5, eligibleDays: 5))
    }

    @Test func aMonthNotBegunOrBeforeTheRoutinesCountsNothing() {
        let routine = TrackedRoutine(id: brush, start: day("2026-02-10"), completionDays: [day("2026-02-10")])
        let later = MonthReport(month: month("2026-03"), routines: [routine], reference: day("2026-02-20"))
        #expect(later.through == nil && !later.covers(brush))
        let before = MonthReport(month: month("2026-01"), routines: [routine], reference: day("2026-02-20"))
        #expect(before.through == day("2026-01-31") && !before.covers(brush) && before.inMonth.days == .empty)
    }
}
