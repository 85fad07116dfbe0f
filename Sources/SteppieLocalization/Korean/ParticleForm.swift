/// A Korean particle pair that changes shape with the sound it follows, written in a catalog as
/// `{name|을를}`: the text after `|` names the pair.
///
/// | written | after a consonant | after a vowel | after ㄹ | unclear |
/// |---|---|---|---|---|
/// | `을를` | 을 | 를 | 을 | 을(를) |
/// | `이가` | 이 | 가 | 이 | 이(가) |
/// | `은는` | 은 | 는 | 은 | 은(는) |
/// | `와과` | 과 | 와 | 과 | 과(와) |
/// | `으로로` | 으로 | 로 | 로 | (으)로 |
/// | `이에요예요` | 이에요 | 예요 | 이에요 | 이에요(예요) |
/// | `아야` | 아 | 야 | 아 | 아(야) |
/// | `이여` | 이여 | 여 | 이여 | (이)여 |
public enum ParticleForm: String, Sendable, CaseIterable, Hashable {
    case eulReul = "을를"
    case iGa = "이가"
    case eunNeun = "은는"
    case waGwa = "와과"
    case euroRo = "으로로"
    case ieyoYeyo = "이에요예요"
    case aYa = "아야"
    case iyeoYeo = "이여"

    /// The form used after a syllable that ends in a consonant.
    public var afterConsonant: String {
        switch self {
        case .eulReul: "을"
        case .iGa: "이"
        case .eunNeun: "은"
        case .waGwa: "과"
        case .euroRo: "으로"
        case .ieyoYeyo: "이에요"
        case .aYa: "아"
        case .iyeoYeo: "이여"
        }
    }

    /// The form used after a syllable that ends in a vowel.
    public var afterVowel: String {
        switch self {
        case .eulReul: "를"
        case .iGa: "가"
        case .eunNeun: "는"
        case .waGwa: "와"
        case .euroRo: "로"
        case .ieyoYeyo: "예요"
        case .aYa: "야"
        case .iyeoYeo: "여"
        }
    }

    /// The written form that reads acceptably either way, used when the sound is unclear.
    public var fallback: String {
        switch self {
        case .eulReul: "을(를)"
        case .iGa: "이(가)"
        case .eunNeun: "은(는)"
        case .waGwa: "과(와)"
        case .euroRo: "(으)로"
        case .ieyoYeyo: "이에요(예요)"
        case .aYa: "아(야)"
        case .iyeoYeo: "(이)여"
        }
    }

    /// The form that follows a word ending in `sound`; `nil` (unclear) gives ``fallback``.
    public func form(after sound: FinalSound?) -> String {
        switch sound {
        case .none: fallback
        case .vowel: afterVowel
        case .consonant: afterConsonant
        // (으)로 is the one pair where ㄹ behaves like a vowel: 연필로, 물로.
        case .rieul: self == .euroRo ? afterVowel : afterConsonant
        }
    }

    /// Every way a particle pair is written out for "either": the fallbacks and their reversed
    /// spellings (`을(를)`, `를(을)`, `(으)로` …), each with its pair. A catalog writes
    /// `{name|을를}` instead, so the engine can choose.
    public static let literalForms: [String: ParticleForm] = {
        var forms: [String: ParticleForm] = [:]
        for form in allCases {
            forms[form.fallback] = form
            forms[form.afterVowel + "(" + form.afterConsonant + ")"] = form
            forms[form.afterConsonant + "(" + form.afterVowel + ")"] = form
        }
        forms["로(으로)"] = .euroRo
        return forms
    }()
}
