/// Believable arguments for rendering every prompt without real data (`steppie l10n render`,
/// `steppie l10n format` defaults, reviews of the pseudo-locale).
public enum SampleArguments {
    /// Sample values for every placeholder name the catalogs use, in the language of `locale`
    /// (Korean titles for `ko`, English otherwise).
    public static func values(locale: String?) -> [String: String] {
        let korean = locale.map { LocaleTag.language(of: $0) == "ko" } ?? true
        return [
            "routineTitle": korean ? "양치하기" : "Brush teeth",
            "intensity": korean ? "보통" : "Normal",
            "minutes": "5",
            "time": "07:30",
            "completed": "2",
            "total": "5",
            "count": "3",
            "seconds": "30",
        ]
    }
}
