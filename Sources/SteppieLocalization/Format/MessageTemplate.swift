/// A parsed catalog string: literal text and named placeholders, some carrying a Korean particle.
///
/// Syntax: `{name}` inserts an argument, `{name|을를}` inserts it followed by the particle form
/// that agrees with it, `{name@key}` inserts the plural entry `key` rendered with the argument as
/// its `count` (`{logs@cli.count.logEntries}` → `1 log entry`), and `{{` / `}}` stand for literal
/// braces. A name starts with a letter and
/// continues with letters, digits or `_`.
public struct MessageTemplate: Sendable, Hashable {
    /// One piece of a template.
    public enum Segment: Sendable, Hashable {
        case literal(String)
        /// A placeholder; `particle` is the text after `|` exactly as written (`을를`), if any.
        case placeholder(name: String, particle: String?)
        /// A count said with its noun: the plural entry `key` rendered with `count` = the argument.
        case counted(name: String, key: String)
    }

    /// The pieces in reading order; neighbouring literals are merged.
    public let segments: [Segment]

    /// Parses `source`, throwing a ``TemplateSyntaxError`` that names the offending position.
    public init(parsing source: String) throws(TemplateSyntaxError) {
        // Every catalog string is parsed when the catalogs load (each command's start): a pass
        // over the UTF-8 bytes handles the valid ones; anything it doubts goes to the parser over
        // characters, which finds the error and its position.
        if let fast = FastTemplateParser.parse(source) {
            segments = fast
        } else {
            segments = try TemplateParser(source).parse()
        }
    }

    /// Parses with the character parser only (tests compare it with the fast path).
    init(parsingByCharacters source: String) throws(TemplateSyntaxError) {
        segments = try TemplateParser(source).parse()
    }

    /// Builds a template from segments that are already known to be valid.
    public init(segments: [Segment]) { self.segments = segments }

    /// The placeholder names in order of first appearance.
    public var placeholderNames: [String] {
        var seen: [String] = []
        for segment in segments {
            switch segment {
            case .placeholder(let name, _), .counted(let name, _):
                if !seen.contains(name) { seen.append(name) }
            case .literal:
                break
            }
        }
        return seen
    }

    /// The plural keys named by `{name@key}` placeholders, in order.
    public var countedKeys: [String] {
        segments.compactMap {
            if case .counted(_, let key) = $0 { return key }
            return nil
        }
    }

    /// Every placeholder as (name, particle form) pairs, in order, duplicates kept.
    public var placeholders: [(name: String, particle: String?)] {
        segments.compactMap {
            if case .placeholder(let name, let particle) = $0 { return (name, particle) }
            return nil
        }
    }

    /// The template written back in source form (braces in literals escaped again).
    public var source: String {
        segments.map { segment in
            switch segment {
            case .literal(let text):
                return text.replacingOccurrences(of: "{", with: "{{").replacingOccurrences(of: "}", with: "}}")
            case .placeholder(let name, let particle):
                return "{" + name + (particle.map { "|" + $0 } ?? "") + "}"
            case .counted(let name, let key):
                return "{" + name + "@" + key + "}"
            }
        }.joined()
    }

    /// True when `name` is a valid placeholder name.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" }
    }
}

/// Why a catalog string or raw template could not be parsed.
public struct TemplateSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: String, Sendable, Equatable {
        case unclosedPlaceholder = "a '{' is never closed by '}'"
        case strayClosingBrace = "a lone '}' (write '}}' for a literal brace)"
        case emptyName = "a placeholder has no name"
        case invalidName = "a placeholder name must start with a letter and use only letters, digits and '_'"
        case emptyParticle = "nothing follows '|' in a placeholder"
        case nestedBrace = "a '{' inside a placeholder"
        case invalidCountKey = "the key after '@' must be a catalog key such as cli.count.days"
    }

    public let reason: Reason
    /// Character offset (0-based) where the problem starts.
    public let offset: Int

    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String { "\(reason.rawValue) (at character \(offset))" }
}

