/// A cue rendered offline: the whole timeline as limited 22050 Hz mono float samples.
public struct RenderedCue: Equatable, Sendable {
    public var samples: [Float]
    /// Sample range of the non-speech part (sound effect and audio haptic), nil if there is none.
    public var nonSpeech: Range<Int>?
    /// Sample range of the speech, nil if there is none.
    public var speech: Range<Int>?
    /// The sentence that was spoken (after sanitizing), nil without speech.
    public var spokenText: String?
    /// Sample range of a guardian's recording inside the speech, nil when all speech was synthesized.
    public var recording: Range<Int>? = nil

    public var sampleRate: Int { SampleFormat.rate }
    /// Seconds.
    public var duration: Double { Double(samples.count) / Double(sampleRate) }
    /// The samples as 16-bit PCM.
    public var int16: [Int16] { SampleFormat.toInt16(samples) }
}

/// Names one played cue; `FeedbackEngine.latencies(of:)` finds its markers once they exist.
public struct CueTicket: Hashable, Sendable {
    public let id: Int
}

/// What `FeedbackEngine.play` did, with what to ask the engine for write times.
public struct PlayReport: Equatable, Sendable {
    /// Monotonic ns of the press call.
    public var pressTime: UInt64
    public var decision: PlaybackDecision
    /// The program on the output; nil when the cue was silent, or while it waits behind a sentence
    /// still being synthesized (it starts, appended, once that sentence is whole).
    public var program: ProgramHandle?
    /// The cue, for `FeedbackEngine.latencies(of:)`; nil when it was silent.
    public var ticket: CueTicket?
    /// The sentence spoken, nil without speech.
    public var spokenText: String?
}
