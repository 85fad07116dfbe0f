import Foundation
import Testing
@testable import SteppieCore

private func day(_ text: String) -> LocalDay {
    guard let d = LocalDay(text) else { fatalError("bad test day \(text)") }
    return d
}

private func days(_ texts: String...) -> [LocalDay] { texts.map(day) }

@Suite struct StackDayStatisticsTests {
    @Test func stackDayExampleGapInTheMiddle() {
        // Completions on Jan 1, 2, 3, 5, 6 with reference Jan 6 → current 2, longest 3.
        let s = StatisticsCalculator.statistics(start: day("2026-01-01"), end: nil,
            completions: days("2026-01-01", "2026-01-02", "2026-01-03", "2026-01-05", "2026-01-06"), reference: day("2026-01-06"))
        #expect(s == RoutineStatistics(currentStreak: 2, longestStreak: 3, completedDays: 5, eligibleDays: 6))
        #expect(abs(s.completionRate - 5.0 / 6.0) < 1e-12)
    }

    @Test func stackDayExampleBrokenBeforeYesterday() {
        // Jan 1, 2 with reference Jan 4 → current 0, longest 2.
        let s = StatisticsCalculator.statistics(start: day("2026-01-01"), end: nil,
            completions: days("2026-01-01", "2026-01-02"), reference: day("2026-01-04"))
        #expect(s.currentStreak == 0)
        #expect(s.longestStreak == 2)
        #expect(s.eligibleDays == 4)
        #expect(s.completedDays == 2)
        #expect(s.completionRate == 0.5)
    }

    @Test func stackDayExampleTrackingEnded() {
        // Tracking ended Jan 2, reference Jan 4 → eligible 2, rate 1.0, current 2, longest 2.
        let s = StatisticsCalculator.statistics(start: day("2026-01-01"), end: day("2026-01-02"),
            completions: days("2026-01-01", "2026-01-02"), reference: day("2026-01-04"))
        #expect(s == RoutineStatistics(currentStreak: 2, longestStreak: 2, completedDays: 2, eligibleDays: 2))
        #expect(s.completionRate == 1.0)
    }

    @Test func todayNotYetDoneDoesNotBreakTheStreak() {
        let s = StatisticsCalculator.statistics(start: day("2026-01-01"), end: nil,
            completions: days("2026-01-01", "2026-01-02", "2026-01-03"), reference: day("2026-01-04"))
        #expect(s.currentStreak == 3)
        #expect(s.eligibleDays == 4)
        // Done today: the streak grows by one.
        let done = StatisticsCalculator.statistics(start: day("2026-01-01"), end: nil,
            completions: days("2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04"), reference: day("2026-01-04"))
        #expect(done.currentStreak == 4)
        #expect(done.completionRate == 1.0)
    }

    @Test func yesterdayMissedBreaksItEvenIfTodayIsPending() {
        let s = StatisticsCalculator.statistics(start: day("2026-01-01"), end: nil,
            completions: days("2026-01-01", "2026-01-02"), reference: day("2026-01-04"))
        #expect(s.currentStreak == 0)
    }

    @Test func startAfterReferenceHasNothingEligible() {
        let s = StatisticsCalculator.statistics(start: day("2026-01-10"), end: nil,
            completions: days("2026-01-10"), reference: day("2026-01-04"))
        #expect(s == .empty)
        #expect(s.completionRate == 0)
    }

    @Test func startAfterEndOfTrackingHasNothingEligible() {
        let s = StatisticsCalculator.statistics(start: day("2026-01-05"), end: day("2026-01-03"),
            completions: [], reference: day("2026-01-09"))
        #expect(s == .empty)
    }

    @Test func duplicateCompletionsOnOneDayCountOnce() {
        let s = StatisticsCalculator.statistics(start: day("2026-01-01"), end: nil,
            completions: days("2026-01-02", "2026-01-02", "2026-01-02"), reference: day("2026-01-02"))
        #expect(s == RoutineStatistics(currentStreak: 1, longestStreak: 1, completedDays: 1, eligibleDays: 2))
    }

    @Test func completionsBeforeStartAndAfterReferenceAreIgnored() {
        let s = StatisticsCalculator.statistics(start: day("2026-01-02"), end: nil,
            completions: days("2025-12-31", "2026-01-01", "2026-01-02", "2026-01-05"), reference: day("2026-01-03"))
        #expect(s == RoutineStatistics(currentStreak: 1, longestStreak: 1, completedDays: 1, eligibleDays: 2))
    }

    @Test func completionsAfterTheEndOfTrackingAreIgnored() {
        let s = StatisticsCalculator.statistics(start: day("2026-01-01"), end: day("2026-01-02"),
            completions: days("2026-01-02", "2026-01-03", "2026-01-04"), reference: day("2026-01-04"))
        #expect(s == RoutineStatistics(currentStreak: 1, longestStreak: 1, completedDays: 1, eligibleDays: 2))
    }

    @Test func endOfTrackingTodayCountsTodayAsPending() {
        // Deleted today before completing: today is the final day and still pending.
        let s = StatisticsCalculator.statistics(start: day("2026-01-01"), end: day("2026-01-03"),
            completions: days("2026-01-01", "2026-01-02"), reference: day("2026-01-03"))
        #expect(s == RoutineStatistics(currentStreak: 2, longestStreak: 2, completedDays: 2, eligibleDays: 3))
    }

