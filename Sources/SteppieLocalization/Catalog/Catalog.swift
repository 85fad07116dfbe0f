import Synchronization

/// The messages of one locale, merged from all files of `Localization/<locale>/`.
///
/// Loading keeps each value's text as read; its template is parsed the first time the key is
/// looked up (a command uses a few dozen of ~950 keys). `CatalogSet.load` parses every value at
/// once and reports the first bad one; `CatalogSet.open` defers that, and a value whose template
/// cannot be parsed then reads as missing (`⟦key⟧` on screen; `l10n check` names it).
public struct Catalog: Sendable, Equatable {
    /// The locale as named by its directory (`ko`, `en`).
    public let locale: String
    private var storage: Storage

    /// An empty catalog for `locale`.
    public init(locale: String) {
        self.locale = locale
        storage = Storage()
    }

    /// A catalog built in code, e.g. for tests; `file` is recorded as the source of every key.
    public init(locale: String, entries: [String: CatalogEntry], file: String = "memory") {
        self.locale = locale
        storage = Storage()
        for (key, entry) in entries { storage.put(key, .parsed(entry), file: file) }
    }

    /// Key → entry (every value parsed; a value that cannot be parsed is left out).
    public var entries: [String: CatalogEntry] { storage.allEntries() }
    /// Key → the file (relative to `Localization/`) that defines it.
    public var files: [String: String] { storage.fileMap() }

    /// All keys, sorted.
    public var keys: [String] { storage.keyList().sorted() }

    /// The keys, unsorted, without parsing any value.
    var unsortedKeys: [String] { storage.keyList() }

    /// The entry for `key`, if the catalog has it (parsed now if it was not yet).
    public subscript(key: String) -> CatalogEntry? { storage.entry(key) }

    /// Adds or replaces one entry (for building catalogs in code or planting problems in tests).
    public mutating func set(_ key: String, _ entry: CatalogEntry?, file: String = "memory") {
        unshare()
        if let entry { storage.put(key, .parsed(entry), file: file) } else { storage.remove(key) }
    }

    /// Adds one file's keys with their texts as read (one lock for the file), refusing a key
    /// another file already defined; nothing of the file is added then.
    mutating func add(_ pairs: [(String, RawValue)], file: String) throws(CatalogLoadError) {
        unshare()
        try storage.putAll(pairs, file: file)
    }

    /// Parses every value still unparsed; throws the first one that fails (by file, then key).
    func parseAll() throws(CatalogLoadError) {
        try storage.parseAll()
    }

    public static func == (lhs: Catalog, rhs: Catalog) -> Bool {
        lhs.locale == rhs.locale && lhs.entries == rhs.entries && lhs.files == rhs.files
    }

    private mutating func unshare() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// A catalog value as read from its file, before its template is parsed.
    enum RawValue: Sendable {
        case text(String)
        case plural([(PluralCategory, String)])
    }

    enum Slot: Sendable {
        case raw(RawValue)
        case parsed(CatalogEntry)
        case broken(CatalogLoadError)
    }

    /// The entries behind one or more copies of a catalog; parsing on lookup fills it in place.
    final class Storage: Sendable {
        private struct State {
            var slots: [String: Slot] = [:]
            var files: [String: String] = [:]
        }
        private let state: Mutex<State>

        init() { state = Mutex(State()) }
        private init(_ copy: State) { state = Mutex(copy) }

        func copy() -> Storage { Storage(state.withLock { $0 }) }

        func put(_ key: String, _ slot: Slot, file: String) {
            state.withLock { $0.slots[key] = slot; $0.files[key] = file }
        }

        func putAll(_ pairs: [(String, RawValue)], file: String) throws(CatalogLoadError) {
            let clash: (key: String, first: String)? = state.withLock { s in
                for (key, _) in pairs {
                    if let first = s.files[key] { return (key, first) }
                }
                s.slots.reserveCapacity(s.slots.count + pairs.count)
                s.files.reserveCapacity(s.files.count + pairs.count)
                for (key, value) in pairs {
                    s.slots[key] = .raw(value)
                    s.files[key] = file
                }
                return nil
            }
            if let clash { throw .duplicateKey(key: clash.key, firstFile: clash.first, secondFile: file) }
        }

        func remove(_ key: String) {
            state.withLock { $0.slots[key] = nil; $0.files[key] = nil }
        }

        func fileMap() -> [String: String] { state.withLock { $0.files } }
        func keyList() -> [String] { state.withLock { Array($0.slots.keys) } }

        func entry(_ key: String) -> CatalogEntry? {
            state.withLock { s in
                guard let slot = s.slots[key] else { return nil }
                let resolved = Storage.resolve(slot, key: key, file: s.files[key] ?? "")
                s.slots[key] = resolved
                if case .parsed(let entry) = resolved { return entry }
                return nil
            }
        }

        func allEntries() -> [String: CatalogEntry] {
            state.withLock { s in
                var out: [String: CatalogEntry] = [:]
                for (key, slot) in s.slots {
                    let resolved = Storage.resolve(slot, key: key, file: s.files[key] ?? "")
                    s.slots[key] = resolved
                    if case .parsed(let entry) = resolved { out[key] = entry }
                }
                return out
            }
        }

        func parseAll() throws(CatalogLoadError) {
            let failures: [(file: String, key: String, error: CatalogLoadError)] = state.withLock { s in
                var failures: [(file: String, key: String, error: CatalogLoadError)] = []
                for (key, slot) in s.slots {
                    let resolved = Storage.resolve(slot, key: key, file: s.files[key] ?? "")
                    s.slots[key] = resolved
                    if case .broken(let error) = resolved { failures.append((s.files[key] ?? "", key, error)) }
                }
                return failures
            }
            if let first = failures.min(by: { ($0.file, $0.key) < ($1.file, $1.key) }) { throw first.error }
        }

        private static func resolve(_ slot: Slot, key: String, file: String) -> Slot {
            guard case .raw(let value) = slot else { return slot }
            do { return .parsed(try CatalogEntry(value, key: key, file: file)) } catch { return .broken(error) }
        }
    }
}

extension CatalogEntry {
    /// Parses a value as read from a catalog file.
    init(_ value: Catalog.RawValue, key: String, file: String) throws(CatalogLoadError) {
        func template(_ text: String) throws(CatalogLoadError) -> MessageTemplate {
            do { return try MessageTemplate(parsing: text) } catch { throw .badPlaceholder(file: file, key: key, error: error) }
        }
        switch value {
        case .text(let text):
            self = .text(try template(text))
        case .plural(let forms):
            var parsed: [PluralCategory: MessageTemplate] = [:]
            for (category, text) in forms { parsed[category] = try template(text) }
            self = .plural(parsed)
        }
    }
}
