import Foundation

/// Every rule of the data contract, in one place. Each check throws `ContractViolation`.
public enum Validator {
    public static let ttsRateRange = 0.5...1.5
    public static let ttsVolumeRange = 0.0...1.0
    public static let volumeCapRange = 0.0...1.0
    public static let pitchRange = 0...99
    public static let undoDurations = [3, 5, 10]
    public static let leadTimeRange = 1...240
    public static let maxLeadTimes = 5
    public static let maxTitleLength = 200
    public static let maxNameLength = 60

    // MARK: Secrets

    /// A PIN is exactly four ASCII digits. The value is never echoed back.
    public static func pin(_ pin: String) throws {
        guard pin.utf8.count == 4, pin.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            throw ContractViolation(field: "pin", value: "(\(pin.count) characters)", allowed: "exactly 4 digits 0-9",
                                    allowedKey: "contract.allowed.pinDigits", valueKey: "contract.value.characters", arguments: ["count": String(pin.count)])
        }
    }

    /// A recovery code is exactly six ASCII digits. The value is never echoed back.
    public static func recoveryCode(_ code: String) throws {
        guard code.utf8.count == 6, code.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            throw ContractViolation(field: "recoveryCode", value: "(\(code.count) characters)", allowed: "exactly 6 digits 0-9",
                                    allowedKey: "contract.allowed.recoveryDigits", valueKey: "contract.value.characters", arguments: ["count": String(code.count)])
        }
    }

    // MARK: Profile

    public static func profile(_ p: FeedbackProfile) throws {
        try ttsRate(p.ttsRate)
        try ttsVolume(p.ttsVolume)
        try volumeCap(p.volumeCap)
        try pitch(p.pitch)
        try undoDuration(p.undoDurationSeconds)
        try leadTimes(p.notificationLeadTimes)
        try quietHours(start: p.quietHoursStart, end: p.quietHoursEnd)
        if let l = p.locale { try locale(l) }
        if let v = p.voiceVariant { try voiceVariant(v) }
    }

    public static func ttsRate(_ v: Double) throws {
        guard v.isFinite, ttsRateRange.contains(v) else {
            throw ContractViolation(field: "ttsRate", value: format(v), allowed: "0.5…1.5")
        }
    }

    public static func ttsVolume(_ v: Double) throws {
        guard v.isFinite, ttsVolumeRange.contains(v) else {
            throw ContractViolation(field: "ttsVolume", value: format(v), allowed: "0.0…1.0")
        }
    }

    public static func volumeCap(_ v: Double) throws {
        guard v.isFinite, volumeCapRange.contains(v) else {
            throw ContractViolation(field: "volumeCap", value: format(v), allowed: "0.0…1.0")
        }
    }

    public static func pitch(_ v: Int) throws {
        guard pitchRange.contains(v) else {
            throw ContractViolation(field: "pitch", value: String(v), allowed: "0…99")
        }
    }

    public static func undoDuration(_ v: Int) throws {
        guard undoDurations.contains(v) else {
            throw ContractViolation(field: "undoDurationSeconds", value: String(v), allowed: "3, 5 or 10", allowedKey: "contract.allowed.undoSeconds")
        }
    }

    public static func leadTimes(_ v: [Int]) throws {
        let text = v.map(String.init).joined(separator: ",")
        guard v.count <= maxLeadTimes, v.allSatisfy(leadTimeRange.contains), Set(v).count == v.count else {
            throw ContractViolation(field: "notificationLeadTimes", value: text.isEmpty ? "[]" : text,
                                    allowed: "up to 5 different minute values, each 1…240",
                                    allowedKey: "contract.allowed.leadTimes")
        }
    }

    public static func quietHours(start: LocalTime?, end: LocalTime?) throws {
        switch (start, end) {
        case (nil, nil): return
        case let (s?, e?) where s != e: return
        default:
            throw ContractViolation(field: "quietHours", value: "\(start?.description ?? "none")-\(end?.description ?? "none")",
                                    allowed: "both a start and a different end time HH:mm, or neither",
                                    allowedKey: "contract.allowed.quietHoursPair")
        }
    }

    /// A BCP 47-like tag: letters, digits, `-` or `_`, starting with a 2–3 letter language.
    public static func locale(_ tag: String) throws {
        guard tag.utf8.count <= 35 else {
            throw ContractViolation(field: "locale", value: printable(tag), allowed: "a language tag such as ko, en or en-US",
                                    allowedKey: "contract.allowed.localeTag")
        }
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        let ok = tag.utf8.count <= 35 && !parts.isEmpty
            && (2...3).contains(parts[0].count) && parts[0].allSatisfy({ $0.isASCII && $0.isLetter })
            && parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        guard ok else {
            throw ContractViolation(field: "locale", value: printable(tag), allowed: "a language tag such as ko, en or en-US",
                                    allowedKey: "contract.allowed.localeTag")
        }
    }

    public static func voiceVariant(_ v: String) throws {
        guard !v.isEmpty, v.utf8.count <= 40, v.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
            throw ContractViolation(field: "voiceVariant", value: printable(v), allowed: "an espeak-ng variant name (letters, digits, - or _)",
                                    allowedKey: "contract.allowed.voiceVariant")
        }
    }

    // MARK: Text

    /// A routine or set title: at least one locale with visible text, keys that are language tags,
    /// and each value either empty or a `plainText` of at most `maxTitleLength` characters.
    public static func title(_ t: LocalizedText, field: String = "title") throws {
        // Bound every value before looking into any of them: a restored title can be huge.
        for value in t.values.values { try length(value, field: field, maxLength: maxTitleLength) }
        guard t.values.values.contains(where: hasVisibleText) else {
            throw ContractViolation(field: field, value: "(empty in every locale)", allowed: "non-empty text in at least one locale",
                                    allowedKey: "contract.allowed.nonEmptyText", valueKey: "contract.value.emptyEverywhere")
        }
        for (tag, value) in t.values {
            do { try locale(tag) } catch {
                throw ContractViolation(field: field, value: printable(tag), allowed: "locale keys that are language tags such as ko or en",
                                        allowedKey: "contract.allowed.localeKeys")
            }
            guard !value.isEmpty else { continue }   // a locale may be left empty; another one has text
            try plainText(value, field: field, maxLength: maxTitleLength)
        }
    }

    /// A child's name: 1…`maxNameLength` characters of `plainText` with something visible.
    public static func childName(_ name: String) throws {
        try plainText(name, field: "child.name", maxLength: maxNameLength)
    }

    /// Text shown to a child: bounded in characters, code points and bytes; no control or
    /// bidirectional-override characters; and something visible, not only blanks and invisible
    /// characters (see `isBlank`).
    public static func plainText(_ s: String, field: String, maxLength: Int) throws {
        try length(s, field: field, maxLength: maxLength)
        if let bad = s.unicodeScalars.first(where: isForbidden) {
            throw ContractViolation(field: field, value: String(format: "U+%04X", bad.value),
                                    allowed: "text without control or direction-override characters",
                                    allowedKey: "contract.allowed.plainText")
        }
        guard hasVisibleText(s) else {
            let shown = s.unicodeScalars.filter { $0 != " " }.prefix(3).map { String(format: "U+%04X", $0.value) }
            throw ContractViolation(field: field, value: shown.isEmpty ? "(empty)" : "(invisible: \(shown.joined(separator: " ")))",
                                    allowed: "1…\(maxLength) visible characters",
                                    allowedKey: "contract.allowed.visibleLength", arguments: ["max": String(maxLength)])
        }
    }

    /// How many Unicode scalars a text may have per character of its limit: room for a base
    /// letter with a few marks, or an emoji sequence, but not for a "zalgo" bomb of 50,000
    /// combining marks on one letter (one character by count, megabytes to lay out).
    public static let maxScalarsPerCharacter = 4

    /// The three limits of a text of at most `maxLength` characters, cheapest first: UTF-8 bytes
    /// (4 per scalar at most, known without reading the string), Unicode scalars
    /// (`maxScalarsPerCharacter` × `maxLength`), then characters (grapheme clusters, the
    /// expensive count, made only once the others bound the work).
    public static func length(_ s: String, field: String, maxLength: Int) throws {
        let maxScalars = maxScalarsPerCharacter * maxLength
        let maxBytes = 4 * maxScalars
        let allowed = "at most \(maxLength) characters (\(maxScalars) code points, \(maxBytes) bytes)"
        func tooLong(_ count: Int, _ unit: String, _ english: String) -> ContractViolation {
            ContractViolation(field: field, value: "(\(count) \(english))", allowed: allowed, allowedKey: "contract.allowed.maxLength",
                              valueKey: "contract.value.\(unit)",
                              arguments: ["max": String(maxLength), "maxCodePoints": String(maxScalars), "maxBytes": String(maxBytes),
                                          "count": String(count)])
        }
        let bytes = s.utf8.count
        if bytes > maxBytes { throw tooLong(bytes, "bytes", "bytes") }
        let scalars = s.unicodeScalars.count
        if scalars > maxScalars { throw tooLong(scalars, "codePoints", "code points") }
        let characters = s.count
        if characters > maxLength { throw tooLong(characters, "characters", "characters") }
    }

    /// True when `s` has at least one scalar that is not blank (see `isBlank`).
    public static func hasVisibleText(_ s: String) -> Bool {
        s.unicodeScalars.contains { !isBlank($0) }
    }

    /// Scalars that show nothing on their own: white space of every kind, default-ignorable code
    /// points (zero-width spaces and joiners, variation selectors, tags, U+115F/U+1160/U+3164/
    /// U+FFA0 Hangul fillers among them) and the braille blank U+2800, which fonts draw empty.
    public static func isBlank(_ u: Unicode.Scalar) -> Bool {
        if u.properties.isWhitespace || u.properties.isDefaultIgnorableCodePoint { return true }
        switch u.value {
        case 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800: return true   // fillers, in case a Unicode version drops them from the property
        case 0x00..<0x20, 0x7F..<0xA0: return true                 // controls show nothing either (and are refused anyway)
        default: return false
        }
    }

    /// The form in which two names are "the same name": compatibility-normalized (NFKC, so
    /// full-width `Ｍｉｎａ` is `mina`), case-folded and without diacritics (`Émile`, `émile`,
    /// `E\u{301}mile`, `EMILE` all fold to `emile`), invisible characters removed and runs of
    /// white space read as one space, trimmed, then composed again (NFC).
    public static func foldedName(_ s: String) -> String {
        let folded = s.precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for u in folded.unicodeScalars {
            if u.properties.isWhitespace || u == "\u{2800}" {
                pendingSpace = !out.isEmpty
            } else if !isBlank(u) {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(u)
            }
        }
        return String(out).precomposedStringWithCanonicalMapping
    }

    /// Names of the children that are not archived are unique by `foldedName`.
    public static func uniqueChildNames(_ children: [Child]) throws {
        var seen: [String: String] = [:]
        for c in children where c.archivedAt == nil {
            let key = foldedName(c.displayName)
            if let first = seen[key] {
                throw ContractViolation(field: "child.name", value: printable(c.displayName),
                                        allowed: "a name no other child has, ignoring case and accents (\(printable(first)) exists)",
                                        allowedKey: "contract.allowed.uniqueChildName", arguments: ["existing": printable(first)])
            }
            seen[key] = c.displayName
        }
    }

    static func isForbidden(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0..<0x20, 0x7F..<0xA0: return true            // C0/C1 controls, including NUL and newlines
        case 0x202A...0x202E, 0x2066...0x2069: return true // bidi embeddings, overrides, isolates
        case 0x200E, 0x200F, 0x061C: return false          // marks are harmless
        default: return u.properties.generalCategory == .unassigned || u.properties.generalCategory == .surrogate
        }
    }

    // MARK: Routines and sets

    public static func colorToken(_ token: String) throws {
        guard CardColor(token: token) != nil else {
            throw ContractViolation(field: "colorToken", value: printable(token),
                                    allowed: CardColor.allCases.map(\.token).joined(separator: ", "))
        }
    }

    public static func icon(_ icon: IconRef) throws {
        switch icon {
        case .builtin(let name):
            guard BuiltinIcons.contains(name) else {
                throw ContractViolation(field: "icon", value: printable(name),
                                        allowed: "a builtin icon name (see `steppie icons`) or a photo",
                                        allowedKey: "contract.allowed.icon")
            }
        case .photo(let id, let asset):
            guard UUID(uuidString: id) != nil else {
                throw ContractViolation(field: "icon.localAssetId", value: printable(id), allowed: "a UUID", allowedKey: "contract.allowed.uuid")
            }
            try photoAssetName(asset)
        }
    }

    /// Photo asset names: `routine-photo-<letters, digits, ->.jpg|jpeg|png`, no path separators.
    public static func photoAssetName(_ name: String) throws {
        guard name.utf8.count <= 120 else {
            throw ContractViolation(field: "icon.backupAssetName", value: printable(name),
                                    allowed: "routine-photo-<id>.jpg or .png, without / or \\",
                                    allowedKey: "contract.allowed.photoName")
        }
        let lower = name.lowercased()
        let ext = [".jpg", ".jpeg", ".png"].first { lower.hasSuffix($0) }
        let stem = ext.map { String(name.dropLast($0.count)) } ?? ""
        let ok = ext != nil && stem.hasPrefix("routine-photo-") && stem.count > 14 && name.count <= 120
            && stem.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        guard ok else {
            throw ContractViolation(field: "icon.backupAssetName", value: printable(name),
                                    allowed: "routine-photo-<id>.jpg or .png, without / or \\",
                                    allowedKey: "contract.allowed.photoName")
        }
    }

    public static func order(_ order: Int) throws {
        guard order >= 0, order < 10_000 else {
            throw ContractViolation(field: "order", value: String(order), allowed: "0…9999")
        }
    }

    /// One routine on its own.
    public static func routine(_ r: Routine) throws {
        try title(r.title)
        try icon(r.icon)
        try colorToken(r.colorToken)
        try order(r.order)
    }

    /// A set's visible routines: each valid, and `order` unique among the active, visible ones.
    public static func routines(ofSet routines: [Routine]) throws {
        var seen: [Int: UUID] = [:]
        for r in routines {
            try routine(r)
            guard r.isVisible else { continue }
            if seen[r.order] != nil {
                throw ContractViolation(field: "order", value: String(r.order),
                                        allowed: "an order not used by another active routine of the set",
                                        allowedKey: "contract.allowed.freeOrder")
            }
            seen[r.order] = r.id
        }
    }

    /// A child's sets: at most one active, and an active set is never soft-deleted.
    public static func sets(ofChild sets: [RoutineSet]) throws {
        for s in sets {
            try title(s.name, field: "routineSet.name")
            if s.isActive && s.deletedAt != nil {
                throw ContractViolation(field: "routineSet.deletedAt", value: s.id.uuidString.lowercased(),
                                        allowed: "an active set cannot be deleted; activate another set first",
                                        allowedKey: "contract.allowed.activeSetDelete")
            }
        }
        let active = sets.filter(\.isActive)
        if active.count > 1 {
            throw ContractViolation(field: "routineSet.isActive", value: "\(active.count) active sets",
                                    allowed: "exactly one active set per child",
                                    allowedKey: "contract.allowed.oneActiveSet", valueKey: "contract.value.activeSets", arguments: ["count": String(active.count)])
        }
    }

    /// A log row: completed ⇔ completedAt is set.
    public static func log(_ log: DailyLog) throws {
        switch (log.status, log.completedAt) {
        case (.completed, nil):
            throw ContractViolation(field: "completedAt", value: "null", allowed: "a timestamp when status is completed",
                                    allowedKey: "contract.allowed.completedAtSet")
        case (.undone, .some):
            throw ContractViolation(field: "completedAt", value: "set", allowed: "null when status is undone",
                                    allowedKey: "contract.allowed.completedAtNull", valueKey: "contract.value.timestamp")
        default: return
        }
    }

    // MARK: Parsing helpers used by every front end

    /// Parses an `HH:mm` time or reports the field and the allowed form.
    public static func parseTime(_ text: String, field: String) throws -> LocalTime {
        guard let t = LocalTime(text) else {
            throw ContractViolation(field: field, value: printable(text), allowed: "a 24-hour time HH:mm, 00:00…23:59",
                                    allowedKey: "contract.allowed.time")
        }
        return t
    }

    public static func parseDay(_ text: String, field: String) throws -> LocalDay {
        guard let d = LocalDay(text) else {
            throw ContractViolation(field: field, value: printable(text), allowed: "a date YYYY-MM-DD", allowedKey: "contract.allowed.date")
        }
        return d
    }

    /// A value safe to print in an error: controls escaped, long values cut (after 60 code
    /// points, so a value of a million combining marks on one letter costs no more than a short one).
    public static func printable(_ s: String) -> String { printable(s, limit: 60) }

    /// A path as a log or a fault line says it: control characters made visible like `printable`,
    /// but whole (a path cut at 60 characters loses the file it names), up to PATH_MAX.
    public static func printablePath(_ s: String) -> String { printable(s, limit: 4096) }

    static func printable(_ s: String, limit: Int) -> String {
        var out = ""
        var taken = 0
        for u in s.unicodeScalars {
            if taken == limit { out += "…"; break }
            taken += 1
            if isForbidden(u) { out += String(format: "\\u{%X}", u.value) } else { out.unicodeScalars.append(u) }
        }
        return out
    }

    static func format(_ v: Double) -> String {
        v.isFinite ? String(v) : "\(v)"
    }
}
