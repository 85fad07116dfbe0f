import Foundation
import SteppieCore

/// Fixed words espeak-ng reads badly in one language, with the espeak-ng phonemes to say instead.
///
/// Applied by the engine to the sanitized sentence: every whole-word match (letter case ignored;
/// in Korean also directly followed by a particle such as 를 or 이에요) becomes a `[[phonemes]]`
/// segment. Everything else stays literal: sanitizing already split any `[[` the user typed, and
/// phoneme strings may not contain brackets, so only the inserted segments can reach phoneme mode.
public struct PronunciationLexicon: Equatable, Sendable {
    /// Word (as written in the file) → espeak-ng phonemes.
    public let entries: [String: String]
    private let byFolded: [String: String]
    private let longestWord: Int

    /// Korean particles (and short endings) that may follow a word without a space.
    static let koreanEndings: [String] = [
        "이에요", "예요", "으로", "에서", "이랑", "하고", "이여",
        "을", "를", "이", "가", "은", "는", "와", "과", "로", "랑", "도", "의", "에", "아", "야", "여", "만",
    ].sorted { $0.count > $1.count }

    /// A lexicon of already validated entries (see `parse`).
    public init(entries: [String: String] = [:]) {
        self.entries = entries
        var folded: [String: String] = [:]
        for (word, phonemes) in entries { folded[Self.fold(word)] = phonemes }
        byFolded = folded
        longestWord = entries.keys.map(\.count).max() ?? 0
    }

    /// Parses and validates one lexicon file's JSON (`{"word": "phonemes", …}`).
    public static func parse(_ data: Data, file: String) throws(PronunciationError) -> PronunciationLexicon {
        let object: JSONTree
        do { object = try JSONDecoder().decode(JSONTree.self, from: data) } catch {
            throw .malformed(file: file, reason: "not valid JSON")
        }
        guard let dict = object.object else { throw .malformed(file: file, reason: "must be one JSON object") }
        var entries: [String: String] = [:]
        var seen: Set<String> = []
        for word in dict.keys.sorted() {
            guard let phonemes = dict[word]?.string else {
                throw .malformed(file: file, reason: "the value of \"\(word)\" must be a string")
            }
            guard isValidWord(word) else { throw .invalidWord(file: file, word: word) }
            guard isValidPhonemes(phonemes) else { throw .invalidPhonemes(file: file, word: word, phonemes: phonemes) }
            guard seen.insert(fold(word)).inserted else { throw .duplicateWord(file: file, word: word) }
            entries[word] = phonemes
        }
        return PronunciationLexicon(entries: entries)
    }

    /// Loads every `<locale>.json` in `directory`, keyed by language (`ko`, `en`); a missing directory is empty.
    public static func loadAll(directory: URL) throws(PronunciationError) -> [String: PronunciationLexicon] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var result: [String: PronunciationLexicon] = [:]
        for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let tag = String(name.dropLast(5))
            guard !tag.isEmpty, tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }) else {
                throw .invalidLocale(file: name)
            }
            let url = directory.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw .malformed(file: name, reason: "cannot be read")
            }
            result[VoiceSettings.language(of: tag)] = try parse(data, file: name)
        }
        return result
    }

    /// The text with every known word replaced by its `[[phonemes]]`, and whether any was replaced.
    ///
    /// `text` must already be sanitized (`SpeechText.sanitize`), so it holds no `[[` of its own.
    public func apply(to text: String) -> (text: String, usesPhonemes: Bool) {
        guard !entries.isEmpty else { return (text, false) }
        let chars = Array(text)
        var out = ""
        var replaced = false
        var i = 0
        while i < chars.count {
            let startsWord = isWordCharacter(chars[i]) && (i == 0 || !isWordCharacter(chars[i - 1]))
            if startsWord, let (length, phonemes) = match(chars, at: i) {
                if let last = out.last, last == "[" || last == "]" { out.append(" ") }
                out += "[[" + phonemes + "]]"
                let next = i + length
                if next < chars.count, chars[next] == "[" || chars[next] == "]" { out.append(" ") }
                replaced = true
                i = next
                continue
            }
            out.append(chars[i])
            i += 1
        }
        return (out, replaced)
    }

    /// The longest entry matching at `start` that ends at a word boundary (or before a Korean ending).
    private func match(_ chars: [Character], at start: Int) -> (Int, String)? {
        var end = start
        while end < chars.count, isWordCharacter(chars[end]) || "-'.".contains(chars[end]), end - start < longestWord {
            end += 1
        }
        var length = end - start
        while length > 0 {
            let candidate = String(chars[start..<(start + length)])
            if isWordCharacter(chars[start + length - 1]), let phonemes = byFolded[Self.fold(candidate)], endsWord(chars, at: start + length) {
                return (length, phonemes)
            }
            length -= 1
        }
        return nil
    }

    /// True when `index` is the end of a word: the end, a non-word character, or a Korean ending that finishes the word.
    private func endsWord(_ chars: [Character], at index: Int) -> Bool {
        guard index < chars.count, isWordCharacter(chars[index]) else { return true }
        for ending in Self.koreanEndings {
            let e = Array(ending)
            guard index + e.count <= chars.count, Array(chars[index..<(index + e.count)]) == e else { continue }
            let after = index + e.count
            if after == chars.count || !isWordCharacter(chars[after]) { return true }
        }
        return false
    }

    private func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber }

    static func fold(_ word: String) -> String { word.lowercased() }

    static func isValidWord(_ word: String) -> Bool {
        guard let first = word.first, first.isLetter || first.isNumber else { return false }
        return word.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "'" || $0 == "." }
    }

    static func isValidPhonemes(_ phonemes: String) -> Bool {
        guard !phonemes.trimmingCharacters(in: .whitespaces).isEmpty else { return false }
        return phonemes.unicodeScalars.allSatisfy { s in
            s.isASCII && s.value >= 0x20 && s.value < 0x7F && s != "[" && s != "]"
        }
    }
}
