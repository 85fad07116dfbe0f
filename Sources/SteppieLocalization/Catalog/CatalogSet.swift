import Foundation
import SteppieCore
import Synchronization

/// Every locale's catalog found under a `Localization/` directory.
///
/// A set opened from a directory reads a locale's files the first time that locale is asked for
/// (a command in English never reads the Korean files unless a key is missing in English).
public struct CatalogSet: Sendable, Equatable {
    private var sources: [String: LocaleSource]

    /// A set built in code.
    public init(_ catalogs: [Catalog]) {
        sources = Dictionary(catalogs.map { ($0.locale, LocaleSource(ready: $0)) }, uniquingKeysWith: { _, last in last })
    }

    /// Locale name (as the directory is named) → catalog; every locale read (one whose files
    /// cannot be read is left out — ``validated()`` reports it).
    public var catalogs: [String: Catalog] {
        sources.compactMapValues { try? $0.result.get() }
    }

    /// The locale names, sorted.
    public var locales: [String] { sources.keys.sorted() }

    /// The union of keys over all locales, sorted.
    public var allKeys: [String] { Array(Set(catalogs.values.flatMap(\.unsortedKeys))).sorted() }

    /// The catalog named exactly `locale` (its files read now if they were not yet).
    public subscript(locale: String) -> Catalog? {
        get { try? sources[locale]?.result.get() }
        set { sources[locale] = newValue.map { LocaleSource(ready: $0) } }
    }

    public static func == (lhs: CatalogSet, rhs: CatalogSet) -> Bool {
        lhs.locales == rhs.locales && lhs.catalogs == rhs.catalogs
    }

    /// One locale's catalog: given, or read from its folder on first use and kept.
    final class LocaleSource: Sendable {
        private let load: @Sendable () -> Result<Catalog, CatalogLoadError>
        private let cache = Mutex<Result<Catalog, CatalogLoadError>?>(nil)

        init(ready catalog: Catalog) { load = { .success(catalog) } }
        init(load: @escaping @Sendable () -> Result<Catalog, CatalogLoadError>) { self.load = load }

        var result: Result<Catalog, CatalogLoadError> {
            cache.withLock { cached in
                if let cached { return cached }
                let loaded = load()
                cached = loaded
                return loaded
            }
        }
    }

    /// The catalog that best serves `tag`: exact tag (case-insensitive, `_` as `-`), then language.
    public func catalog(for tag: String) -> Catalog? {
        LocaleTag.bestMatch(for: tag, in: locales).flatMap { catalogs[$0] }
    }

    /// Loads every `<locale>/<group>.json` below `directory` (the `Localization/` folder itself)
    /// and parses every value: the strict load, for `l10n check` and tests.
    ///
    /// Each file is one JSON object whose values are strings or `{"one": …, "other": …}` objects.
    /// Files of one locale are merged; a key defined twice is an error naming both files.
    /// Hidden entries and files not ending in `.json` are ignored.
    public static func load(directory: URL) throws(CatalogLoadError) -> CatalogSet {
        try open(directory: directory).validated()
    }

    /// This set after parsing every value still unparsed; throws the first that fails (by
    /// locale, file, then key).
    public func validated() throws(CatalogLoadError) -> CatalogSet {
        for locale in locales { try sources[locale]?.result.get().parseAll() }
        return self
    }

    /// Like ``load(directory:)`` but lazy, for what a command start-up needs: a locale's files are
    /// read when the locale is first asked for, and each value's template is parsed when its key
    /// is first looked up. A locale whose files cannot be read then serves nothing (the fallback
    /// chain goes on), and a value that does not parse reads as missing; ``validated()`` and
    /// `l10n check` report both.
    public static func open(directory: URL) throws(CatalogLoadError) -> CatalogSet {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .directoryMissing(path: directory.path)
        }
        var set = CatalogSet([])
        for locale in try visibleEntries(of: directory, name: ".") {
            let localeURL = directory.appendingPathComponent(locale, isDirectory: true)
            guard fm.fileExists(atPath: localeURL.path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            set.sources[locale] = LocaleSource { Result { () throws(CatalogLoadError) in try readLocale(locale, at: localeURL) } }
        }
        return set
    }

