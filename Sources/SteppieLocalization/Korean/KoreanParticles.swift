import Foundation

/// Chooses the Korean particle that agrees with the word it follows (양치하기를, 책을, 물로, 집으로).
///
/// The choice is made from the last *spoken* syllable of the value actually substituted:
/// 1. trailing spaces, punctuation, quotes, closing brackets and tildes are skipped (`책!` reads as 책,
///    `양치하기 (아침)` as 아침); a trailing `%` reads as 퍼센트;
/// 2. a Hangul syllable gives its final consonant directly;
/// 3. a number is read in Sino-Korean (``KoreanNumberReading``: 3 → 삼, 20 → 이십, 10000 → 만);
/// 4. Latin letters and words use ``LatinReading`` (M → 엠, TV → 티브이, swimming → 스위밍);
/// 5. Japanese kana end in a vowel except ん/ン;
/// 6. anything else (emoji, Han characters, an unclear English ending) gives `nil`, and the
///    particle is written in its safe combined form (`을(를)`).
public enum KoreanParticles {
    /// The final sound of the last spoken syllable of `value`, or `nil` when it is unclear.
    public static func finalSound(of value: String) -> FinalSound? {
        let chars = Array(value.precomposedStringWithCanonicalMapping)
        guard var end = chars.lastIndex(where: { !isSkippable($0) }) else { return nil }
        if chars[end] == "%" { return .vowel }
        let last = chars[end]
        guard let scalar = last.unicodeScalars.first, last.unicodeScalars.count == 1 else { return nil }
        if let sound = FinalSound.ofHangulSyllable(scalar) { return sound }
        if scalar.isASCIIDigit {
            var start = end
            while start > 0, isNumberCharacter(chars[start - 1]) { start -= 1 }
            var run = String(chars[start...end])
            while let first = run.first, first == "." || first == "," { run.removeFirst() }
            guard let syllable = KoreanNumberReading.lastSyllable(ofNumber: run),
                  let syllableScalar = syllable.unicodeScalars.first else { return nil }
            return FinalSound.ofHangulSyllable(syllableScalar)
        }
        if scalar.isASCIILetter {
            var start = end
            while start > 0, chars[start - 1].unicodeScalars.allSatisfy(\.isASCIILetter) { start -= 1 }
            end += 1
            return LatinReading.finalSound(ofWord: String(chars[start..<end]))
        }
        return kanaSound(scalar)
    }

    /// The particle of the pair `form` that follows `value` (`을`, `를`, or `을(를)` when unclear).
    public static func particle(_ form: ParticleForm, after value: String) -> String {
        form.form(after: finalSound(of: value))
    }

    /// `value` followed by the agreeing particle (`양치하기` + `을를` → `양치하기를`).
    public static func attach(_ form: ParticleForm, to value: String) -> String {
        value + particle(form, after: value)
    }

    /// Characters that are not read aloud at the end of a word.
    static func isSkippable(_ c: Character) -> Bool {
        guard c != "%" else { return false }
        // Tildes stretch the last syllable (밥~) rather than adding one.
        if c == "~" || c == "〜" || c == "～" { return true }
        return c.unicodeScalars.allSatisfy { scalar in
            if scalar.properties.isWhitespace { return true }
            switch scalar.properties.generalCategory {
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                 .initialPunctuation, .finalPunctuation, .otherPunctuation, .format, .nonspacingMark:
                return true
            default:
                return false
            }
        }
    }

    static func isNumberCharacter(_ c: Character) -> Bool {
        c == "," || c == "." || c.unicodeScalars.allSatisfy(\.isASCIIDigit)
    }

    static func kanaSound(_ scalar: Unicode.Scalar) -> FinalSound? {
        switch scalar.value {
        case 0x3093, 0x30F3: return .consonant  // ん ン
        case 0x3063, 0x30C3: return nil  // small っ ッ: a pause, not a syllable
        case 0x3041...0x3096, 0x30A1...0x30FA, 0x30FC: return .vowel
        default: return nil
        }
    }
}
