import SteppieCore

/// Small helpers over ``LocaleFallback`` for matching catalog locale names against tags.
enum LocaleTag {
    static func normalize(_ tag: String) -> String { LocaleFallback.normalize(tag) }

    static func language(of tag: String) -> String { LocaleFallback.language(of: normalize(tag)) }

    /// The best of `available` for `tag`: the exact tag (case-insensitive, `_` as `-`), else a
    /// locale equal to the tag's language, else the first locale (by name) of the same language.
    static func bestMatch(for tag: String, in available: [String]) -> String? {
        let wanted = normalize(tag)
        let sorted = available.sorted()
        if let hit = sorted.first(where: { normalize($0) == wanted }) { return hit }
        let lang = LocaleFallback.language(of: wanted)
        if let hit = sorted.first(where: { normalize($0) == lang }) { return hit }
        return sorted.first(where: { language(of: $0) == lang })
    }
}
