import SteppieCore

/// Says a `CatalogMessage` in one language: every nested message first (in the same language),
/// names in that language, then the message's own key with its arguments filled. The one
/// renderer of error values: the command line (`Messages`), the guardian pages and the service's
/// log lines all say an error through it, so the same error reads the same everywhere.
public struct CatalogRenderer: Sendable {
    /// The language names (`Argument.name`) are said in.
    public let locale: String
    private let lookup: @Sendable (_ key: String, _ args: [String: String]) -> String

    /// A renderer on any catalog lookup in `locale` (the command line's `Messages`).
    public init(locale: String, lookup: @escaping @Sendable (_ key: String, _ args: [String: String]) -> String) {
        self.locale = locale
        self.lookup = lookup
    }

    /// A renderer on `localizer`'s catalogs in `locale` (its fallback chain, plurals, particles).
    public init(localizer: Localizer, locale: String) {
        self.init(locale: locale) { key, args in localizer.text(key, locale: locale, args: args) }
    }

    /// `message` as one line of text in this renderer's language.
    public func say(_ message: CatalogMessage) -> String {
        lookup(message.key, message.arguments.mapValues(text))
    }

    /// What `error` means, in this renderer's language (`CatalogMessage(describing:)`).
    public func say(_ error: any Error) -> String {
        say(CatalogMessage(describing: error))
    }

    /// One argument as text.
    public func text(_ argument: CatalogMessage.Argument) -> String {
        switch argument {
        case .text(let s), .detail(let s): s
        case .name(let name): Validator.printable(name.resolve(chosen: locale, system: nil))
        case .message(let nested): say(nested)
        }
    }
}

extension Localizer {
    /// `message` said in `locale` (see `CatalogRenderer`).
    public func text(_ message: CatalogMessage, locale: String) -> String {
        CatalogRenderer(localizer: self, locale: locale).say(message)
    }
}
