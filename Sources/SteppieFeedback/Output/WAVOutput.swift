import Foundation

/// Collects the whole timeline and writes it as a 16-bit WAV file on `close()`.
///
/// There is no clock here: each program starts where the previous one ended, interrupting or not.
public final class WAVOutput: AudioOutput, @unchecked Sendable {
    public let kind = OutputKind.wav
    /// A timeline: a cue's speech is mixed whole within `play`, so the file is the same every time.
    public let streamsSpeech = false
    public let path: String
    private let lock = NSLock()
    // Guarded by `lock`.
    private var timeline: [Float] = []
    private var nextId = 0
    private var times: [Int: UInt64] = [:]

    /// An output that will write `path` when closed.
    public init(path: String) { self.path = path }

    /// The timeline so far.
    public var samples: [Float] { lock.withLock { timeline } }

    public func startProgram(_ samples: [Float], interrupt: Bool) -> ProgramHandle {
        lock.withLock {
            let start = Int64(timeline.count)
            timeline.append(contentsOf: samples)
            let marker = stamp(at: start)
            return ProgramHandle(id: marker.id, start: start, firstSample: marker)
        }
    }

    public func mix(_ samples: [Float], into program: ProgramHandle, offset: Int) -> SampleMarker {
        lock.withLock {
            let at = Int(program.start) + offset
            SampleFormat.mix(samples, into: &timeline, at: at)
            return stamp(at: Int64(at))
        }
    }

    public func writeTime(of marker: SampleMarker) -> UInt64? { lock.withLock { times[marker.id] } }
    public var isBusy: Bool { false }
    public func latency() -> Double? { nil }

    /// Writes the WAV file (limited to below full scale).
    public func close() throws {
        let data = lock.withLock { SampleFormat.toInt16(timeline) }
        try SoundFile.writeWAV(data, to: path)
    }

    private func stamp(at position: Int64) -> SampleMarker {
        nextId += 1
        times[nextId] = Monotonic.now()
        return SampleMarker(id: nextId, position: position)
    }
}
