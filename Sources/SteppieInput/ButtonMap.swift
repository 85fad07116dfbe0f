/// Which action each key code stands for; keys it does not name do `otherKeys` (or nothing).
public struct ButtonMap: Equatable, Sendable {
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

    /// The action of a pressed key, or nil when the map ignores it.
    public func action(for code: UInt16) -> ButtonAction? {
        actions[code] ?? otherKeys
    }
}
