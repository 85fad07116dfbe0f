import SteppieCore

/// Why the catalogs could not be loaded; file names are relative to the `Localization/` directory
/// (`ko/tts.json`) so messages stay short and tests can compare them.
public enum CatalogLoadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `Localization/` directory does not exist or is not a directory.
    case directoryMissing(path: String)
    /// A file or directory could not be read.
    case unreadable(file: String, reason: String)
    /// A file is not valid JSON, or its top level is not an object.
    case malformedJSON(file: String, reason: String)
    /// A value is neither a string nor a `{"one": …, "other": …}` object.
    case badEntry(file: String, key: String, reason: String)
    /// A key breaks the lowercase dot-notation rule.
    case badKey(file: String, key: String)
    /// A string's placeholders cannot be parsed.
    case badPlaceholder(file: String, key: String, error: TemplateSyntaxError)
    /// The same key appears in two files of one locale.
    case duplicateKey(key: String, firstFile: String, secondFile: String)

    public var description: String {
        switch self {
        case .directoryMissing(let path):
            "No catalog directory at \(path): set STEPPIE_DATA_DIR to the folder holding Localization/."
        case .unreadable(let file, let reason):
            "\(file): cannot be read (\(reason))."
        case .malformedJSON(let file, let reason):
            "\(file): not a JSON object of key → text (\(reason))."
        case .badEntry(let file, let key, let reason):
            "\(file): key \"\(key)\": \(reason)."
        case .badKey(let file, let key):
            "\(file): key \"\(key)\" must be lowercase dot notation, segments like [a-z][a-zA-Z0-9_]* (e.g. tts.allDone)."
        case .badPlaceholder(let file, let key, let error):
            "\(file): key \"\(key)\": \(error)."
        case .duplicateKey(let key, let firstFile, let secondFile):
            "Key \"\(key)\" is defined in both \(firstFile) and \(secondFile); keep one."
        }
    }
}

extension CatalogLoadError: CatalogDescribable {
    /// `cli.error.catalog` with the English description as its reason: the catalogs that would
    /// say it otherwise are what could not be read.
    public var catalogMessage: CatalogMessage {
        CatalogMessage("cli.error.catalog", ["reason": .detail(description)])
    }
}
