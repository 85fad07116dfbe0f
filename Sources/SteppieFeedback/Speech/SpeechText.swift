import SteppieLocalization

/// Makes any text safe to hand to espeak-ng as plain text.
///
/// espeak-ng is always called without `espeakSSML` and `espeakPHONEMES`, so `<tags>` are read as
/// characters; but even in plain-text mode it reads `[[...]]` as phoneme input. Doubled brackets
/// are therefore split with a space (`[ [`), which espeak-ng reads as two ordinary brackets.
public enum SpeechText {
    /// Free text exactly as it is handed to espeak-ng in `locale`: numbers, times and dates written
    /// out as they are said (`SpokenText.normalize`: `07:30` → 일곱 시 삼십 분), then sanitized.
    /// `steppie say` speaks this and `steppie say --print-spoken` prints it.
    public static func spoken(_ text: String, locale: String) -> String {
        sanitize(SpokenText.normalize(text, locale: locale))
    }

    /// The longest text spoken, in characters; longer text is cut at the last word boundary before it.
    public static let maxCharacters = 300

    /// Returns `text` with control characters removed, whitespace collapsed, `[[`/`]]` neutralised
    /// and the length limited to `maxCharacters`.
    public static func sanitize(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var lastWasSpace = true
        for scalar in text.unicodeScalars {
            let isSpace = scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .format
            if isSpace {
                if !lastWasSpace { scalars.append(" ") }
                lastWasSpace = true
                continue
            }
            // A bracket directly after the same bracket would open/close phoneme mode.
            if (scalar == "[" || scalar == "]"), let last = scalars.last, last == scalar {
                scalars.append(" ")
            }
            scalars.append(scalar)
            lastWasSpace = false
        }
        var result = String(scalars)
        while result.last == " " { result.removeLast() }
        return cut(result)
    }

    /// Cuts at `maxCharacters`, at the last space before the limit when there is one.
    static func cut(_ text: String) -> String {
        guard text.count > maxCharacters else { return text }
        let head = text.prefix(maxCharacters)
        if let space = head.lastIndex(of: " "), head.distance(from: head.startIndex, to: space) > maxCharacters / 2 {
            return String(head[..<space])
        }
        return String(head)
    }
}
