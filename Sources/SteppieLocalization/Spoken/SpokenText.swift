import SteppieCore

/// Rewrites the numbers of free text (what `steppie say` is given, a routine title) the way people
/// say them, so espeak-ng does not read `07:30` digit by digit.
///
/// Only numbers change; every other character is kept. A digit run that follows a Latin letter
/// (`A1`, `mp3`) is left alone.
///
/// - `H:mm` / `HH:mm` (a valid time) → ``SpokenForms/time(_:locale:)``; in English a following
///   `am`/`pm` is said "a m"/"p m" instead of the part of the day; in Korean a 오전/오후 before it
///   replaces the part of the day;
/// - `YYYY-MM-DD` (a valid date) → ``SpokenForms/date(year:month:day:locale:)``;
/// - Korean: a number directly before a counter word (`3개`, `7시`, `30분`, `3월`, `8일`, with or
///   without one space) is read for that counter (세 개, 일곱 시, 삼십 분, 삼월, 팔 일); other
///   numbers in Sino-Korean (`3.5` → 삼 점 오);
/// - English: numbers in words; `1st`, `8th` and a number after a month name (`March 8`) as
///   ordinals; a four-digit year after such a date (`March 8, 2026`) as a year.
public enum SpokenText {
    /// `text` with its numbers written out as they are said in `locale`.
    public static func normalize(_ text: String, locale: String) -> String {
        guard text.contains(where: \.isASCIIDigit) else { return text }
        var scanner = NumberScanner(chars: Array(text), korean: SpokenForms.isKorean(locale), locale: locale)
        return scanner.run()
    }
}

private struct NumberScanner {
    let chars: [Character]
    let korean: Bool
    let locale: String
    var out = ""
    var i = 0
    /// True right after an English date was said, so a following `, 2026` is read as a year.
    var afterDate = false

    init(chars: [Character], korean: Bool, locale: String) {
        self.chars = chars; self.korean = korean; self.locale = locale
    }

    mutating func run() -> String {
        while i < chars.count {
            let c = chars[i]
            if c.isASCIIDigit, !(i > 0 && (chars[i - 1].isASCIILetterOrDigit || chars[i - 1] == "." || chars[i - 1] == ",")) {
                number()
            } else {
                if c.isLetter { afterDate = false }
                out.append(c)
                i += 1
            }
        }
        return out
    }

    func digit(_ k: Int) -> Bool { k < chars.count && chars[k].isASCIIDigit }
    func value(_ range: Range<Int>) -> Int? { Int(String(chars[range])) }

    mutating func number() {
        var j = i
        while digit(j) { j += 1 }
        if time(runEnd: j) || isoDate(runEnd: j) { return }
        // Thousands separators: 1,000 and 12,500.
        while j + 3 < chars.count, chars[j] == ",", digit(j + 1), digit(j + 2), digit(j + 3), !digit(j + 4) { j += 4 }
        var decimals: Range<Int>?
        if j < chars.count, chars[j] == ".", digit(j + 1) {
            var k = j + 1
            while digit(k) { k += 1 }
            decimals = (j + 1)..<k
        }
        let whole = String(chars[i..<j]).replacingOccurrences(of: ",", with: "")
        let end = decimals?.upperBound ?? j
        guard let n = Int(whole) else {
            out += korean ? KoreanNumbers.digitByDigit(whole) : whole.map { EnglishNumbers.cardinal($0.wholeNumberValue ?? 0) }.joined(separator: " ")
            i = end
            return
        }
        // `7B`, `3D`: a code, not a number (but `3pm`, `1st`, `3개` are read).
        if end < chars.count, chars[end].isASCIILetterOrDigit, korean || !isEnglishSuffix(at: end) {
            out += String(chars[i..<end])
            i = end
            return
        }
        if let decimals {
            let digits = String(chars[decimals])
            i = end
            if korean {
                let counter = KoreanCounter.prefix(of: Substring(String(chars[i...])))
                out += KoreanNumbers.sino(n) + " 점 " + KoreanNumbers.digitByDigit(digits) + (counter == nil ? "" : " ")
            } else {
                out += EnglishNumbers.cardinal(n) + " point " + digits.map { EnglishNumbers.cardinal($0.wholeNumberValue ?? 0) }.joined(separator: " ")
            }
            return
        }
        i = end
        korean ? koreanCount(n) : englishCount(n, digits: whole.count)
    }

