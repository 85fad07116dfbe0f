import Foundation
import Synchronization

/// Collects the whole timeline and writes it as a 16-bit WAV file on `close()`.
///
/// There is no clock here: each program starts where the previous one ended, interrupting or not.
public final class WAVOutput: AudioOutput, Sendable {
    public let kind = OutputKind.wav
    /// A timeline: a cue's speech is mixed whole within `play`, so the file is the same every time.
    public let streamsSpeech = false
    public let path: String

    private struct State {
        var timeline: [Float] = []
        var stamps = MarkerStamps(limit: nil)
    }

    private let state = Mutex(State())

    /// An output that will write `path` when closed.
    public init(path: String) { self.path = path }

    /// The timeline so far.
    public var samples: [Float] { state.withLock { $0.timeline } }

    public func startProgram(_ samples: [Float], interrupt: Bool) -> ProgramHandle {
        state.withLock { s in
            let start = Int64(s.timeline.count)
            s.timeline.append(contentsOf: samples)
            let marker = s.stamps.stamp(at: start)
            return ProgramHandle(id: marker.id, start: start, firstSample: marker)
        }
    }

    public func mix(_ samples: [Float], into program: ProgramHandle, offset: Int) -> SampleMarker {
        state.withLock { s in
            let at = Int(program.start) + offset
            SampleFormat.mix(samples, into: &s.timeline, at: at)
            return s.stamps.stamp(at: Int64(at))
        }
    }

    public func writeTime(of marker: SampleMarker) -> UInt64? { state.withLock { $0.stamps.time(of: marker) } }
    public var isBusy: Bool { false }
    public func latency() -> Double? { nil }

    /// Writes the WAV file (limited to below full scale).
    public func close() throws {
        let data = state.withLock { SampleFormat.toInt16($0.timeline) }
        try SoundFile.writeWAV(data, to: path)
    }
}
