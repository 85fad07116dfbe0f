/// Where haptic patterns go besides the audio mix: a force-feedback device, an event log, a test double.
public protocol HapticOutput: AnyObject, Sendable {
    /// Plays `pattern` for `event`; must return quickly (the press path calls it).
    func play(_ pattern: HapticPattern, event: FeedbackEvent) throws
}
