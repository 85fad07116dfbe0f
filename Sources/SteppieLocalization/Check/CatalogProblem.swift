/// One thing `CatalogChecker` found wrong with the catalogs.
public enum CatalogProblem: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// What kind of built-in label a problem is about.
    public enum LabelKind: String, Sendable, Hashable {
        case template, icon
    }

    /// A required locale has no catalog directory at all.
    case missingLocale(locale: String)
    /// A key some locale defines (or the core needs) is absent from a required locale.
    case missingKey(key: String, locale: String)
    /// The placeholder names differ from the reference locale's.
    case placeholderMismatch(key: String, locale: String, expected: [String], found: [String], reference: String)
    /// A particle placeholder (`{name|을를}`) in a catalog that is not Korean.
    case particleOutsideKorean(key: String, locale: String, placeholder: String)
    /// A particle text after `|` that is not a known pair.
    case unknownParticle(key: String, locale: String, form: String)
    /// A value (or one plural form) that is empty or only spaces.
    case emptyValue(key: String, locale: String)
    /// A plural entry without a form its language needs.
    case incompletePlural(key: String, locale: String, missing: [PluralCategory])
    /// A key no code uses.
    case unusedKey(key: String)
    /// A template title or icon label without text in a required locale.
    case labelMissing(kind: LabelKind, id: String, locale: String)
    /// A template title in the catalog that differs from the one in SteppieCore.
    case labelDiffers(id: String, locale: String, catalog: String, core: String)
    /// A spoken `tts.*` line without its on-screen counterpart.
    case spokenWithoutScreenLine(key: String, expected: String)
    /// A particle written out in its either-way form (`을(를)`) instead of `{name|을를}`.
    case literalParticle(key: String, locale: String, text: String)
    /// A particle in one fixed shape right after a plain placeholder (`{kind}예요`).
    case bareParticle(key: String, locale: String, placeholder: String, text: String, form: String)
    /// A count followed by its noun in a message without plural forms (`{count} failed attempts`).
    case countWithoutPlural(key: String, locale: String, placeholder: String, word: String)
    /// A spoken line with an abbreviation the speech engine says wrong (`min.`).
    case spokenAbbreviation(key: String, locale: String, text: String)
    /// A Korean sentence in 합니다체 where every other is in 해요체.
    case formalRegister(key: String, locale: String, text: String)
    /// `{name@key}` naming a key that is missing or not a plural entry.
    case unknownCountKey(key: String, locale: String, countKey: String)

    public var description: String {
        switch self {
        case .missingLocale(let locale):
            "locale \(locale): no catalog (add Localization/\(locale)/)"
        case .missingKey(let key, let locale):
            "\(locale): missing key \(key)"
        case .placeholderMismatch(let key, let locale, let expected, let found, let reference):
            "\(locale): \(key) has placeholders \(Self.list(found)) but \(reference) has \(Self.list(expected))"
        case .particleOutsideKorean(let key, let locale, let placeholder):
            "\(locale): \(key) uses the Korean particle placeholder {\(placeholder)}; only Korean catalogs may"
        case .unknownParticle(let key, let locale, let form):
            "\(locale): \(key) uses unknown particle '\(form)' (known: \(ParticleForm.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .emptyValue(let key, let locale):
            "\(locale): \(key) is empty"
        case .incompletePlural(let key, let locale, let missing):
            "\(locale): \(key) lacks plural form(s) \(missing.map(\.rawValue).joined(separator: ", "))"
        case .unusedKey(let key):
            "unused key \(key)"
        case .labelMissing(let kind, let id, let locale):
            "\(locale): \(kind.rawValue) label \(id) has no text"
        case .labelDiffers(let id, let locale, let catalog, let core):
            "\(locale): \(id) reads \"\(catalog)\" in the catalog but \"\(core)\" in SteppieCore"
        case .spokenWithoutScreenLine(let key, let expected):
            "spoken line \(key) has no on-screen line \(expected)"
        case .literalParticle(let key, let locale, let text):
            "\(locale): \(key) writes the particle '\(text)' literally; write {name|\(ParticleForm.literalForms[text]?.rawValue ?? "을를")} so it agrees with the value"
        case .bareParticle(let key, let locale, let placeholder, let text, let form):
            "\(locale): \(key) writes '\(text)' after {\(placeholder)} in one shape; write {\(placeholder)|\(form)} so it agrees with the value"
        case .countWithoutPlural(let key, let locale, let placeholder, let word):
            "\(locale): \(key) puts '\(word)' after the count {\(placeholder)} without plural forms; make it a plural entry chosen by {count} or write {\(placeholder)@cli.count.NOUN}"
        case .spokenAbbreviation(let key, let locale, let text):
            "\(locale): spoken line \(key) abbreviates '\(text)', which espeak-ng does not say as the word; write it out"
        case .formalRegister(let key, let locale, let text):
            "\(locale): \(key) ends a sentence in '…\(text)' (합니다체); Steppie speaks 해요체 (…해요, …예요)"
        case .unknownCountKey(let key, let locale, let countKey):
            "\(locale): \(key) counts with \(countKey), which is not a plural entry in \(locale)"
        }
    }

    private static func list(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.map { "{\($0)}" }.joined(separator: " ")
    }
}
