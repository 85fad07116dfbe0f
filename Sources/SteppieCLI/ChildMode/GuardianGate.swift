import Foundation

/// The hidden gesture: G held down (key repeat) for 3 seconds opens the guardian gate.
/// Terminals report no key-up, so "held" means G arriving without a pause longer than the
/// keyboard's repeat delay.
struct HoldGesture {
    static let holdSeconds = 3.0
    /// Longer than a typical first-repeat delay (250–600 ms).
    static let maxGap = 0.75
    private var start: Date?
    private var last: Date?

    /// Records one G; true when it completes the gesture.
    mutating func key(at now: Date) -> Bool {
        if let last, now.timeIntervalSince(last) <= Self.maxGap, let start {
            self.last = now
            if now.timeIntervalSince(start) >= Self.holdSeconds {
                self.start = nil
                self.last = nil
                return true
            }
            return false
        }
        start = now
        last = now
        return false
    }

    /// Any other key breaks the hold.
    mutating func reset() {
        start = nil
        last = nil
    }
}
