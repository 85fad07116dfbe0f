/// A parsed JSON value. Numbers keep their value as `Double` (exact for every integer a backup holds).
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    var isNull: Bool { if case .null = self { true } else { false } }
}

/// What the parser keeps and how far it may go. The defaults keep everything and only limit depth.
struct JSONParseOptions: Sendable {
    /// Deepest nesting of arrays and objects.
    var maxDepth = 64
    /// Longest string or number, in bytes (strings counted after unescaping).
    var maxStringBytes = Int.max
    /// Largest value of a skipped (unknown) field, in bytes of JSON text.
    var maxUnknownValueBytes = Int.max
    /// Estimated memory of the kept tree (48 bytes per value plus string and key bytes); the
    /// streamed array's elements are counted one by one, each on its own.
    var maxStructureBytes = Int.max
    /// Keys kept in objects; nil keeps every key. Other keys are syntax-checked and skipped
    /// without building their value.
    var knownKeys: Set<String>?
    /// Keys whose object value keeps every key (language tags of a LocalizedText).
    var openKeys: Set<String> = []
}

/// Where and why JSON parsing stopped.
struct JSONParseError: Error, Equatable {
    enum Kind: Equatable {
        case syntax, tooDeep, stringTooLong, structureTooLarge
        /// The value of the unknown field `field` went over `maxUnknownValueBytes`.
        case unknownTooLarge(field: String)
        /// The byte source or the element handler threw; the parser returns their error instead.
        case forwarded
    }
    let offset: Int
    let reason: String
    var kind: Kind = .syntax
}
