import Foundation

/// Discards audio; every sample counts as written at once. Counts what it was given (for tests).
public final class NullOutput: AudioOutput, @unchecked Sendable {
    public let kind = OutputKind.null
    public let streamsSpeech = false
    private let lock = NSLock()
    // Guarded by `lock`.
    private var position: Int64 = 0
    private var nextId = 0
    private var times: [Int: UInt64] = [:]
    private var programCount = 0
    private var sampleCount = 0

    public init() {}

    /// Programs started so far.
    public var programs: Int { lock.withLock { programCount } }
    /// Samples received so far.
    public var samplesReceived: Int { lock.withLock { sampleCount } }

    public func startProgram(_ samples: [Float], interrupt: Bool) -> ProgramHandle {
        lock.withLock {
            programCount += 1
            sampleCount += samples.count
            let marker = stamp(at: position)
            let handle = ProgramHandle(id: marker.id, start: position, firstSample: marker)
            position += Int64(samples.count)
            return handle
        }
    }

    public func mix(_ samples: [Float], into program: ProgramHandle, offset: Int) -> SampleMarker {
        lock.withLock {
            sampleCount += samples.count
            return stamp(at: program.start + Int64(offset))
        }
    }

    public func writeTime(of marker: SampleMarker) -> UInt64? { lock.withLock { times[marker.id] } }
    public var isBusy: Bool { false }
    public func latency() -> Double? { nil }
    public func close() throws {}

    private func stamp(at position: Int64) -> SampleMarker {
        nextId += 1
        times[nextId] = Monotonic.now()
        if times.count > 4096, let oldest = times.keys.min() { times[oldest] = nil }
        return SampleMarker(id: nextId, position: position)
    }
}
