/// Korean number words, the two systems people use: Sino-Korean (일, 이, 삼 … for minutes, months,
/// days, money) and native Korean (하나, 둘, 셋 … for hours and counted things).
public enum KoreanNumbers {
    static let sinoDigits = ["", "일", "이", "삼", "사", "오", "육", "칠", "팔", "구"]
    static let sinoPlaces = ["", "십", "백", "천"]
    static let sinoGroups = ["", "만", "억", "조", "경"]

    /// `n` in Sino-Korean: 0 영, 10 십, 23 이십삼, 105 백오, 10000 만, 20000 이만, 100000000 일억.
    /// Negative numbers start with 마이너스; numbers beyond 경 are read digit by digit.
    public static func sino(_ n: Int) -> String {
        if n == 0 { return "영" }
        if n < 0 { return "마이너스 " + sino(n == Int.min ? Int.max : -n) }
        var groups: [Int] = []
        var rest = n
        while rest > 0 {
            groups.append(rest % 10000)
            rest /= 10000
        }
        guard groups.count <= sinoGroups.count else { return digitByDigit(String(n)) }
        var out = ""
        for (index, group) in groups.enumerated().reversed() where group > 0 {
            var text = ""
            var places = group
            var parts: [String] = []
            for place in 0..<4 {
                let digit = places % 10
                places /= 10
                guard digit > 0 else { continue }
                // 십, 백, 천 go without 일 (십, not 일십), except that 만 alone is 만 and 일억 keeps 일.
                let name = digit == 1 && place > 0 ? "" : sinoDigits[digit]
                parts.append(name + sinoPlaces[place])
            }
            text = parts.reversed().joined()
            if index == 1 && group == 1 { text = "" }
            out += text + sinoGroups[index]
        }
        return out
    }

    /// Each digit by its Sino-Korean name (`3.14` → the `14` after the point: 일사; 0 is 영).
    public static func digitByDigit(_ digits: String) -> String {
        String(digits.compactMap { c -> String? in
            guard let v = c.wholeNumberValue else { return nil }
            return v == 0 ? "영" : sinoDigits[v]
        }.joined())
    }

    /// A decimal number in Sino-Korean: `3.5` → 삼 점 오, `12` → 십이; nil when `text` is not a number.
    public static func sino(decimal text: String) -> String? {
        let plain = text.replacingOccurrences(of: ",", with: "")
        let parts = plain.split(separator: ".", omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit), let n = Int(whole) else { return nil }
        guard parts.count == 2 else { return parts.count == 1 ? sino(n) : nil }
        guard !parts[1].isEmpty, parts[1].allSatisfy(\.isASCIIDigit) else { return nil }
        return sino(n) + " 점 " + digitByDigit(String(parts[1]))
    }

    static let nativeOnes = ["", "하나", "둘", "셋", "넷", "다섯", "여섯", "일곱", "여덟", "아홉"]
    static let nativeOnesBeforeCounter = ["", "한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉"]
    static let nativeTens = ["", "열", "스물", "서른", "마흔", "쉰", "예순", "일흔", "여든", "아흔"]

    /// `n` in native Korean, 1…99 (하나, 열둘, 스물셋); nil outside that range, where people switch
    /// to Sino-Korean.
    ///
    /// `beforeCounter` gives the shortened forms used in front of a counter word: 한 개, 두 시,
    /// 세 번, 네 명, 스무 살 (but 스물한 개).
    public static func native(_ n: Int, beforeCounter: Bool = false) -> String? {
        guard (1...99).contains(n) else { return nil }
        let tens = n / 10, ones = n % 10
        if ones == 0 {
            return beforeCounter && tens == 2 ? "스무" : nativeTens[tens]
        }
        return nativeTens[tens] + (beforeCounter ? nativeOnesBeforeCounter : nativeOnes)[ones]
    }

    /// The number as it is said in front of `counter`: native Korean for counted things
    /// (세 개, 일곱 시) up to 99, Sino-Korean otherwise and for counters that take it (오 분, 팔 일).
    public static func reading(_ n: Int, counter: KoreanCounter?) -> String {
        guard let counter else { return sino(n) }
        switch counter.system {
        // 첫 번째, not 한 번째: the first in a row has its own word.
        case .native where n == 1 && counter.word == "번째": return "첫"
        case .native: return native(n, beforeCounter: true) ?? sino(n)
        case .sino: return sino(n)
        case .month: return month(n)
        }
    }

    /// A month's name: 일월 … 유월 … 시월 … 십이월 (6 and 10 lose their final consonant).
    public static func month(_ n: Int) -> String {
        switch n {
        case 6: "유월"
        case 10: "시월"
        default: sino(n) + "월"
        }
    }
}
