/// What a button press asks child mode to do.
public enum ButtonAction: String, Equatable, Hashable, Sendable, CaseIterable {
    /// The current activity is done (`ChildModeEvent.donePressed`).
    case done
    /// Take back the last completion while the undo window is open (`undoPressed`).
    case undo
    /// Move on to the next activity (`nextPressed`).
    case next
}
