/// A small least-recently-used cache of synthesized utterances, bounded twice: at most `capacity`
/// utterances and at most `maxBytes` of samples. An utterance larger than a quarter of `maxBytes`
/// (a long one-off sentence) is never kept, so it cannot push the everyday cues out; child mode's
/// cues are 1–3 s each (44–130 KiB at 22,050 Hz), so two dozen of them fit.
struct SpeechCache {
    struct Key: Hashable {
        var text: String
        var settings: VoiceSettings
        /// Phoneme input was on (lexicon output).
        var phonemes = false
    }

    let capacity: Int
    let maxBytes: Int
    private var entries: [Key: [Int16]] = [:]
    private var order: [Key] = []
    /// Bytes of samples held now.
    private(set) var bytes = 0

    init(capacity: Int, maxBytes: Int) {
        self.capacity = capacity
        self.maxBytes = maxBytes
    }

    var count: Int { entries.count }

    mutating func get(_ key: Key) -> [Int16]? {
        guard let hit = entries[key] else { return nil }
        if let i = order.firstIndex(of: key) { order.remove(at: i) }
        order.append(key)
        return hit
    }

    mutating func put(_ key: Key, _ value: [Int16]) {
        remove(key)
        let size = value.count * MemoryLayout<Int16>.size
        guard size <= maxBytes / 4 else { return }
        order.append(key)
        entries[key] = value
        bytes += size
        while order.count > capacity || bytes > maxBytes { remove(order[0]) }
    }

    private mutating func remove(_ key: Key) {
        guard let old = entries.removeValue(forKey: key) else { return }
        bytes -= old.count * MemoryLayout<Int16>.size
        if let i = order.firstIndex(of: key) { order.remove(at: i) }
    }

    mutating func removeAll() { entries = [:]; order = []; bytes = 0 }
}