    /// An ordinal ending (`st`, `nd`, `rd`, `th`) or `am`/`pm` directly after a number.
    func isEnglishSuffix(at k: Int) -> Bool {
        let tail = String(chars[k..<min(chars.count, k + 3)]).lowercased()
        let two = String(tail.prefix(2))
        let ends = tail.count < 3 || !(tail.last?.isLetter ?? false) || tail.hasSuffix(".")
        return ["st", "nd", "rd", "th", "am", "pm"].contains(two) && ends
            || ["a.", "p."].contains(two)
    }

    mutating func koreanCount(_ n: Int) {
        let rest = chars[i...]
        let space = rest.first == " " ? 1 : 0
        guard let counter = KoreanCounter.prefix(of: Substring(String(rest.dropFirst(space)))) else {
            out += KoreanNumbers.sino(n)
            return
        }
        if counter.system == .month {
            out += KoreanNumbers.month(n)
            i += space + 1
            return
        }
        out += KoreanNumbers.reading(n, counter: counter) + " "
        i += space
    }

    mutating func englishCount(_ n: Int, digits: Int) {
        let rest = String(chars[i...].prefix(3)).lowercased()
        if ["st", "nd", "rd", "th"].contains(where: rest.hasPrefix), !(rest.count > 2 && rest.last?.isLetter == true) {
            out += EnglishNumbers.ordinal(n)
            i += 2
            afterDate = false
            return
        }
        let previousWord = out.split(separator: " ").last.map(String.init) ?? ""
        if EnglishNumbers.months.contains(where: { $0.caseInsensitiveCompare(previousWord) == .orderedSame }), (1...31).contains(n) {
            out += EnglishNumbers.ordinal(n)
            afterDate = true
            return
        }
        if afterDate, digits == 4, out.hasSuffix(", ") {
            out += EnglishNumbers.year(n)
            afterDate = false
            return
        }
        out += EnglishNumbers.cardinal(n)
        meridiem()
    }

    /// `H:mm`; true when it was one.
    mutating func time(runEnd j: Int) -> Bool {
        guard j - i <= 2, j < chars.count, chars[j] == ":", digit(j + 1), digit(j + 2), !digit(j + 3),
              let h = value(i..<j), let m = value((j + 1)..<(j + 3)), let time = LocalTime(hour: h, minute: m) else { return false }
        i = j + 3
        if korean {
            // 오후 7:30: the word already says the part of the day.
            let said = ["오전 ", "오후 ", "아침 ", "저녁 ", "밤 ", "새벽 ", "낮 "].contains(where: out.hasSuffix)
            out += said ? SpokenForms.koreanClock(hour: h, minute: m) : SpokenForms.time(time, locale: locale)
            return true
        }
        if hasMeridiem() {
            let h12 = h % 12 == 0 ? 12 : h % 12
            out += EnglishNumbers.cardinal(h12) + (m == 0 ? "" : " " + (m < 10 ? "oh " : "") + EnglishNumbers.cardinal(m))
            meridiem()
        } else {
            out += SpokenForms.time(time, locale: locale)
        }
        return true
    }

    func hasMeridiem() -> Bool { meridiemLength() != nil }

    /// Length of a following ` am`, `pm`, ` a.m.`, ` P.M.` (with the optional space), if any.
    func meridiemLength() -> (length: Int, letter: Character)? {
        var k = i
        if k < chars.count, chars[k] == " " { k += 1 }
        guard k < chars.count, let first = chars[k].lowercased().first, first == "a" || first == "p" else { return nil }
        let tail = String(chars[k..<min(chars.count, k + 4)]).lowercased()
        for form in ["m.", "m", ".m."] where tail.dropFirst().hasPrefix(form) {
            let end = k + 1 + form.count
            if end < chars.count, chars[end].isLetter { return nil }
            return (end - i, first)
        }
        return nil
    }

    mutating func meridiem() {
        guard let (length, letter) = meridiemLength() else { return }
        out += " " + String(letter) + " m"
        i += length
    }

    /// `YYYY-MM-DD`; true when it was one.
    mutating func isoDate(runEnd j: Int) -> Bool {
        guard j - i == 4, j + 5 < chars.count, chars[j] == "-", digit(j + 1), digit(j + 2),
              chars[j + 3] == "-", digit(j + 4), digit(j + 5), !digit(j + 6),
              let day = LocalDay(String(chars[i..<(j + 6)])) else { return false }
        out += SpokenForms.date(year: day.year, month: day.month, day: day.day, locale: locale)
        i = j + 6
        afterDate = false
        return true
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    var isASCIILetterOrDigit: Bool { isASCIIDigit || ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
