/// Text a user sees, keyed by BCP 47 language tag (`{"ko": "양치하기", "en": "Brush teeth"}`).
public struct LocalizedText: Hashable, Sendable, Codable {
    public var values: [String: String]

    public init(_ values: [String: String]) { self.values = values }

    public init(ko: String, en: String) { self.values = ["ko": ko, "en": en] }

    /// The text for the first locale in the fallback chain that has a non-empty value:
    /// chosen locale → system locale → `ko` → the first value by tag order.
    public func resolve(chosen: String?, system: String?) -> String {
        for tag in LocaleFallback.chain(chosen: chosen, system: system) {
            if let value = value(for: tag) { return value }
        }
        return values.keys.sorted().lazy.compactMap { key in
            self.values[key].flatMap { $0.isEmpty ? nil : $0 }
        }.first ?? ""
    }

    /// The value for one tag: exact tag (case-insensitive, `_` read as `-`), then its language prefix.
    public func value(for tag: String) -> String? {
        let wanted = LocaleFallback.normalize(tag)
        let nonEmpty = values.filter { !$0.value.isEmpty }
        if let hit = nonEmpty.first(where: { LocaleFallback.normalize($0.key) == wanted }) { return hit.value }
        let language = LocaleFallback.language(of: wanted)
        if let hit = nonEmpty.keys.sorted().first(where: { LocaleFallback.normalize($0) == language }) {
            return nonEmpty[hit]
        }
        if let hit = nonEmpty.keys.sorted().first(where: { LocaleFallback.language(of: LocaleFallback.normalize($0)) == language }) {
            return nonEmpty[hit]
        }
        return nil
    }

    public init(from decoder: any Decoder) throws {
        values = try decoder.singleValueContainer().decode([String: String].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(values)
    }
}

/// The locale fallback rule shared by stored texts and the message catalogs.
public enum LocaleFallback {
    /// The default language of the product.
    public static let defaultLanguage = "ko"

    /// Lowercased, `_` read as `-`, POSIX suffixes (`.UTF-8`, `@euro`) dropped.
    public static func normalize(_ tag: String) -> String {
        var t = Substring(tag)
        if let dot = t.firstIndex(where: { $0 == "." || $0 == "@" }) { t = t[..<dot] }
        return t.replacingOccurrences(of: "_", with: "-").lowercased()
    }

    public static func language(of normalizedTag: String) -> String {
        String(normalizedTag.split(separator: "-").first ?? "")
    }

    /// Ordered, de-duplicated tags to try: chosen, system, `ko`.
    public static func chain(chosen: String?, system: String?) -> [String] {
        var out: [String] = []
        for candidate in [chosen, system, defaultLanguage] {
            guard let c = candidate.map(normalize), !c.isEmpty, c != "c", c != "posix", !out.contains(c) else { continue }
            out.append(c)
        }
        return out
    }

    /// The system locale from the environment, in POSIX precedence: LC_ALL, LC_MESSAGES, LANG.
    public static func systemLocale(environment: [String: String]) -> String? {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let v = environment[name], !v.isEmpty, v != "C", v != "POSIX" { return v }
        }
        return nil
    }
}
