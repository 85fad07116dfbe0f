/// One `--button` value: which input device, how its keys map to actions, grab and debounce.
///
/// Syntax: `PATH[:ITEM,ITEM,…]`, each item one of `KEY=ACTION` (KEY a name such as `KEY_ENTER`
/// or `BTN_0`, a decimal code, or `*` for every other key; ACTION done, undo or next), `grab`,
/// or `debounce=DURATION` (`300ms`, `1s`, `0` or `off`). The options are the text after the
/// last `:` when it holds neither `/` nor `-`; the `/dev/input/by-path` names, whose last `:` is
/// followed by `…-event-kbd`, are therefore taken whole. Without options every key is done.
public struct ButtonSpec: Equatable, Sendable, CustomStringConvertible {
    /// The device node, e.g. `/dev/input/by-id/usb-…-event-kbd` (a FIFO or regular file in tests).
    public var path: String
    public var map: ButtonMap
    /// Exclusive use: presses do not reach other programs (evdev devices only).
    public var grab: Bool
    /// The debounce window the spec sets; nil leaves it to the child's setting.
    public var debounce: Duration?

    /// The longest debounce a spec may set.
    public static let longestDebounce = Duration.seconds(5)

    public init(path: String, map: ButtonMap = .anyKeyIsDone, grab: Bool = false, debounce: Duration? = nil) {
        self.path = path
        self.map = map
        self.grab = grab
        self.debounce = debounce
    }

    /// Parses `PATH[:ITEM,…]`; a refused value throws the error naming its bad part.
    public init(parsing text: String) throws(ButtonSpecError) {
        let (path, options) = Self.split(text)
        guard !path.isEmpty else { throw .emptyPath }
        self.init(path: path)
        guard let options, !options.isEmpty else { return }
        let items = try Self.parseItems(options, optionsAllowed: true)
        if let map = items.map { self.map = map }
        grab = items.grab
        debounce = items.debounce
    }

    /// What a list of items says: the key map (nil when it names no key), `grab`, `debounce=`.
    struct Items {
        var map: ButtonMap?
        var grab = false
        var debounce: Duration?
    }

    /// Parses comma-separated items; without `optionsAllowed` (a map alone, `buttons add --map`)
    /// `grab` and `debounce=` are refused as `optionInMap`.
    static func parseItems(_ options: String, optionsAllowed: Bool) throws(ButtonSpecError) -> Items {
        var result = Items()
        var actions: [UInt16: ButtonAction] = [:]
        var otherKeys: ButtonAction?
        var namedKeys = false
        var seenOptions: Set<String> = []
        for raw in options.split(separator: ",", omittingEmptySubsequences: false) {
            let item = raw.trimmingSpaces
            if item == "grab" {
                guard optionsAllowed else { throw .optionInMap(item) }
                guard seenOptions.insert("grab").inserted else { throw .duplicateOption("grab") }
                result.grab = true
                continue
            }
            guard let equals = item.firstIndex(of: "=") else { throw .unknownItem(item) }
            let name = String(item[..<equals]).trimmingSpaces
            let value = String(item[item.index(after: equals)...]).trimmingSpaces
            guard !name.isEmpty else { throw .unknownItem(item) }
            if name == "debounce" {
                guard optionsAllowed else { throw .optionInMap(item) }
                guard seenOptions.insert("debounce").inserted else { throw .duplicateOption("debounce") }
                result.debounce = try parseDebounce(value)
                continue
            }
            guard let action = ButtonAction(rawValue: value.lowercased()) else {
                if name == "*" || KeyName.code(for: name) != nil { throw .unknownAction(key: name, action: value) }
                throw .unknownKey(name)
            }
            namedKeys = true
            if name == "*" {
                guard otherKeys == nil else { throw .duplicateKey(name) }
                otherKeys = action
                continue
            }
            guard let code = KeyName.code(for: name) else { throw .unknownKey(name) }
            guard actions[code] == nil else { throw .duplicateKey(name) }
            actions[code] = action
        }
        if namedKeys { result.map = ButtonMap(actions: actions, otherKeys: otherKeys) }
        return result
    }

    /// The debounce to use: the spec's own, else the child's setting.
    public func effectiveDebounce(childSetting: Duration) -> Duration { debounce ?? childSetting }

    /// The canonical text of this spec (parses back to an equal value), for storing per device.
    public var description: String {
        var items: [String] = []
        if map != .anyKeyIsDone, !map.description.isEmpty { items.append(map.description) }
        if grab { items.append("grab") }
        if let debounce { items.append("debounce=\(Self.milliseconds(debounce))ms") }
        // A bare path whose last ':' would read as options keeps an empty option list.
        if items.isEmpty { return Self.split(path).options == nil ? path : path + ":" }
        return path + ":" + items.joined(separator: ",")
    }

    /// Splits at the last `:` when what follows can be options (no `/`, no `-`).
    static func split(_ text: String) -> (path: String, options: String?) {
        guard let colon = text.lastIndex(of: ":") else { return (text, nil) }
        let tail = text[text.index(after: colon)...]
        guard !tail.contains("/"), !tail.contains("-") else { return (text, nil) }
        return (String(text[..<colon]), String(tail))
    }

    static func parseDebounce(_ value: String) throws(ButtonSpecError) -> Duration {
        let text = value.lowercased()
        let duration: Duration?
        if text == "0" || text == "off" {
            duration = .zero
        } else if text.hasSuffix("ms"), let n = Int(text.dropLast(2)), n >= 0 {
            duration = .milliseconds(n)
        } else if text.hasSuffix("s"), let n = Int(text.dropLast(1)), n >= 0 {
            duration = .seconds(n)
        } else {
            duration = nil
        }
        guard let duration, duration <= longestDebounce else { throw .badDebounce(value) }
        return duration
    }

    static func milliseconds(_ d: Duration) -> Int64 {
        d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
