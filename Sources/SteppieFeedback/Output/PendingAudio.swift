/// Audio queued for a stream but not yet written, addressed by absolute sample position.
struct PendingAudio {
    private var buffer: [Float] = []
    private var head = 0
    /// Absolute position of the next sample to be written.
    private(set) var written: Int64 = 0
    /// Absolute end of the last audible (non-zero) sample written.
    private(set) var audibleUntil: Int64 = 0
    private var markers: [SampleMarker] = []

    var queued: Int { buffer.count - head }
    var end: Int64 { written + Int64(queued) }

    /// Drops everything not yet written (markers of dropped audio are never resolved).
    mutating func clear() {
        buffer.removeAll(keepingCapacity: true)
        head = 0
        markers.removeAll()
    }

    /// Mixes `samples` at absolute `position` (never before the next sample to be written).
    mutating func mix(_ samples: [Float], at position: Int64) {
        let at = head + Int(max(position, written) - written)
        SampleFormat.mix(samples, into: &buffer, at: at)
    }

    mutating func watch(_ marker: SampleMarker) { markers.append(marker) }

    /// Takes `count` samples as limited 16-bit (silence where nothing is queued) and the markers they cover.
    mutating func take(_ count: Int) -> (samples: [Int16], covered: [SampleMarker]) {
        var out = [Int16](repeating: 0, count: count)
        let available = min(count, queued)
        var lastAudible = -1
        for i in 0..<available {
            let v = Int16((SampleFormat.limit(buffer[head + i]) * 32767).rounded())
            out[i] = v
            if v != 0 { lastAudible = i }
        }
        head += available
        if head > 1 << 16 || head == buffer.count {
            buffer.removeFirst(head)
            head = 0
        }
        let from = written
        written += Int64(count)
        if lastAudible >= 0 { audibleUntil = from + Int64(lastAudible) + 1 }
        var covered: [SampleMarker] = []
        markers.removeAll { m in
            guard m.position < written else { return false }
            covered.append(m)
            return true
        }
        return (out, covered)
    }
}
