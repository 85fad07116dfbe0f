/// A press that counted: the key, what it stands for, and the instant it was read.
public struct ButtonPress: Equatable, Sendable {
    public let action: ButtonAction
    public let keyCode: UInt16
    public let at: ContinuousClock.Instant

    public init(action: ButtonAction, keyCode: UInt16, at: ContinuousClock.Instant) {
        self.action = action
        self.keyCode = keyCode
        self.at = at
    }
}
