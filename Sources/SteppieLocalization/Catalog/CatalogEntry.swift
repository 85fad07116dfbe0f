/// The value of one catalog key: a single template, or plural forms chosen by the `count` argument.
public enum CatalogEntry: Sendable, Hashable {
    case text(MessageTemplate)
    case plural([PluralCategory: MessageTemplate])

    /// Every template of the entry (one, or one per plural form in category order).
    public var templates: [MessageTemplate] {
        switch self {
        case .text(let template): [template]
        case .plural(let forms): PluralCategory.allCases.compactMap { forms[$0] }
        }
    }

    /// The union of placeholder names over all forms, sorted.
    public var placeholderNames: [String] {
        Array(Set(templates.flatMap(\.placeholderNames))).sorted()
    }

    /// The template to use for `category`; a plural entry without that form uses `other`.
    public func template(for category: PluralCategory) -> MessageTemplate? {
        switch self {
        case .text(let template): template
        case .plural(let forms): forms[category] ?? forms[.other] ?? forms.values.first
        }
    }

    /// The entry in source form, plural forms written as `one: … | other: …`.
    public var displayText: String {
        switch self {
        case .text(let template):
            template.source
        case .plural(let forms):
            PluralCategory.allCases.compactMap { category in
                forms[category].map { "\(category.rawValue): \($0.source)" }
            }.joined(separator: " | ")
        }
    }
}

/// A plural category as used in catalog files (`{"one": "…", "other": "…"}`).
public enum PluralCategory: String, Sendable, CaseIterable, Hashable, Comparable {
    case one, other

    public static func < (lhs: PluralCategory, rhs: PluralCategory) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
