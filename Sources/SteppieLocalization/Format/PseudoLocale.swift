/// The pseudo-locale `qps` (also `qps-ploc`, `en-XA`): English catalog text made visibly foreign,
/// so untranslated or hard-coded strings stand out on screen.
///
/// Every catalog string is accented (a → á, e → é …), padded by about 40 % with `~`, and wrapped
/// in `[` … `]`. Placeholders are kept exactly as they are, so arguments arrive unchanged. Text that
/// never went through the catalog stays plain and is therefore easy to spot.
public enum PseudoLocale {
    /// The tag the pseudo-locale is usually selected with.
    public static let tag = "qps"
    /// The catalog the pseudo-locale is derived from.
    public static let baseLocale = "en"

    /// True for `qps`, `qps-*` and `en-XA` (case-insensitive, `_` read as `-`).
    public static func isPseudo(_ tag: String?) -> Bool {
        guard let tag else { return false }
        let t = LocaleTag.normalize(tag)
        return t == "qps" || t.hasPrefix("qps-") || t == "en-xa"
    }

    /// The template accented, padded and bracketed, placeholders untouched.
    public static func transform(_ template: MessageTemplate) -> MessageTemplate {
        var segments: [MessageTemplate.Segment] = [.literal("[")]
        var literalLength = 0
        for segment in template.segments {
            switch segment {
            case .literal(let text):
                literalLength += text.count
                segments.append(.literal(accent(text)))
            case .placeholder, .counted:
                segments.append(segment)
            }
        }
        let padding = max(1, Int((Double(literalLength) * 0.4).rounded(.up)))
        segments.append(.literal(" " + String(repeating: "~", count: padding) + "]"))
        return MessageTemplate(segments: merged(segments))
    }

    /// `text` with each Latin letter replaced by an accented look-alike.
    public static func accent(_ text: String) -> String {
        String(text.map { accents[$0] ?? $0 })
    }

    static let accents: [Character: Character] = {
        let plain = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let fancy = Array("áƀçđéƒĝĥíĵķĺɱñóþǫŕšţúṽŵẋýžÁƁÇĐÉƑĜĤÍĴĶĹṀÑÓÞǪŔŠŢÚṼŴẊÝŽ")
        return Dictionary(uniqueKeysWithValues: zip(plain, fancy))
    }()

    private static func merged(_ segments: [MessageTemplate.Segment]) -> [MessageTemplate.Segment] {
        var out: [MessageTemplate.Segment] = []
        for segment in segments {
            if case .literal(let text) = segment, case .literal(let previous)? = out.last {
                out[out.count - 1] = .literal(previous + text)
            } else if case .literal("") = segment {
                continue
            } else {
                out.append(segment)
            }
        }
        return out
    }
}
