/// The rule for catalog keys: at least two dot-separated segments, each `[a-z][a-zA-Z0-9_]*`
/// (`tts.allDone`, `child.complete.button`, `template.morning.wake_up`).
public enum CatalogKey {
    /// True when `key` follows the rule.
    public static func isValid(_ key: String) -> Bool {
        // Over the UTF-8 bytes: every allowed character is ASCII.
        var segments = 1
        var atSegmentStart = true
        for byte in key.utf8 {
            if atSegmentStart {
                guard byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") else { return false }
                atSegmentStart = false
            } else if byte == UInt8(ascii: ".") {
                segments += 1
                atSegmentStart = true
            } else {
                let letterOrDigit = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                guard letterOrDigit || byte == UInt8(ascii: "_") else { return false }
            }
        }
        return segments >= 2 && !atSegmentStart
    }

    /// The group of a key: its first segment (`tts` for `tts.allDone`).
    public static func group(of key: String) -> String {
        String(key.split(separator: ".").first ?? "")
    }
}
