/// The messages of one locale, merged from all files of `Localization/<locale>/`.
public struct Catalog: Sendable, Equatable {
    /// The locale as named by its directory (`ko`, `en`).
    public let locale: String
    /// Key → entry.
    public private(set) var entries: [String: CatalogEntry]
    /// Key → the file (relative to `Localization/`) that defines it.
    public private(set) var files: [String: String]

    /// An empty catalog for `locale`.
    public init(locale: String) {
        self.locale = locale
        entries = [:]
        files = [:]
    }

    /// A catalog built in code, e.g. for tests; `file` is recorded as the source of every key.
    public init(locale: String, entries: [String: CatalogEntry], file: String = "memory") {
        self.locale = locale
        self.entries = entries
        files = entries.mapValues { _ in file }
    }

    /// All keys, sorted.
    public var keys: [String] { entries.keys.sorted() }

    /// The entry for `key`, if the catalog has it.
    public subscript(key: String) -> CatalogEntry? { entries[key] }

    /// Adds or replaces one entry (for building catalogs in code or planting problems in tests).
    public mutating func set(_ key: String, _ entry: CatalogEntry?, file: String = "memory") {
        entries[key] = entry
        files[key] = entry == nil ? nil : file
    }

    /// Adds `key`, refusing a key another file already defined.
    mutating func add(_ key: String, _ entry: CatalogEntry, file: String) throws(CatalogLoadError) {
        if let first = files[key] {
            throw .duplicateKey(key: key, firstFile: first, secondFile: file)
        }
        entries[key] = entry
        files[key] = file
    }
}
