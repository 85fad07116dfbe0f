import Foundation
import SteppieCore

/// A label that must exist in every required language (a template title or an icon label).
public struct LabelSource: Sendable, Hashable {
    /// The catalog key (templates) or icon name (icons).
    public let id: String
    public let text: LocalizedText

    public init(id: String, text: LocalizedText) {
        self.id = id
        self.text = text
    }
}

/// Checks catalogs for the problems that make a prompt go missing or read wrong.
///
/// Rules, each reported as a ``CatalogProblem``:
/// - every required locale exists, and every key of any locale exists in each required locale;
/// - placeholder *names* match the reference locale (the first required locale present); particle
///   forms may differ, since only Korean writes them;
/// - particle placeholders only in Korean catalogs, and only known forms (``ParticleForm``);
/// - no empty values; plural entries carry every form their language needs (``PluralRules``);
/// - with `usedKeys`, keys nobody uses (an entry `group.*` marks a whole group as used);
/// - template titles and icon labels have text in every required locale, template titles exist
///   in the catalogs and agree with SteppieCore;
/// - every spoken line has an on-screen line: see ``screenKey(forSpoken:)``;
/// - no particle written out for "either" (`을(를)`, `이(가)` …): `{name|을를}` lets the engine choose;
/// - in a language with plural forms, no count (``PluralRules/countNames``) followed by its noun in
///   a message without plural forms (`{count} failed attempts`); `{name@key}` names a plural entry.
public enum CatalogChecker {
    /// The prefix of spoken lines.
    public static let spokenPrefix = "tts."
    /// The prefix of their on-screen counterparts.
    public static let screenPrefix = "child.status."

    /// The on-screen key paired with a spoken key: `tts.X` and `tts.X.short` ↔ `child.status.X`.
    public static func screenKey(forSpoken key: String) -> String? {
        guard key.hasPrefix(spokenPrefix) else { return nil }
        var rest = String(key.dropFirst(spokenPrefix.count))
        if rest.hasSuffix(".short") { rest = String(rest.dropLast(".short".count)) }
        return rest.isEmpty ? nil : screenPrefix + rest
    }

    /// Template titles and set names from SteppieCore, keyed by catalog key.
    public static var coreTemplateLabels: [LabelSource] {
        Template.allCases.flatMap { template in
            [LabelSource(id: "template.\(template.rawValue).name", text: template.name)]
                + template.items.map { LabelSource(id: $0.titleKey, text: $0.title) }
        }
    }

    /// Builtin icon labels from SteppieCore, keyed by icon name.
    public static var coreIconLabels: [LabelSource] {
        BuiltinIcons.all.map { LabelSource(id: $0.name, text: $0.label) }
    }

    /// Every problem found, in a stable order (by rule, then key, then locale).
    public static func check(set: CatalogSet, requiredLocales: [String] = ["ko", "en"],
                             usedKeys: Set<String>? = nil,
                             templateLabels: [LabelSource] = coreTemplateLabels,
                             iconLabels: [LabelSource] = coreIconLabels) -> [CatalogProblem] {
        var problems: [CatalogProblem] = []
        func report(_ problem: CatalogProblem) {
            if !problems.contains(problem) { problems.append(problem) }
        }
        let present = requiredLocales.filter { set[$0] != nil }
        for locale in requiredLocales where set[locale] == nil { report(.missingLocale(locale: locale)) }

        let keys = set.allKeys
        for key in keys {
            for locale in present where set[locale]?[key] == nil { report(.missingKey(key: key, locale: locale)) }
        }
        for key in keys {
            checkPlaceholders(key: key, set: set, reference: present, report: report)
        }
        for locale in set.locales {
            guard let catalog = set[locale] else { continue }
            for key in catalog.keys {
                guard let entry = catalog[key] else { continue }
                checkEntry(entry, key: key, locale: locale, report: report)
            }
        }
        for locale in set.locales {
            guard let catalog = set[locale] else { continue }
            for key in catalog.keys {
                let pluralLanguage = PluralRules.requiredCategories(locale: locale).count > 1
                for countKey in catalog[key]?.templates.flatMap(\.countedKeys) ?? [] {
                    switch catalog[countKey] {
                    case .plural?: continue
                    case .text? where !pluralLanguage: continue
                    default: report(.unknownCountKey(key: key, locale: locale, countKey: countKey))
                    }
                }
            }
        }
        if let usedKeys {
            // A noun's plural entry is used by the messages that count with it (`{n@key}`).
            let counted = Set(set.locales.flatMap { locale in
                (set[locale]?.keys ?? []).flatMap { set[locale]?[$0]?.templates.flatMap(\.countedKeys) ?? [] }
            })
            for key in keys where !isUsed(key, by: usedKeys) && !counted.contains(key) { report(.unusedKey(key: key)) }
        }
        checkLabels(templateLabels, kind: .template, set: set, locales: present, required: requiredLocales, report: report)
        checkLabels(iconLabels, kind: .icon, set: nil, locales: present, required: requiredLocales, report: report)
        for key in keys {
            guard let screen = screenKey(forSpoken: key) else { continue }
            if !keys.contains(screen) { report(.spokenWithoutScreenLine(key: key, expected: screen)) }
        }
        return problems
    }

