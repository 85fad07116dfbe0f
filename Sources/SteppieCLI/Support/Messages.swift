/// Looks up user-facing text by catalog key; every string the command line prints comes from here.
public struct Messages: Sendable {
    public let locale: String
    private let lookup: @Sendable (_ key: String, _ args: [String: String]) -> String

    public init(locale: String, lookup: @escaping @Sendable (_ key: String, _ args: [String: String]) -> String) {
        self.locale = locale
        self.lookup = lookup
    }

    public func callAsFunction(_ key: String, _ args: [String: String] = [:]) -> String { lookup(key, args) }
}
