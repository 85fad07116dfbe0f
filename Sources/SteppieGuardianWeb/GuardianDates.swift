import Foundation
import SteppieCore

extension GuardianWeb.Request {
    /// Dates as a guardian reads them, in the page's language, from the catalogs (`web.date.*`,
    /// `web.month.*`, `web.weekday*`): no ICU, the same words in every browser. Links, form values
    /// and `data-` attributes keep the ISO forms.
    private static let weekdayCodes = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let monthCodes = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private func monthWord(_ number: Int, short: Bool = false) -> String {
        let code = Self.monthCodes[number - 1]
        return short ? t("web.monthShort.\(code)") : t("web.month.\(code)")
    }

    private func weekday(_ day: LocalDay, long: Bool) -> String {
        let code = Self.weekdayCodes[day.isoWeekday - 1]
        return long ? t("web.weekdayLong.\(code)") : t("web.weekday.\(code)")
    }

    /// "December 2026" / "2026년 12월".
    func monthName(_ month: YearMonth) -> String {
        t("web.date.monthYear", ["monthName": monthWord(month.month), "year": String(month.year)])
    }

    /// "Wednesday, 2 December 2026" / "2026년 12월 2일 수요일": a day's heading, a screen reader's label.
    func longDate(_ day: LocalDay) -> String {
        t("web.date.long", ["weekday": weekday(day, long: true), "day": String(day.day),
                            "monthName": monthWord(day.month), "year": String(day.year)])
    }

    /// "Wed 2 Dec" / "12월 2일 (수)": a row of one month's table.
    func shortDate(_ day: LocalDay) -> String {
        t("web.date.short", ["weekday": weekday(day, long: false), "day": String(day.day), "monthName": monthWord(day.month, short: true)])
    }

    /// "2 Dec 2026" / "2026년 12월 2일": a day that may be in another month or year.
    func mediumDate(_ day: LocalDay) -> String {
        t("web.date.medium", ["day": String(day.day), "monthName": monthWord(day.month, short: true), "year": String(day.year)])
    }

    /// "2 Dec 2026, 09:44" / "2026년 12월 2일 09:44", in the device's time zone.
    func dateTime(_ instant: Date) -> String {
        t("web.date.time", ["date": mediumDate(LocalDay(instant, in: config.timeZone)),
                            "time": LocalTime(instant, in: config.timeZone).description])
    }

    /// `dateTime` of an ISO 8601 timestamp with its offset (a backup's `createdAt`); the text as it
    /// is when it does not parse.
    func dateTime(iso text: String) -> String {
        Timestamp.parse(text).map(dateTime) ?? text
    }
}
