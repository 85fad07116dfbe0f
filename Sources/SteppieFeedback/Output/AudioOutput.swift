import Dispatch

/// Which kind of audio output plays feedback.
public enum OutputKind: String, Sendable, CaseIterable, Codable {
    /// A PulseAudio server (a low-latency stream kept open).
    case pulse
    /// A WAV file holding the whole timeline.
    case wav
    /// Nowhere (tests, silent machines).
    case null
}

/// A position in an output's sample stream whose write time can be asked for later.
public struct SampleMarker: Hashable, Sendable {
    public let id: Int
    /// Absolute sample position in the output's stream.
    public let position: Int64
}

/// A program (one cue) started on an output; speech is mixed into it later.
public struct ProgramHandle: Hashable, Sendable {
    public let id: Int
    /// Absolute position of the program's first sample.
    public let start: Int64
    /// The program's first sample.
    public let firstSample: SampleMarker
}

/// Where mixed feedback audio goes: 22050 Hz mono float, limited to below full scale on output.
public protocol AudioOutput: AnyObject, Sendable {
    var kind: OutputKind { get }
    /// True when the output plays against a clock (PulseAudio): a cue's speech is mixed in chunk
    /// by chunk as espeak-ng synthesizes it, off the press path. False for timeline outputs (WAV,
    /// null), which take a cue's speech whole within `play`, so their timeline stays deterministic.
    var streamsSpeech: Bool { get }
    /// Starts a program. `interrupt` drops everything still queued (newer, more important feedback).
    func startProgram(_ samples: [Float], interrupt: Bool) -> ProgramHandle
    /// Mixes `samples` into `program`, `offset` samples after its start; returns the marker of the first one.
    func mix(_ samples: [Float], into program: ProgramHandle, offset: Int) -> SampleMarker
    /// The monotonic time (ns, `Monotonic.now()`) at which the marked sample was written, once it has been.
    func writeTime(of marker: SampleMarker) -> UInt64?
    /// True while audio is queued that has not been written yet.
    var isBusy: Bool { get }
    /// The stream's reported latency in seconds, where the output has one.
    func latency() -> Double?
    /// Finishes the output (the WAV output writes its file here).
    func close() throws
}

/// The monotonic clock every timing figure uses.
public enum Monotonic {
    /// Nanoseconds on a monotonic clock.
    public static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
