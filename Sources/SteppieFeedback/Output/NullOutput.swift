import Foundation
import Synchronization

/// Discards audio; every sample counts as written at once. Counts what it was given (for tests).
public final class NullOutput: AudioOutput, Sendable {
    public let kind = OutputKind.null
    public let streamsSpeech = false

    private struct State {
        var position: Int64 = 0
        var stamps = MarkerStamps(limit: 4096)
        var programCount = 0
        var sampleCount = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Programs started so far.
    public var programs: Int { state.withLock { $0.programCount } }
    /// Samples received so far.
    public var samplesReceived: Int { state.withLock { $0.sampleCount } }

    public func startProgram(_ samples: [Float], interrupt: Bool) -> ProgramHandle {
        state.withLock { s in
            s.programCount += 1
            s.sampleCount += samples.count
            let marker = s.stamps.stamp(at: s.position)
            let handle = ProgramHandle(id: marker.id, start: s.position, firstSample: marker)
            s.position += Int64(samples.count)
            return handle
        }
    }

    public func mix(_ samples: [Float], into program: ProgramHandle, offset: Int) -> SampleMarker {
        state.withLock { s in
            s.sampleCount += samples.count
            return s.stamps.stamp(at: program.start + Int64(offset))
        }
    }

    public func writeTime(of marker: SampleMarker) -> UInt64? { state.withLock { $0.stamps.time(of: marker) } }
    public var isBusy: Bool { false }
    public func latency() -> Double? { nil }
    public func close() throws {}
}

/// The write time of each marker an output handed out, the oldest forgotten past `limit`.
struct MarkerStamps {
    private var nextId = 0
    private var times: [Int: UInt64] = [:]
    let limit: Int?

    init(limit: Int?) { self.limit = limit }

    mutating func stamp(at position: Int64) -> SampleMarker {
        nextId += 1
        times[nextId] = Monotonic.now()
        if let limit, times.count > limit, let oldest = times.keys.min() { times[oldest] = nil }
        return SampleMarker(id: nextId, position: position)
    }

    func time(of marker: SampleMarker) -> UInt64? { times[marker.id] }
}
