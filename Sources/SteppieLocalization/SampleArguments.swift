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
            // Command-line messages (cli.*).
            "child": korean ? "민아" : "Mina",
            "children": korean ? "민아, 준호" : "Mina, Jun",
            "set": korean ? "아침 루틴" : "Morning routine",
            "id": "0b8e5f8c-2f1e-4b7a-9a51-3f0d2c1e7a10",
            "routine": "0b8e5f8c-2f1e-4b7a-9a51-3f0d2c1e7a10",
            "current": "5d2c9e04-8b7f-4e11-a3c2-91e0f6b2d845",
            "date": "2026-03-02",
            "path": "/home/steppie/.local/share/steppie/steppie.db",
            "command": "steppie today",
            "parent": "steppie children",
            "option": "--child",
            "value": "25:00",
            "choices": "ko, en",
            "argument": "NAME",
            "expected": "HH:mm",
            "first": "--out",
            "second": "--output",
            "field": "ttsRate",
            "allowed": "0.5…1.5",
            "reason": korean ? "디스크가 가득 찼어요" : "disk is full",
            "migration": "v9-future",
            "table": "daily_logs",
        ]
    }

    /// The sample values typed, for rendering prompts as they are said: numbers as counts,
    /// `07:30` as a time, dates as dates (``MessageValue/init(parsing:)``), the rest as text.
    public static func typedValues(locale: String?) -> [String: MessageValue] {
        values(locale: locale).mapValues(MessageValue.init(parsing:))
    }
}