    /// True when `key` is listed in `usedKeys` directly or through a `group.*` pattern.
    public static func isUsed(_ key: String, by usedKeys: Set<String>) -> Bool {
        if usedKeys.contains(key) { return true }
        return usedKeys.contains { pattern in
            pattern.hasSuffix(".*") && key.hasPrefix(String(pattern.dropLast()))
        }
    }

    private static func checkPlaceholders(key: String, set: CatalogSet, reference: [String],
                                          report: (CatalogProblem) -> Void) {
        let holders = reference.filter { set[$0]?[key] != nil } + set.locales.filter { !reference.contains($0) && set[$0]?[key] != nil }
        guard let base = holders.first, let baseEntry = set[base]?[key] else { return }
        let expected = baseEntry.placeholderNames
        for locale in holders.dropFirst() {
            guard let found = set[locale]?[key]?.placeholderNames, found != expected else { continue }
            report(.placeholderMismatch(key: key, locale: locale, expected: expected, found: found, reference: base))
        }
    }

    private static func checkEntry(_ entry: CatalogEntry, key: String, locale: String,
                                   report: (CatalogProblem) -> Void) {
        let isKorean = LocaleTag.language(of: locale) == "ko"
        for template in entry.templates {
            for placeholder in template.placeholders {
                guard let particle = placeholder.particle else { continue }
                if ParticleForm(rawValue: particle) == nil {
                    report(.unknownParticle(key: key, locale: locale, form: particle))
                }
                if !isKorean {
                    report(.particleOutsideKorean(key: key, locale: locale, placeholder: "\(placeholder.name)|\(particle)"))
                }
            }
        }
        checkCounts(entry, key: key, locale: locale, report: report)
        if key.hasPrefix("tts.") { checkSpokenAbbreviations(entry, key: key, locale: locale, report: report) }
        if isKorean {
            checkBareParticles(entry, key: key, locale: locale, report: report)
            checkRegister(entry, key: key, locale: locale, report: report)
        }
        if entry.templates.isEmpty || entry.templates.contains(where: isBlank) {
            report(.emptyValue(key: key, locale: locale))
        }
        if case .plural(let forms) = entry {
            let missing = PluralRules.requiredCategories(locale: locale).filter { forms[$0] == nil }
            if !missing.isEmpty { report(.incompletePlural(key: key, locale: locale, missing: missing)) }
        }
    }

    /// A Korean particle that changes with the sound before it, written in one fixed shape right
    /// after a plain placeholder (`{kind}예요`): the value decides the shape, so it must be
    /// `{kind|이에요예요}`. Only a particle that ends a word counts (`{n}가지` is a counter, not 가).
    /// Abbreviations espeak-ng reads letter by letter or as another word ("5 min." is said "min"):
    /// a spoken line writes the word out.
    static let spokenAbbreviations = ["min.", "mins.", "sec.", "secs.", "hr.", "hrs.", "approx."]

