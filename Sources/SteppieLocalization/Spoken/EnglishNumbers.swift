/// English number words: cardinals (`twenty-three`), ordinals (`twenty-third`) and years
/// (`twenty twenty-six`).
public enum EnglishNumbers {
    static let ones = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                       "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
    static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    static let scales: [(Int, String)] = [(1_000_000_000_000, "trillion"), (1_000_000_000, "billion"),
                                          (1_000_000, "million"), (1_000, "thousand")]

    /// `n` in words: 0 zero, 21 twenty-one, 105 one hundred five, 2026 two thousand twenty-six.
    public static func cardinal(_ n: Int) -> String {
        if n < 0 { return "minus " + cardinal(n == Int.min ? Int.max : -n) }
        if n < 20 { return ones[n] }
        if n < 100 { return tens[n / 10] + (n % 10 == 0 ? "" : "-" + ones[n % 10]) }
        if n < 1000 { return ones[n / 100] + " hundred" + (n % 100 == 0 ? "" : " " + cardinal(n % 100)) }
        for (size, name) in scales where n >= size {
            return cardinal(n / size) + " " + name + (n % size == 0 ? "" : " " + cardinal(n % size))
        }
        return String(n)
    }

    static let irregularOrdinals = ["one": "first", "two": "second", "three": "third", "five": "fifth",
                                    "eight": "eighth", "nine": "ninth", "twelve": "twelfth"]

    /// `n` as an ordinal: 1 first, 8 eighth, 22 twenty-second, 30 thirtieth.
    public static func ordinal(_ n: Int) -> String {
        let words = cardinal(n)
        // Only the last word changes: twenty-one → twenty-first.
        let cut = words.lastIndex(where: { $0 == " " || $0 == "-" }).map { words.index(after: $0) } ?? words.startIndex
        let head = words[..<cut], last = String(words[cut...])
        if let irregular = irregularOrdinals[last] { return head + irregular }
        if last.hasSuffix("y") { return head + last.dropLast() + "ieth" }
        return head + last + "th"
    }

    /// A year as people say it: 2026 twenty twenty-six, 2000 two thousand, 2005 two thousand five,
    /// 1999 nineteen ninety-nine, 1900 nineteen hundred.
    public static func year(_ n: Int) -> String {
        guard (1100...9999).contains(n), !(2000...2009).contains(n) else { return cardinal(n) }
        let high = n / 100, low = n % 100
        if low == 0 { return cardinal(high) + " hundred" }
        return cardinal(high) + " " + (low < 10 ? "oh " + cardinal(low) : cardinal(low))
    }

    /// English month names, January first.
    public static let months = ["January", "February", "March", "April", "May", "June", "July",
                                "August", "September", "October", "November", "December"]
}
