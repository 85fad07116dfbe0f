import Foundation

/// Every locale's catalog found under a `Localization/` directory.
public struct CatalogSet: Sendable, Equatable {
    /// Locale name (as the directory is named) → catalog.
    public private(set) var catalogs: [String: Catalog]

    /// A set built in code.
    public init(_ catalogs: [Catalog]) {
        self.catalogs = Dictionary(catalogs.map { ($0.locale, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The locale names, sorted.
    public var locales: [String] { catalogs.keys.sorted() }

    /// The union of keys over all locales, sorted.
    public var allKeys: [String] { Array(Set(catalogs.values.flatMap(\.entries.keys))).sorted() }

    /// The catalog named exactly `locale`.
    public subscript(locale: String) -> Catalog? {
        get { catalogs[locale] }
        set { catalogs[locale] = newValue }
    }

    /// The catalog that best serves `tag`: exact tag (case-insensitive, `_` as `-`), then language.
    public func catalog(for tag: String) -> Catalog? {
        LocaleTag.bestMatch(for: tag, in: locales).flatMap { catalogs[$0] }
    }

    /// Loads every `<locale>/<group>.json` below `directory` (the `Localization/` folder itself).
    ///
    /// Each file is one JSON object whose values are strings or `{"one": …, "other": …}` objects.
    /// Files of one locale are merged; a key defined twice is an error naming both files.
    /// Hidden entries and files not ending in `.json` are ignored.
    public static func load(directory: URL) throws(CatalogLoadError) -> CatalogSet {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .directoryMissing(path: directory.path)
        }
        var set = CatalogSet([])
        for locale in try visibleEntries(of: directory, name: ".") {
            let localeURL = directory.appendingPathComponent(locale, isDirectory: true)
            guard fm.fileExists(atPath: localeURL.path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            var catalog = Catalog(locale: locale)
            for file in try visibleEntries(of: localeURL, name: locale) where file.hasSuffix(".json") {
                let relative = locale + "/" + file
                let data: Data
                do {
                    data = try Data(contentsOf: localeURL.appendingPathComponent(file))
                } catch {
                    throw .unreadable(file: relative, reason: error.localizedDescription)
                }
                for (key, entry) in try parse(data, file: relative) {
                    try catalog.add(key, entry, file: relative)
                }
            }
            set[locale] = catalog
        }
        return set
    }

    /// Parses one file's bytes into sorted (key, entry) pairs.
    public static func parse(_ data: Data, file: String) throws(CatalogLoadError) -> [(String, CatalogEntry)] {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .malformedJSON(file: file, reason: String(describing: error))
        }
        guard let dictionary = object as? [String: Any] else {
            throw .malformedJSON(file: file, reason: "the top level is not an object")
        }
        var out: [(String, CatalogEntry)] = []
        for key in dictionary.keys.sorted() {
            guard CatalogKey.isValid(key) else { throw .badKey(file: file, key: key) }
            out.append((key, try entry(dictionary[key] as Any, key: key, file: file)))
        }
        return out
    }

    private static func entry(_ value: Any, key: String, file: String) throws(CatalogLoadError) -> CatalogEntry {
        if let text = value as? String {
            return .text(try template(text, key: key, file: file))
        }
        guard let forms = value as? [String: Any] else {
            throw .badEntry(file: file, key: key, reason: "the value must be a string or an object of plural forms")
        }
        guard forms["other"] != nil else {
            throw .badEntry(file: file, key: key, reason: "a plural object needs at least an \"other\" form")
        }
        var parsed: [PluralCategory: MessageTemplate] = [:]
        for (name, form) in forms {
            guard let category = PluralCategory(rawValue: name) else {
                throw .badEntry(file: file, key: key, reason: "unknown plural form \"\(name)\" (use \"one\" and \"other\")")
            }
            guard let text = form as? String else {
                throw .badEntry(file: file, key: key, reason: "plural form \"\(name)\" must be a string")
            }
            parsed[category] = try template(text, key: key, file: file)
        }
        return .plural(parsed)
    }

    private static func template(_ text: String, key: String, file: String) throws(CatalogLoadError) -> MessageTemplate {
        do {
            return try MessageTemplate(parsing: text)
        } catch {
            throw .badPlaceholder(file: file, key: key, error: error)
        }
    }

    private static func visibleEntries(of url: URL, name: String) throws(CatalogLoadError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: url.path)
                .filter { !$0.hasPrefix(".") }
                .sorted()
        } catch {
            throw .unreadable(file: name, reason: error.localizedDescription)
        }
    }
}
