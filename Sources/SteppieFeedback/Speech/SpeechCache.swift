/// A small least-recently-used cache of synthesized utterances.
struct SpeechCache {
    struct Key: Hashable {
        var text: String
        var settings: VoiceSettings
        /// Phoneme input was on (lexicon output).
        var phonemes = false
    }

    let capacity: Int
    private var entries: [Key: [Int16]] = [:]
    private var order: [Key] = []

    init(capacity: Int) { self.capacity = capacity }

    mutating func get(_ key: Key) -> [Int16]? {
        guard let hit = entries[key] else { return nil }
        if let i = order.firstIndex(of: key) { order.remove(at: i) }
        order.append(key)
        return hit
    }

    mutating func put(_ key: Key, _ value: [Int16]) {
        if entries[key] == nil { order.append(key) }
        entries[key] = value
        while order.count > capacity { entries[order.removeFirst()] = nil }
    }

    mutating func removeAll() { entries = [:]; order = [] }
}
