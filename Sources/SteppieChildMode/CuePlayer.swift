import SteppieCore

/// Plays child mode's cues. The live player wraps the feedback engine; tests record.
public protocol CuePlayer: AnyObject {
    /// Starts the cue and returns at once (audio plays in the background).
    func play(_ cue: ChildCue, plan: DayPlan, child: Child)
    /// Called when the child's profile changed (a guardian command).
    func update(child: Child)
    /// Called when another process committed to the database (routines, recordings, settings).
    func dataChanged()
}

/// A player that keeps what it was asked to play.
public final class RecordingCuePlayer: CuePlayer {
    public private(set) var played: [ChildCue] = []
    public init() {}
    public func play(_ cue: ChildCue, plan: DayPlan, child: Child) { played.append(cue) }
    public func update(child: Child) {}
    public func dataChanged() {}
}