    static func checkSpokenAbbreviations(_ entry: CatalogEntry, key: String, locale: String, report: (CatalogProblem) -> Void) {
        for template in entry.templates {
            for segment in template.segments {
                guard case .literal(let text) = segment else { continue }
                let words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "," })
                if let found = spokenAbbreviations.first(where: { words.contains(Substring($0)) }) {
                    report(.spokenAbbreviation(key: key, locale: locale, text: found))
                    return
                }
            }
        }
    }

    /// Steppie speaks Korean in one polite register, 해요체: a sentence ending in 합니다체
    /// (`…습니다`, `…합니까`) next to ones ending in `…해요` reads as two voices.
    static func checkRegister(_ entry: CatalogEntry, key: String, locale: String, report: (CatalogProblem) -> Void) {
        for template in entry.templates {
            for segment in template.segments {
                guard case .literal(let text) = segment else { continue }
                for ending in ["니다", "니까"] {
                    var rest = Substring(text)
                    while let range = rest.range(of: ending) {
                        let after = rest[range.upperBound...].unicodeScalars.first
                        // A word that goes on (`…니다면`) is not an ending.
                        if after.map({ !$0.properties.isAlphabetic }) ?? true {
                            report(.formalRegister(key: key, locale: locale, text: String(ending)))
                            return
                        }
                        rest = rest[range.upperBound...]
                    }
                }
            }
        }
    }

    static func checkBareParticles(_ entry: CatalogEntry, key: String, locale: String, report: (CatalogProblem) -> Void) {
        for template in entry.templates {
            for (index, segment) in template.segments.enumerated() where index > 0 {
                guard case .literal(let text) = segment, case .placeholder(let name, nil) = template.segments[index - 1] else { continue }
                // `{x}을(를)` is the either-way form, reported as a literal particle already.
                if ParticleForm.literalForms.keys.contains(where: { text.hasPrefix($0) }) { continue }
                // Longest shapes first: 이에요 before 이, 으로 before 로.
                let shapes = ParticleForm.allCases.flatMap { [($0.afterConsonant, $0), ($0.afterVowel, $0)] }
                    .sorted { $0.0.count > $1.0.count }
                guard let (shape, form) = shapes.first(where: { text.hasPrefix($0.0) }) else { continue }
                let rest = text.dropFirst(shape.count)
                if let next = rest.unicodeScalars.first, next.properties.isAlphabetic || next.properties.numericType != nil { continue }
                report(.bareParticle(key: key, locale: locale, placeholder: name, text: shape, form: form.rawValue))
            }
        }
    }

    /// Literal particles in any locale; counts followed by a noun without plural forms.
    private static func checkCounts(_ entry: CatalogEntry, key: String, locale: String,
                                    report: (CatalogProblem) -> Void) {
        let pluralLanguage = PluralRules.requiredCategories(locale: locale).count > 1
        for template in entry.templates {
            for (index, segment) in template.segments.enumerated() {
                guard case .literal(let text) = segment else { continue }
                for form in ParticleForm.literalForms.keys.sorted() where text.contains(form) {
                    report(.literalParticle(key: key, locale: locale, text: form))
                }
                guard pluralLanguage, index > 0,
                      case .placeholder(let name, nil) = template.segments[index - 1],
                      PluralRules.countNames.contains(name) else { continue }
                // A plural entry's forms are chosen by `count`, which callers set to the number shown.
                if case .plural = entry { continue }
                guard text.first == " " else { continue }
                let word = String(text.dropFirst().prefix { $0.isLetter })
                guard !word.isEmpty, word.unicodeScalars.allSatisfy(\.isASCIILetter),
                      !PluralRules.wordsAfterCount.contains(word) else { continue }
                report(.countWithoutPlural(key: key, locale: locale, placeholder: name, word: word))
            }
        }
    }

    private static func isBlank(_ template: MessageTemplate) -> Bool {
        template.segments.allSatisfy { segment in
            if case .literal(let text) = segment { return text.allSatisfy(\.isWhitespace) }
            return false
        }
    }

    private static func checkLabels(_ labels: [LabelSource], kind: CatalogProblem.LabelKind, set: CatalogSet?,
                                    locales: [String], required: [String], report: (CatalogProblem) -> Void) {
        for label in labels {
            for locale in required {
                let core = label.text.values[locale]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                if core.isEmpty { report(.labelMissing(kind: kind, id: label.id, locale: locale)) }
            }
            guard let set else { continue }
            for locale in locales {
                guard let entry = set[locale]?[label.id] else {
                    report(.missingKey(key: label.id, locale: locale))
                    continue
                }
                let core = label.text.values[locale] ?? ""
                let catalog = entry.displayText
                if !core.isEmpty && catalog != core {
                    report(.labelDiffers(id: label.id, locale: locale, catalog: catalog, core: core))
                }
            }
        }
    }
}
