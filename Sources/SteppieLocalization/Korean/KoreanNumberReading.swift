/// The last syllable of a number read aloud in Sino-Korean (일, 이, 삼 … 십, 백, 천, 만, 억 …).
///
/// Only the end of the reading matters for a particle, so the rules are:
/// - the last digit is not 0 → that digit's name (…3 → 삼, 12 → 십이 → 이);
/// - otherwise the place of the lowest non-zero digit inside its four-digit group decides:
///   tens 십, hundreds 백, thousands 천 (20 → 이십, 300 → 삼백, 5000 → 오천);
/// - a whole four-digit group of zeros ends the reading with the group word:
///   만 (10⁴), 억 (10⁸), 조 (10¹²), 경 (10¹⁶) (10000 → 만, 200000 → 이십만);
/// - zero itself, and a decimal part ending in 0, is 영; other decimal digits are read one by one
///   (3.5 → 삼 점 오).
public enum KoreanNumberReading {
    static let digitNames: [Character: String] = [
        "0": "영", "1": "일", "2": "이", "3": "삼", "4": "사",
        "5": "오", "6": "육", "7": "칠", "8": "팔", "9": "구",
    ]
    static let placeNames = ["", "십", "백", "천"]
    static let groupNames = ["", "만", "억", "조", "경"]

    /// The last spoken syllable of the integer written in `digits` (ASCII digits only), or `nil`
    /// when the text is empty, holds a non-digit, or is too large to read with the group words.
    public static func lastSyllable(ofInteger digits: String) -> String? {
        guard !digits.isEmpty, digits.allSatisfy({ digitNames[$0] != nil }) else { return nil }
        let reversed = Array(digits.reversed())
        guard let lowest = reversed.firstIndex(where: { $0 != "0" }) else { return "영" }
        if lowest == 0 { return digitNames[reversed[0]] }
        let group = lowest / 4
        // Lower groups all zero: the reading ends with the group word (이십만, 삼억).
        if group > 0 { return group < groupNames.count ? groupNames[group] : nil }
        return placeNames[lowest]
    }

    /// The last spoken syllable of a decimal number such as `3.5` (→ 오) or `12` (→ 이).
    public static func lastSyllable(ofNumber text: String) -> String? {
        let plain = text.replacingOccurrences(of: ",", with: "")
        let parts = plain.split(separator: ".", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            return lastSyllable(ofInteger: plain)
        case 2 where !parts[0].isEmpty && !parts[1].isEmpty:
            guard lastSyllable(ofInteger: String(parts[0])) != nil, let last = parts[1].last else { return nil }
            return digitNames[last]
        default:
            return nil
        }
    }
}
