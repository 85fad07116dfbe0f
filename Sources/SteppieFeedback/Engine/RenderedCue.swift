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

/// What `FeedbackEngine.play` did, with the markers to ask the output for write times.
public struct PlayReport: Equatable, Sendable {
    /// Monotonic ns of the press call.
    public var pressTime: UInt64
    public var decision: PlaybackDecision
    /// The program on the output, nil when the cue was silent.
    public var program: ProgramHandle?
    /// The first speech sample, nil without speech.
    public var speech: SampleMarker?
    /// The sentence spoken.
    public var spokenText: String?
}
