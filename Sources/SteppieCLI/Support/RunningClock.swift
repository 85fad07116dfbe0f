import Foundation
import SteppieCore

/// The system clock, or — when `STEPPIE_NOW` gives a starting instant — a clock that starts there
/// and runs on at real speed (for scripted runs across midnight or DST).
public struct RunningClock: WallClock {
    private let start: Date?
    private let origin: ContinuousClock.Instant

    public init(startingAt start: Date? = nil) {
        self.start = start
        self.origin = ContinuousClock.now
    }

    public func now() -> Date {
        guard let start else { return Date() }
        let elapsed = ContinuousClock.now - origin
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return start.addingTimeInterval(seconds)
    }
}