    /// Reads every `.json` file of one locale's folder into one catalog.
    private static func readLocale(_ locale: String, at localeURL: URL) throws(CatalogLoadError) -> Catalog {
        var catalog = Catalog(locale: locale)
        for file in try visibleEntries(of: localeURL, name: locale) where file.hasSuffix(".json") {
            let relative = locale + "/" + file
            let data: Data
            do {
                data = try Data(contentsOf: localeURL.appendingPathComponent(file))
            } catch {
                throw .unreadable(file: relative, reason: error.localizedDescription)
            }
            try catalog.add(try rawValues(data, file: relative), file: relative)
        }
        return catalog
    }

    /// Parses one file's bytes into sorted (key, entry) pairs.
    public static func parse(_ data: Data, file: String) throws(CatalogLoadError) -> [(String, CatalogEntry)] {
        var out: [(String, CatalogEntry)] = []
        for (key, value) in try rawValues(data, file: file) {
            out.append((key, try CatalogEntry(value, key: key, file: file)))
        }
        return out
    }

    /// One file's keys with their values as read; structure and keys checked.
    static func rawValues(_ data: Data, file: String) throws(CatalogLoadError) -> [(String, Catalog.RawValue)] {
        // The usual file goes through the quick reader; anything it does not take, through
        // Foundation's parser, which names the problem.
        if let pairs = data.withUnsafeBytes({ CatalogScanner.scan($0) }) {
            // In file order; a bad key is reported as the smallest one, as the sorted path does.
            if let bad = pairs.lazy.map(\.key).filter({ !CatalogKey.isValid($0) }).min() {
                throw .badKey(file: file, key: bad)
            }
            var out: [(String, Catalog.RawValue)] = []
            out.reserveCapacity(pairs.count)
            for (key, value) in pairs {
                switch value {
                case .text(let text): out.append((key, .text(text)))
                case .object(let forms): out.append((key, try plural(forms.map { ($0.0, JSONTree.string($0.1)) }, key: key, file: file)))
                }
            }
            return out
        }
        let object: JSONTree
        do {
            object = try JSONDecoder().decode(JSONTree.self, from: data)
        } catch {
            throw .malformedJSON(file: file, reason: String(describing: error))
        }
        guard let dictionary = object.object else {
            throw .malformedJSON(file: file, reason: "the top level is not an object")
        }
        var out: [(String, Catalog.RawValue)] = []
        for key in dictionary.keys.sorted() {
            guard CatalogKey.isValid(key) else { throw .badKey(file: file, key: key) }
            let value = dictionary[key] ?? .null
            if let text = value.string {
                out.append((key, .text(text)))
            } else if let forms = value.object {
                out.append((key, try plural(forms.map { ($0.key, $0.value) }, key: key, file: file)))
            } else {
                throw .badEntry(file: file, key: key, reason: "the value must be a string or an object of plural forms")
            }
        }
        return out
    }

    private static func plural(_ forms: [(String, JSONTree)], key: String, file: String) throws(CatalogLoadError) -> Catalog.RawValue {
        guard forms.contains(where: { $0.0 == "other" }) else {
            throw .badEntry(file: file, key: key, reason: "a plural object needs at least an \"other\" form")
        }
        var texts: [(PluralCategory, String)] = []
        for (name, form) in forms.sorted(by: { $0.0 < $1.0 }) {
            guard let category = PluralCategory(rawValue: name) else {
                throw .badEntry(file: file, key: key, reason: "unknown plural form \"\(name)\" (use \"one\" and \"other\")")
            }
            guard let text = form.string else {
                throw .badEntry(file: file, key: key, reason: "plural form \"\(name)\" must be a string")
            }
            texts.append((category, text))
        }
        return .plural(texts)
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
