/// A sentence of the message catalogs, named by its key and its arguments, not yet said in any
/// language: what an error value (or anything else a person reads) means, independent of who
/// says it. `SteppieLocalization`'s `CatalogRenderer` says it in a locale; the command line, the
/// guardian pages and the service's log all go through that one renderer.
///
/// An argument is plain text, technical detail, a name in several languages, or another message
/// said first in the same language (`cli.error.database`'s `reason` is the SQLite sentence).
public struct CatalogMessage: Hashable, Sendable {
    /// The catalog key (`cli.error.childNotFound`).
    public var key: String
    /// The key's placeholders and what fills them.
    public var arguments: [String: Argument]

    /// What fills one placeholder.
    public enum Argument: Hashable, Sendable {
        /// Text shown as it is (a child's name, a count, a date).
        case text(String)
        /// Text shown as it is, but technical (a path on the device, a system or library code, a
        /// library's own words): the command line and the device's log say it; the guardian pages,
        /// also served to the home network, never show a message carrying one (`revealsDetail`).
        case detail(String)
        /// A name given in several languages, said in the reader's (control characters made visible).
        case name(LocalizedText)
        /// Another message, said first in the same language.
        indirect case message(CatalogMessage)
    }

    public init(_ key: String, _ arguments: [String: Argument] = [:]) {
        self.key = key
        self.arguments = arguments
    }

    /// True when the message, or one nested in it, carries technical detail (`Argument.detail`).
    public var revealsDetail: Bool {
        arguments.values.contains { argument in
            switch argument {
            case .text, .name: false
            case .detail: true
            case .message(let nested): nested.revealsDetail
            }
        }
    }

    /// This message followed by `next` on the same line (`message.then`: `{first} {second}`).
    public func then(_ next: CatalogMessage) -> CatalogMessage {
        CatalogMessage("message.then", ["first": .message(self), "second": .message(next)])
    }

    /// This message with technical detail for the device's log (`service.log.detail`:
    /// `{sentence} ({detail})`): a library's own words the command line leaves out.
    public func withLogDetail(_ detail: String) -> CatalogMessage {
        CatalogMessage("service.log.detail", ["sentence": .message(self), "detail": .detail(detail)])
    }

    /// What `error` means: its own message when it has one (`CatalogDescribable`), else only its
    /// type's name (`cli.error.unexpected`): an error's `description` is English and would break
    /// a sentence in another language.
    public init(describing error: any Error) {
        if let described = error as? any CatalogDescribable {
            self = described.catalogMessage
        } else {
            self.init("cli.error.unexpected", ["kind": .text(String(describing: type(of: error)))])
        }
    }

    /// What `error` means for the device's log: like ``init(describing:)`` but with the detail
    /// only the log keeps (`CatalogDescribable.logMessage`: SQLite's own message and SQL).
    public static func log(_ error: any Error) -> CatalogMessage {
        (error as? any CatalogDescribable)?.logMessage ?? CatalogMessage(describing: error)
    }
}

/// A value that says what it means as a catalog message, like Foundation's `LocalizedError` but
/// language-free: each error type conforms in its own module, next to its cases.
public protocol CatalogDescribable {
    /// What the value means, for the person reading (the command line's line, a page's text).
    var catalogMessage: CatalogMessage { get }
    /// The same for the device's log, with technical detail the reader's line leaves out
    /// (SQLite's message); by default `catalogMessage`.
    var logMessage: CatalogMessage { get }
}

extension CatalogDescribable {
    public var logMessage: CatalogMessage { catalogMessage }
}

extension CatalogMessage {
    /// A message whose arguments are all plain text.
    public init(_ key: String, text arguments: [String: String]) {
        self.init(key, arguments.mapValues { .text($0) })
    }
}
