/// Something that happened in child mode and deserves feedback.
public enum FeedbackEvent: String, Sendable, Codable, CaseIterable {
    case announce, completed, undone, next, allDone, reminder, error, setStartsAt

    /// The speech catalog key (`tts.completed`, or `tts.completed.short` for short verbosity).
    public func speechKey(_ verbosity: SpeechVerbosity) -> String {
        verbosity == .full ? "tts.\(rawValue)" : "tts.\(rawValue).short"
    }

    /// How important this event's feedback is against other speech.
    public var priority: SpeechPriority {
        switch self {
        case .completed, .allDone, .undone, .error: .message
        case .announce, .next, .setStartsAt: .text
        case .reminder: .notification
        }
    }
}

/// Speech priorities in the spirit of speech-dispatcher: a higher level interrupts a lower one.
public enum SpeechPriority: Int, Sendable, Codable, Comparable, CaseIterable {
    /// Reminders: never cut anything short; they wait until the current cue ends.
    case notification = 1
    /// Announcements of the current or next activity.
    case text = 2
    /// Completion, undo, all done, errors: the answer to the child's own press.
    case message = 3

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// What a newer cue does to the one that is still playing.
public enum PlaybackDecision: Equatable, Sendable {
    /// Stop the older cue at once (flush) and play the newer one.
    case interrupt
    /// Play the newer cue after the older one ends.
    case wait

    /// The rule: equal or higher priority interrupts (newer wins), lower priority waits.
    public static func decide(playing: SpeechPriority?, new: SpeechPriority) -> PlaybackDecision {
        guard let playing else { return .interrupt }
        return new >= playing ? .interrupt : .wait
    }
}
