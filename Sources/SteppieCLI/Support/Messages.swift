import Dispatch
import SteppieCore
import SteppieLocalization

/// Looks up user-facing text by catalog key; every string the command line prints comes from here.
public struct Messages: Sendable {
    public let locale: String
    private let lookup: @Sendable (_ key: String, _ args: [String: String]) -> String

    public init(locale: String, lookup: @escaping @Sendable (_ key: String, _ args: [String: String]) -> String) {
        self.locale = locale
        self.lookup = lookup
    }

    public func callAsFunction(_ key: String, _ args: [String: String] = [:]) -> String { lookup(key, args) }

    /// `message` in this locale, said by the one renderer of catalog messages (nested messages
    /// and names in the same language).
    public func callAsFunction(_ message: CatalogMessage) -> String { renderer.say(message) }

    /// The renderer on these messages' catalogs and locale.
    public var renderer: CatalogRenderer { CatalogRenderer(locale: locale, lookup: lookup) }

    /// Looks `key` up on another thread, so the catalog it lives in is read while the command does
    /// its own work (on a second core); the text is discarded, the catalog keeps what was read.
    public func prefetch(_ key: String) {
        let lookup = self.lookup
        DispatchQueue.global(qos: .userInitiated).async { _ = lookup(key, [:]) }
    }
}
