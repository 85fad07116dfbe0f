/// The rule for catalog keys: at least two dot-separated segments, each `[a-z][a-zA-Z0-9_]*`
/// (`tts.allDone`, `child.complete.button`, `template.morning.wake_up`).
public enum CatalogKey {
    /// True when `key` follows the rule.
    public static func isValid(_ key: String) -> Bool {
        let segments = key.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count >= 2 else { return false }
        return segments.allSatisfy { segment in
            guard let first = segment.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
            return segment.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" }
        }
    }

    /// The group of a key: its first segment (`tts` for `tts.allDone`).
    public static func group(of key: String) -> String {
        String(key.split(separator: ".").first ?? "")
    }
}
