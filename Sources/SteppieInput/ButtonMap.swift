/// Which action each key code stands for; keys it does not name do `otherKeys` (or nothing).
public struct ButtonMap: Equatable, Sendable, CustomStringConvertible {
    /// Actions of named key codes.
    public var actions: [UInt16: ButtonAction]
    /// What every other key does; nil ignores them.
    public var otherKeys: ButtonAction?

    /// The map used when a spec names no keys: any key is done.
    public static let anyKeyIsDone = ButtonMap(actions: [:], otherKeys: .done)

    public init(actions: [UInt16: ButtonAction] = [:], otherKeys: ButtonAction? = nil) {
        self.actions = actions
        self.otherKeys = otherKeys
    }

    /// Parses a map alone, `KEY=ACTION,…` as in `--button PATH:MAP` (`buttons add --map`):
    /// `grab` and `debounce=` are refused (`optionInMap`), they have options of their own there.
    /// An empty text is refused as an empty item.
    public init(parsing text: String) throws(ButtonSpecError) {
        let items = try ButtonSpec.parseItems(text, optionsAllowed: false)
        // Every item names a key when options are refused, so a map is always there.
        self = items.map ?? .anyKeyIsDone
    }

    /// The action of a pressed key, or nil when the map ignores it.
    public func action(for code: UInt16) -> ButtonAction? {
        actions[code] ?? otherKeys
    }

    /// The canonical text (`KEY_U=undo,KEY_ENTER=done,*=next`: names for known codes, sorted by
    /// code, `*` last), which parses back to an equal map; it is what the database stores.
    public var description: String {
        var items = actions.sorted(by: { $0.key < $1.key }).map { "\(KeyName.name(for: $0.key) ?? String($0.key))=\($0.value.rawValue)" }
        if let otherKeys { items.append("*=\(otherKeys.rawValue)") }
        return items.joined(separator: ",")
    }
}
