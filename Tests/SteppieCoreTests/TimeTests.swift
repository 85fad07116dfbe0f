import Foundation
import Testing
@testable import SteppieCore

@Suite struct LocalDayTests {
    @Test(arguments: ["2026-01-01", "2024-02-29", "1999-12-31", "2026-11-29"])
    func parsesAndPrintsValidDays(_ text: String) throws {
        let day = try #require(LocalDay(text))
        #expect(day.description == text)
        #expect(LocalDay(dayNumber: day.dayNumber) == day)
    }

    @Test(arguments: ["2026-02-29", "2026-13-01", "2026-00-10", "2026-1-01", "26-01-01", "2026/01/01", "", "2026-01-01T00", "２０２６-01-01"])
    func refusesInvalidDays(_ text: String) {
        #expect(LocalDay(text) == nil)
    }

    @Test func dayArithmeticCrossesMonthsAndLeapYears() throws {
        let d = try #require(LocalDay("2024-02-28"))
        #expect(d.adding(days: 1).description == "2024-02-29")
        #expect(d.adding(days: 2).description == "2024-03-01")
        #expect(d.adding(days: 366).description == "2025-02-28")
        #expect(try #require(LocalDay("1970-01-01")).dayNumber == 0)
        #expect(try #require(LocalDay("2026-11-30")).isoWeekday == 1)
    }

    @Test func localDateDependsOnTheTimeZone() throws {
        // 2026-03-01 23:30 in Seoul is still 2026-03-01 14:30 UTC.
        let instant = try #require(Timestamp.parse("2026-03-01T23:30:00+09:00"))
        #expect(LocalDay(instant, in: try #require(TimeZone(identifier: "Asia/Seoul"))).description == "2026-03-01")
        #expect(LocalDay(instant, in: try #require(TimeZone(identifier: "America/New_York"))).description == "2026-03-01")
        let morning = try #require(Timestamp.parse("2026-03-02T07:00:00+09:00"))
        #expect(LocalDay(morning, in: try #require(TimeZone(identifier: "UTC"))).description == "2026-03-01")
    }

    @Test func dayStartsRespectDaylightSaving() throws {
        let ny = try #require(TimeZone(identifier: "America/New_York"))
        let spring = try #require(LocalDay("2026-03-08"))
        let next = spring.adding(days: 1)
        #expect(next.start(in: ny).timeIntervalSince(spring.start(in: ny)) == 23 * 3600)
        let fall = try #require(LocalDay("2026-11-01"))
        #expect(fall.adding(days: 1).start(in: ny).timeIntervalSince(fall.start(in: ny)) == 25 * 3600)
    }
}

@Suite struct LocalTimeTests {
    @Test(arguments: ["00:00", "07:30", "23:59"])
    func accepts(_ t: String) throws { #expect(try #require(LocalTime(t)).description == t) }

    @Test(arguments: ["25:00", "24:00", "7:30", "07:60", "0730", "07:3a", ""])
    func refuses(_ t: String) { #expect(LocalTime(t) == nil) }

    @Test func quietHoursMayWrapPastMidnight() throws {
        let s = try #require(LocalTime("21:00")), e = try #require(LocalTime("07:00"))
        #expect(try #require(LocalTime("23:10")).isInside(from: s, to: e))
        #expect(try #require(LocalTime("06:59")).isInside(from: s, to: e))
        #expect(!(try #require(LocalTime("07:00")).isInside(from: s, to: e)))
        #expect(!(try #require(LocalTime("12:00")).isInside(from: s, to: e)))
    }
}

@Suite struct TimestampTests {
    @Test func formatsWithTheZoneOffsetAndParsesBack() throws {
        let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
        let date = Date(timeIntervalSince1970: 1_790_000_000.25)
        let text = Timestamp.format(date, in: seoul)
        #expect(text.hasSuffix("+09:00"))
        #expect(text.contains(".250"))
        #expect(Timestamp.parse(text) == date)
    }

    @Test(arguments: [("2026-01-01T00:00:00Z", 1_767_225_600.0), ("2026-01-01T09:00:00+09:00", 1_767_225_600.0),
                      ("2026-01-01T09:00:00.5+0900", 1_767_225_600.5), ("2025-12-31T19:00:00-05:00", 1_767_225_600.0)])
    func parsesOffsets(_ text: String, _ seconds: Double) {
        #expect(Timestamp.parse(text)?.timeIntervalSince1970 == seconds)
    }

    @Test(arguments: ["2026-01-01T00:00:00", "2026-01-01 00:00:00Z", "2026-02-30T00:00:00Z", "2026-01-01T25:00:00Z", "garbage"])
    func refusesTimestampsWithoutOffsetOrInvalid(_ text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test func manualClockMovesOnlyWhenTold() {
        let clock = ManualWallClock(Date(timeIntervalSince1970: 100))
        #expect(clock.now().timeIntervalSince1970 == 100)
        clock.advance(by: 5.5)
        #expect(clock.now().timeIntervalSince1970 == 105.5)
    }
}
