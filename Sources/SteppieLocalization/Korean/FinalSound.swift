/// How the last spoken syllable of a word ends, which is all a Korean particle needs to know.
public enum FinalSound: Sendable, Hashable {
    /// Open syllable, no final consonant (양치하기, 사과, 2 → 이).
    case vowel
    /// Final ㄹ (물, 연필, 1 → 일, L → 엘), which takes 로 rather than 으로.
    case rieul
    /// Any other final consonant (책, 집, 3 → 삼, M → 엠).
    case consonant

    /// The final sound of one precomposed Hangul syllable (가…힣), or `nil` for any other character.
    public static func ofHangulSyllable(_ scalar: Unicode.Scalar) -> FinalSound? {
        let base: UInt32 = 0xAC00
        guard (base...0xD7A3).contains(scalar.value) else { return nil }
        // A syllable is base + (initial × 21 + medial) × 28 + final; final 0 is "none", 8 is ㄹ.
        switch (scalar.value - base) % 28 {
        case 0: return .vowel
        case 8: return .rieul
        default: return .consonant
        }
    }
}
