import Foundation

/// What a child's screen shows for a state, decided once for every front end: the terminal screen
/// and the kiosk page (its `screen` field, docs/kiosk.md) draw the same kind for the same state.
public enum ChildScreenKind: String, Codable, CaseIterable, Sendable {
    /// The active set shows no routine today.
    case empty
    /// The set starts later today and nothing is done yet.
    case waiting
    /// A completion can still be undone (the countdown shows, the card is done) and a card is next.
    case undo
    /// Every routine of the day is done (the last one's undo shows while its window is open).
    case allDone
    /// The card to do now.
    case current
}

extension ChildModeState {
    /// The kind of screen to draw at `now`, in this order: empty, waiting, all done, undo, current.
    /// All done comes before undo: the last one is celebrated at once, and the all-done screen
    /// offers its undo while the window is open (with no "next": nothing is next).
    public func screenKind(at now: Date) -> ChildScreenKind {
        if plan.items.isEmpty { return .empty }
        if isWaiting(at: now) { return .waiting }
        if isAllDone { return .allDone }
        if undo != nil { return .undo }
        return .current
    }
}