/// A single-pass scanner over the characters of a template.
/// The byte-level pass of `MessageTemplate(parsing:)`: braces are ASCII, so UTF-8 bytes can be cut
/// at them. Returns nil for anything that is not plainly valid (the character parser decides).
private enum FastTemplateParser {
    static func parse(_ source: String) -> [MessageTemplate.Segment]? {
        let bytes = Array(source.utf8)
        guard bytes.contains(where: { $0 == 0x7B || $0 == 0x7D }) else { return source.isEmpty ? [] : [.literal(source)] }
        var segments: [MessageTemplate.Segment] = []
        var literal: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            let next: UInt8? = i + 1 < bytes.count ? bytes[i + 1] : nil
            if c == 0x7B && next == 0x7B {
                literal.append(0x7B); i += 2
            } else if c == 0x7D && next == 0x7D {
                literal.append(0x7D); i += 2
            } else if c == 0x7D {
                return nil
            } else if c == 0x7B {
                guard let close = bytes[(i + 1)...].firstIndex(of: 0x7D) else { return nil }
                let body = bytes[(i + 1)..<close]
                if body.contains(0x7B) { return nil }
                if !literal.isEmpty {
                    segments.append(.literal(String(decoding: literal, as: UTF8.self)))
                    literal.removeAll(keepingCapacity: true)
                }
                guard let segment = placeholder(body) else { return nil }
                segments.append(segment)
                i = close + 1
            } else {
                literal.append(c); i += 1
            }
        }
        if !literal.isEmpty { segments.append(.literal(String(decoding: literal, as: UTF8.self))) }
        return segments
    }

    private static func placeholder(_ body: ArraySlice<UInt8>) -> MessageTemplate.Segment? {
        func text(_ slice: ArraySlice<UInt8>) -> String { String(decoding: slice, as: UTF8.self).trimmingSpaces() }
        if !body.contains(0x7C), let at = body.firstIndex(of: 0x40) {
            let name = text(body[body.startIndex..<at]), key = text(body[(at + 1)...])
            guard !name.isEmpty, MessageTemplate.isValidName(name), CatalogKey.isValid(key) else { return nil }
            return .counted(name: name, key: key)
        }
        guard let bar = body.firstIndex(of: 0x7C) else {
            let name = text(body)
            guard !name.isEmpty, MessageTemplate.isValidName(name) else { return nil }
            return .placeholder(name: name, particle: nil)
        }
        let name = text(body[body.startIndex..<bar]), particle = text(body[(bar + 1)...])
        guard !name.isEmpty, MessageTemplate.isValidName(name), !particle.isEmpty else { return nil }
        return .placeholder(name: name, particle: particle)
    }
}

private struct TemplateParser {
    let chars: [Character]

    init(_ source: String) { chars = Array(source) }

    func parse() throws(TemplateSyntaxError) -> [MessageTemplate.Segment] {
        var segments: [MessageTemplate.Segment] = []
        var literal = ""
        var i = 0
        while i < chars.count {
            let c = chars[i]
            let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
            if c == "{" && next == "{" {
                literal.append("{")
                i += 2
            } else if c == "}" && next == "}" {
                literal.append("}")
                i += 2
            } else if c == "}" {
                throw TemplateSyntaxError(.strayClosingBrace, at: i)
            } else if c == "{" {
                guard let close = chars[(i + 1)...].firstIndex(of: "}") else {
                    throw TemplateSyntaxError(.unclosedPlaceholder, at: i)
                }
                let body = chars[(i + 1)..<close]
                if let nested = body.firstIndex(of: "{") { throw TemplateSyntaxError(.nestedBrace, at: nested) }
                if !literal.isEmpty {
                    segments.append(.literal(literal))
                    literal = ""
                }
                segments.append(try placeholder(body, at: i))
                i = close + 1
            } else {
                literal.append(c)
                i += 1
            }
        }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        return segments
    }

    private func placeholder(_ body: ArraySlice<Character>, at offset: Int) throws(TemplateSyntaxError) -> MessageTemplate.Segment {
        if !body.contains("|"), let at = body.firstIndex(of: "@") {
            let name = String(body[body.startIndex..<at]).trimmingSpaces()
            let key = String(body[body.index(after: at)...]).trimmingSpaces()
            if name.isEmpty { throw TemplateSyntaxError(.emptyName, at: offset) }
            guard MessageTemplate.isValidName(name) else { throw TemplateSyntaxError(.invalidName, at: offset) }
            guard CatalogKey.isValid(key) else { throw TemplateSyntaxError(.invalidCountKey, at: offset) }
            return .counted(name: name, key: key)
        }
        let parts = body.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts.first ?? []).trimmingSpaces()
        if name.isEmpty { throw TemplateSyntaxError(.emptyName, at: offset) }
        guard MessageTemplate.isValidName(name) else { throw TemplateSyntaxError(.invalidName, at: offset) }
        guard parts.count == 2 else { return .placeholder(name: name, particle: nil) }
        let particle = String(parts[1]).trimmingSpaces()
        if particle.isEmpty { throw TemplateSyntaxError(.emptyParticle, at: offset) }
        return .placeholder(name: name, particle: particle)
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
