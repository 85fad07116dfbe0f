/// A problem in a pronunciation lexicon file, as a comparable value naming the file and entry.
public enum PronunciationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read or is not one JSON object of strings.
    case malformed(file: String, reason: String)
    /// A word is empty, has spaces or characters other than letters, digits, `-`, `'` and `.`.
    case invalidWord(file: String, word: String)
    /// A phoneme string is empty, or has `[`, `]`, control characters or non-ASCII characters.
    case invalidPhonemes(file: String, word: String, phonemes: String)
    /// Two words differ only in letter case (matching ignores case).
    case duplicateWord(file: String, word: String)
    /// The file name is not a locale tag (`ko.json`, `en.json`).
    case invalidLocale(file: String)

    public var description: String {
        switch self {
        case let .malformed(file, reason): "pronunciation lexicon \(file): \(reason)"
        case let .invalidWord(file, word):
            "pronunciation lexicon \(file): word \"\(word)\" must be one word (letters, digits, - ' .)"
        case let .invalidPhonemes(file, word, phonemes):
            "pronunciation lexicon \(file): phonemes \"\(phonemes)\" of \"\(word)\" must be non-empty printable ASCII without [ or ]"
        case let .duplicateWord(file, word):
            "pronunciation lexicon \(file): \"\(word)\" is listed twice (case is ignored)"
        case let .invalidLocale(file):
            "pronunciation lexicon \(file): the file name must be a language tag such as ko.json or en.json"
        }
    }
}
