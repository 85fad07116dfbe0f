import SteppieCore

/// Looks up catalog messages and renders them for a locale: the fallback chain, plural forms,
/// Korean particles and the pseudo-locale, all in one `Sendable` value.
///
/// Fallback for each key: the chosen locale → the system locale (given at init) → `ko` → the
/// first locale (by name) that has the key. Each step tries the exact tag first, then its language
/// (`en-US` → `en`). A key found nowhere comes back as `⟦key⟧` so it is visible on screen.
public struct Localizer: Sendable {
    /// The catalogs messages come from.
    public let catalogs: CatalogSet
    /// The system locale (`LC_ALL`, `LC_MESSAGES` or `LANG`), read by the caller.
    public let systemLocale: String?

    /// Where a key's text was found.
    public struct Resolution: Sendable, Equatable {
        /// The catalog locale that supplied the entry.
        public let locale: String
        public let entry: CatalogEntry
    }

    /// A localizer with an explicit system locale (`nil` when the system has none).
    public init(catalogs: CatalogSet, systemLocale: String?) {
        self.catalogs = catalogs
        self.systemLocale = systemLocale
    }

    /// A localizer whose system locale comes from `environment` (LC_ALL, LC_MESSAGES, LANG).
    public init(catalogs: CatalogSet, environment: [String: String]) {
        self.init(catalogs: catalogs, systemLocale: LocaleFallback.systemLocale(environment: environment))
    }

    /// The tags tried for `locale`, in order (chosen, system, `ko`), without duplicates.
    public func chain(for locale: String?) -> [String] {
        LocaleFallback.chain(chosen: locale, system: systemLocale)
    }

    /// True when `locale` (or, without one, the system locale) selects the pseudo-locale.
    public func isPseudo(_ locale: String?) -> Bool {
        PseudoLocale.isPseudo(locale ?? systemLocale)
    }

    /// The entry for `key` following the fallback chain, or `nil` when no catalog has it.
    public func resolve(_ key: String, locale: String?) -> Resolution? {
        let chosen = isPseudo(locale) ? PseudoLocale.baseLocale : locale
        let system = PseudoLocale.isPseudo(systemLocale) ? PseudoLocale.baseLocale : systemLocale
        var tried: [String] = []
        for tag in LocaleFallback.chain(chosen: chosen, system: system) {
            for name in candidates(for: tag) where !tried.contains(name) {
                tried.append(name)
                if let entry = catalogs[name]?[key] { return Resolution(locale: name, entry: entry) }
            }
        }
        for name in catalogs.locales {
            if let entry = catalogs[name]?[key] { return Resolution(locale: name, entry: entry) }
        }
        return nil
    }

    /// The text for `key` in `locale`, with `args` substituted, particles agreed and the plural
    /// form chosen by `args["count"]`; `⟦key⟧` when the key exists in no catalog.
    public func text(_ key: String, locale: String?, args: [String: String] = [:]) -> String {
        guard let resolution = resolve(key, locale: locale) else { return Localizer.missing(key) }
        let category = PluralRules.category(count: args["count"], locale: resolution.locale)
        guard var template = resolution.entry.template(for: category) else { return Localizer.missing(key) }
        if isPseudo(locale) { template = PseudoLocale.transform(template) }
        return MessageFormatter.render(template, args: args) { countKey, count in
            // The noun's own entry, one level deep (a counted entry inside it writes the bare number).
            guard let nested = resolve(countKey, locale: locale),
                  var form = nested.entry.template(for: PluralRules.category(count: count, locale: nested.locale)) else {
                return count
            }
            if isPseudo(locale) { form = PseudoLocale.transform(form) }
            return MessageFormatter.render(form, args: ["count": count])
        }
    }

    /// The text for `key` in `locale` with typed `values` in their written form (as on screen).
    public func text(_ key: String, locale: String?, values: [String: MessageValue]) -> String {
        text(key, locale: locale, args: values.written)
    }

    /// The sentence for `key` as it is to be said in `locale`: the plural form chosen by the
    /// `count` value, typed values in their spoken form (`07:30` → 일곱 시 삼십 분 / seven thirty,
    /// `{count}개` → 세 개), particles agreeing with what is said. Never pseudo-localized: the
    /// voice speaks the real language.
    public func spoken(_ key: String, locale: String, values: [String: MessageValue]) -> String {
        let base = isPseudo(locale) ? PseudoLocale.baseLocale : locale
        guard let resolution = resolve(key, locale: base) else { return Localizer.missing(key) }
        let category = PluralRules.category(count: values["count"]?.written, locale: resolution.locale)
        guard let template = resolution.entry.template(for: category) else { return Localizer.missing(key) }
        return MessageFormatter.renderSpoken(template, values: values, locale: resolution.locale) { countKey, count in
            guard let nested = resolve(countKey, locale: base),
                  let form = nested.entry.template(for: PluralRules.category(count: count.written, locale: nested.locale)) else {
                return SpokenForms.say(count, locale: resolution.locale)
            }
            return MessageFormatter.renderSpoken(form, values: ["count": count], locale: nested.locale)
        }
    }

    /// A raw template (not from a catalog) rendered with `args`; text that cannot be parsed is
    /// returned unchanged. Raw text is never pseudo-localized, so it stands out in `qps`.
    public func format(template: String, locale: String?, args: [String: String] = [:]) -> String {
        (try? formatChecked(template: template, locale: locale, args: args)) ?? template
    }

    /// Like ``format(template:locale:args:)`` but reports a syntax error instead of hiding it.
    public func formatChecked(template: String, locale: String?, args: [String: String] = [:]) throws(TemplateSyntaxError) -> String {
        MessageFormatter.render(try MessageTemplate(parsing: template), args: args)
    }

    /// The source text of `key` in every locale that defines it, sorted by locale
    /// (plural entries as `one: … | other: …`).
    public func show(key: String) -> [(locale: String, text: String)] {
        catalogs.locales.compactMap { name in
            catalogs[name]?[key].map { (name, $0.displayText) }
        }
    }

    /// The keys of the resolved catalogs starting with `prefix` (e.g. `tts.`), sorted.
    public func keys(withPrefix prefix: String) -> [String] {
        catalogs.allKeys.filter { $0.hasPrefix(prefix) }
    }

    /// The visible stand-in for a key no catalog has.
    public static func missing(_ key: String) -> String { "⟦\(key)⟧" }

    /// Catalog names that can serve `tag`: exact, then the bare language, then the same language.
    private func candidates(for tag: String) -> [String] {
        let wanted = LocaleTag.normalize(tag)
        let language = LocaleTag.language(of: wanted)
        let names = catalogs.locales
        return names.filter { LocaleTag.normalize($0) == wanted }
            + names.filter { LocaleTag.normalize($0) == language }
            + names.filter { LocaleTag.language(of: $0) == language }
    }
}
