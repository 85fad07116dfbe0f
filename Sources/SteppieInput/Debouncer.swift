/// Counts a press at most once per window and action: a press less than `window` after the last
/// press that counted for the same action is dropped. Pure: the instant is passed in.
public struct Debouncer: Equatable, Sendable {
    /// The window when neither the spec nor the child sets one.
    public static let defaultWindow = Duration.milliseconds(300)

    /// Presses closer than this to the last counted one (same action) count once; zero counts all.
    public var window: Duration
    private var lastCounted: [ButtonAction: ContinuousClock.Instant] = [:]

    public init(window: Duration = Debouncer.defaultWindow) {
        self.window = window
    }

    /// Whether a press of `action` at `now` counts; a counted press starts a new window.
    public mutating func accept(_ action: ButtonAction, at now: ContinuousClock.Instant) -> Bool {
        // The window runs from the last press that counted, so hammering a button yields one
        // press per window rather than none at all.
        if let last = lastCounted[action], now >= last, now - last < window { return false }
        lastCounted[action] = now
        return true
    }
}