    @Test func streaksCrossMonthAndYearBoundaries() {
        let s = StatisticsCalculator.statistics(start: day("2024-02-27"), end: nil,
            completions: days("2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01"), reference: day("2024-03-01"))
        #expect(s.currentStreak == 4)
        #expect(s.longestStreak == 4)
    }

    @Test func entryStates() {
        let routine = TrackedRoutine(id: UUID(), start: day("2026-01-02"), end: nil, completionDays: days("2026-01-02"))
        let ref = day("2026-01-04")
        #expect(StatisticsCalculator.entryState(of: routine, on: day("2026-01-01"), reference: ref) == nil)
        #expect(StatisticsCalculator.entryState(of: routine, on: day("2026-01-02"), reference: ref) == .completed)
        #expect(StatisticsCalculator.entryState(of: routine, on: day("2026-01-03"), reference: ref) == .missed)
        #expect(StatisticsCalculator.entryState(of: routine, on: day("2026-01-04"), reference: ref) == .pending)
        #expect(StatisticsCalculator.entryState(of: routine, on: day("2026-01-05"), reference: ref) == nil)
    }
}

@Suite struct StatisticsTimeZoneTests {
    private func instant(_ text: String) throws -> Date { try #require(Timestamp.parse(text)) }

    @Test(arguments: ["2026-03-08", "2026-11-01"])
    func lateEveningCompletionOnADSTDayStaysThatLocalDay(_ dstDay: String) throws {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        // The offsets in force at 00:30 and at 23:30 of the day the clocks change.
        let (morning, evening) = dstDay == "2026-03-08" ? ("-05:00", "-04:00") : ("-04:00", "-05:00")
        let completion = try instant("\(dstDay)T23:30:00\(evening)")
        let created = try instant("\(dstDay)T00:30:00\(morning)")
        let routine = TrackedRoutine(id: UUID(), createdAt: created, deletedAt: nil, completedAt: [completion], in: zone)
        #expect(routine.start == day(dstDay))
        #expect(routine.completionDays == [day(dstDay)])
        // In UTC the completion already falls on the next day.
        #expect(LocalDay(completion, in: try #require(TimeZone(identifier: "UTC"))) == day(dstDay).adding(days: 1))
        let s = StatisticsCalculator.statistics(for: routine, reference: day(dstDay))
        #expect(s == RoutineStatistics(currentStreak: 1, longestStreak: 1, completedDays: 1, eligibleDays: 1))
        let next = StatisticsCalculator.statistics(for: routine, reference: day(dstDay).adding(days: 1))
        #expect(next == RoutineStatistics(currentStreak: 1, longestStreak: 1, completedDays: 1, eligibleDays: 2))
    }

    @Test func streakRunsThroughBothDSTChanges() throws {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        // 23:30 local every evening from Mar 6 to Mar 10: the 23-hour day changes nothing.
        let completions = try ["2026-03-06T23:30:00-05:00", "2026-03-07T23:30:00-05:00", "2026-03-08T23:30:00-04:00",
                               "2026-03-09T23:30:00-04:00"].map(instant)
        let routine = TrackedRoutine(id: UUID(), createdAt: try instant("2026-03-06T08:00:00-05:00"), deletedAt: nil,
                                     completedAt: completions, in: zone)
        let s = StatisticsCalculator.statistics(for: routine, reference: day("2026-03-10"))
        #expect(s == RoutineStatistics(currentStreak: 4, longestStreak: 4, completedDays: 4, eligibleDays: 5))
        // The 25-hour day in November: 00:30 and 01:30 (twice) are all Nov 1.
        let fall = try ["2026-11-01T00:30:00-04:00", "2026-11-01T01:30:00-04:00", "2026-11-01T01:30:00-05:00"].map(instant)
        #expect(Set(fall.map { LocalDay($0, in: zone) }) == [day("2026-11-01")])
    }

    @Test func seoulMorningCountsForTheLocalDayNotTheUTCDay() throws {
        let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
        // 07:30 in Seoul on Mar 2 is 22:30 UTC on Mar 1.
        let completion = try instant("2026-03-02T07:30:00+09:00")
        #expect(LocalDay(completion, in: try #require(TimeZone(identifier: "UTC"))) == day("2026-03-01"))
        let routine = TrackedRoutine(id: UUID(), createdAt: try instant("2026-03-01T20:00:00+09:00"),
                                     deletedAt: try instant("2026-03-03T06:00:00+09:00"), completedAt: [completion], in: seoul)
        #expect(routine.start == day("2026-03-01"))
        #expect(routine.end == day("2026-03-03"))
        #expect(routine.completionDays == [day("2026-03-02")])
        let s = StatisticsCalculator.statistics(for: routine, reference: day("2026-03-05"))
        // Eligible Mar 1–3; completed only Mar 2; Mar 3 (the deletion day) is the final day and missed.
        #expect(s == RoutineStatistics(currentStreak: 0, longestStreak: 1, completedDays: 1, eligibleDays: 3))
    }
}
