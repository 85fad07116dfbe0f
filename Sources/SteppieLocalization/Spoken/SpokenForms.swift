import SteppieCore

/// How times, dates and counts are said aloud in Korean and English (what the voice is handed,
/// not what the screen shows). Languages other than Korean use the English rules.
///
/// | value | Korean | English |
/// |---|---|---|
/// | 07:30 | 일곱 시 삼십 분 | seven thirty |
/// | 07:00 | 일곱 시 | seven o'clock |
/// | 07:05 | 일곱 시 오 분 | seven oh five |
/// | 19:30 | 저녁 일곱 시 삼십 분 | seven thirty in the evening |
/// | 03-08 | 삼월 팔 일 | March eighth |
/// | 3 before 개 / 분 | 세 개 / 삼 분 | three |
public enum SpokenForms {
    /// True when `locale` speaks Korean.
    public static func isKorean(_ locale: String) -> Bool { LocaleTag.language(of: locale) == "ko" }

    /// A value as it is said, before `following` (the catalog text after the placeholder, which
    /// may begin with a Korean counter word).
    public static func say(_ value: MessageValue, locale: String, following: Substring = "") -> String {
        switch value {
        case .text(let text): SpokenText.normalize(text, locale: locale)
        case .count(let n): count(n, locale: locale, following: following)
        case .time(let time): self.time(time, locale: locale)
        case .date(let year, let month, let day): date(year: year, month: month, day: day, locale: locale)
        }
    }

    /// A count: in Korean read for the counter that follows (세 개, 일곱 시, 오 분, 삼월) and
    /// separated from it by a space (but 삼월); Sino-Korean without a counter; English words.
    public static func count(_ n: Int, locale: String, following: Substring = "") -> String {
        guard isKorean(locale) else { return EnglishNumbers.cardinal(n) }
        guard let counter = KoreanCounter.prefix(of: following.drop(while: { $0 == " " })) else {
            return KoreanNumbers.sino(n)
        }
        if counter.system == .month { return String(KoreanNumbers.month(n).dropLast()) }
        return KoreanNumbers.reading(n, counter: counter) + (following.first == " " ? "" : " ")
    }

    /// A time of day. Korean: native hours, Sino-Korean minutes (일곱 시 삼십 분), with 새벽, 낮,
    /// 오후, 저녁 or 밤 outside the morning. English: seven thirty, seven o'clock, seven oh five, with
    /// "in the afternoon", "in the evening" or "at night" outside the morning; twelve noon, twelve
    /// midnight.
    public static func time(_ time: LocalTime, locale: String) -> String {
        let h12 = time.hour % 12 == 0 ? 12 : time.hour % 12
        if isKorean(locale) {
            let part: String? = switch time.hour {
            case 0, 21...23: "밤"
            case 1...4: "새벽"
            case 12: "낮"
            case 13...17: "오후"
            case 18...20: "저녁"
            default: nil
            }
            let clock = koreanClock(hour: time.hour, minute: time.minute)
            return part.map { $0 + " " + clock } ?? clock
        }
        let hour = EnglishNumbers.cardinal(h12)
        if time.minute == 0 && time.hour == 12 { return "twelve noon" }
        if time.minute == 0 && time.hour == 0 { return "twelve midnight" }
        let clock = hour + " " + (time.minute == 0 ? "o'clock"
            : time.minute < 10 ? "oh " + EnglishNumbers.cardinal(time.minute) : EnglishNumbers.cardinal(time.minute))
        let part: String? = switch time.hour {
        case 12...17: "in the afternoon"
        case 18...20: "in the evening"
        case 0...4, 21...23: "at night"
        default: nil
        }
        return part.map { clock + " " + $0 } ?? clock
    }

    /// The hour on a twelve-hour clock in native Korean and the minutes in Sino-Korean, without
    /// the part of the day: 19:30 → 일곱 시 삼십 분.
    public static func koreanClock(hour: Int, minute: Int) -> String {
        let h12 = hour % 12 == 0 ? 12 : hour % 12
        return (KoreanNumbers.native(h12, beforeCounter: true) ?? KoreanNumbers.sino(h12)) + " 시"
            + (minute == 0 ? "" : " " + KoreanNumbers.sino(minute) + " 분")
    }

    /// A date. Korean: 삼월 팔 일 (이천이십육 년 삼월 팔 일 with the year). English: March eighth
    /// (March eighth, twenty twenty-six). An impossible month is read as numbers.
    public static func date(year: Int?, month: Int, day: Int, locale: String) -> String {
        if isKorean(locale) {
            let md = KoreanNumbers.month(month) + " " + KoreanNumbers.sino(day) + " 일"
            return year.map { KoreanNumbers.sino($0) + " 년 " + md } ?? md
        }
        let name = (1...12).contains(month) ? EnglishNumbers.months[month - 1] : EnglishNumbers.cardinal(month)
        let md = name + " " + EnglishNumbers.ordinal(day)
        return year.map { md + ", " + EnglishNumbers.year($0) } ?? md
    }
}
