/// Makes any text safe to hand to espeak-ng as plain text.
///
/// espeak-ng is always called without `espeakSSML` and `espeakPHONEMES`, so `<tags>` are read as
/// characters; but even in plain-text mode it reads `[[...]]` as phoneme input. Doubled brackets
/// are therefore split with a space (`[ [`), which espeak-ng reads as two ordinary brackets.
public enum SpeechText {
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
