/// How espeak-ng is asked to speak: voice name, rate in words per minute, word gap and pitch.
public struct VoiceSettings: Hashable, Sendable {
    /// espeak-ng voice name, e.g. `ko`, `en`, `en+f3`.
    public var voice: String
    /// Words per minute, within espeak-ng's 80…450.
    public var wordsPerMinute: Int
    /// Extra pause between words in units of 10 ms (used below 80 wpm).
    public var wordGap: Int
    /// 0…99.
    public var pitch: Int

    /// espeak-ng's normal speed.
    public static let normalWPM = 175.0
    public static let minimumWPM = 80
    public static let maximumWPM = 450

    /// Maps a locale, a rate factor (1.0 = espeak's 175 wpm) and profile values to espeak settings.
    public init(locale: String, rate: Double, pitch: Int = 50, variant: String? = nil) {
        let language = Self.language(of: locale)
        if let variant, !variant.isEmpty, variant.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) {
            voice = "\(language)+\(variant)"
        } else {
            voice = language
        }
        let target = Self.normalWPM * (rate.isFinite && rate > 0 ? rate : 1)
        if target < Double(Self.minimumWPM) {
            // espeak-ng clamps at 80 wpm; the remaining slowness becomes pauses between words.
            wordsPerMinute = Self.minimumWPM
            let extraPerWord = 60 / target - 60 / Double(Self.minimumWPM)
            wordGap = max(1, Int((extraPerWord / 0.01).rounded()))
        } else {
            wordsPerMinute = min(Self.maximumWPM, Int(target.rounded()))
            wordGap = 0
        }
        self.pitch = min(99, max(0, pitch))
    }

    /// `ko-KR` → `ko`, `en_US` → `en`; unknown or empty → `ko` (the default language).
    static func language(of locale: String) -> String {
        let lang = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        guard !lang.isEmpty, lang.allSatisfy({ $0.isLetter }) else { return "ko" }
        return lang
    }
}
