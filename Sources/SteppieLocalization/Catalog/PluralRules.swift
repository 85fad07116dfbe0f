/// Which plural form a count selects in a language.
///
/// - English (and any language not listed): exactly 1 → `one`, everything else → `other`
///   (0 activities, 1 activity, 2 activities, 1.5 activities).
/// - Korean, Japanese, Chinese: always `other`; these languages do not inflect nouns for number.
public enum PluralRules {
    /// Languages whose nouns have a single form.
    public static let singleFormLanguages: Set<String> = ["ko", "ja", "zh"]

    /// The categories a complete plural entry must provide in `locale`.
    public static func requiredCategories(locale: String) -> [PluralCategory] {
        let language = LocaleTag.language(of: locale)
        return singleFormLanguages.contains(language) ? [.other] : [.one, .other]
    }

    /// The category `count` (as written in an argument, e.g. `"1"`, `"2.5"`) selects in `locale`;
    /// a missing or non-numeric count selects `other`.
    public static func category(count: String?, locale: String) -> PluralCategory {
        let language = LocaleTag.language(of: locale)
        guard !singleFormLanguages.contains(language), let count else { return .other }
        let trimmed = count.trimmingSpaces()
        // "1" is singular, "1.0" is not: English reads it as "1.0 activities".
        return trimmed == "1" || trimmed == "+1" || trimmed == "-1" ? .one : .other
    }

    /// Placeholder names that hold a count. In a language with plural forms, a count followed by a
    /// word must come from a plural entry (`{count}` picks the form) or name its noun's plural entry
    /// (`{logs@cli.count.logEntries}`); `CatalogChecker` reports any other.
    public static let countNames: Set<String> = [
        "count", "minutes", "seconds", "completed", "total", "days", "eligible", "current", "longest",
        "position", "size", "limit", "bytes", "compressed", "uncompressed", "offset", "routines", "logs",
        "assets", "children", "photos", "entries", "attempts", "keys", "prompts", "problems", "levels",
    ]

    /// Words that may follow a count without being its noun (`{completed} of {total}`, `{seconds} s`).
    public static let wordsAfterCount: Set<String> = [
        "of", "to", "so", "up", "than", "are", "is", "was", "and", "or", "in", "done", "allowed",
        "s", "ms", "min", "B", "KiB", "MiB", "GiB",
    ]
}
