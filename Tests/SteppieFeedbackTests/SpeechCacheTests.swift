import Foundation
import Testing
@testable import SteppieFeedback

/// The synthesizer's cache of utterances: least recently used first out, bounded by count and by
/// bytes, long one-off sentences never kept (docs/feedback.md, "Speech cache").
@Suite struct SpeechCacheTests {
    static func key(_ text: String) -> SpeechCache.Key { SpeechCache.Key(text: text, settings: VoiceSettings(locale: "en", rate: 1)) }
    static func samples(_ count: Int) -> [Int16] { [Int16](repeating: 7, count: count) }

    @Test func theLeastRecentlyUsedGoesFirstWhenTheCountIsFull() {
        var cache = SpeechCache(capacity: 3, maxBytes: 1 << 20)
        for name in ["a", "b", "c"] { cache.put(Self.key(name), Self.samples(10)) }
        #expect(cache.get(Self.key("a")) != nil)          // a is now the most recent
        cache.put(Self.key("d"), Self.samples(10))
        #expect(cache.get(Self.key("b")) == nil)          // b was the least recent
        #expect(cache.get(Self.key("a")) != nil && cache.get(Self.key("c")) != nil && cache.get(Self.key("d")) != nil)
        #expect(cache.count == 3 && cache.bytes == 60)
    }

    @Test func theBytesStayUnderTheBudget() {
        var cache = SpeechCache(capacity: 100, maxBytes: 4000)
        for n in 0..<50 { cache.put(Self.key("line \(n)"), Self.samples(400 + n)) }   // 800–898 bytes each
        #expect(cache.bytes <= 4000)
        #expect(cache.count == 4)
        #expect(cache.get(Self.key("line 49")) != nil && cache.get(Self.key("line 45")) == nil)
        // Replacing an entry counts its new size, not both.
        cache.put(Self.key("line 49"), Self.samples(10))
        #expect(cache.bytes == 20 + (400 + 48) * 2 + (400 + 47) * 2 + (400 + 46) * 2)
        cache.removeAll()
        #expect(cache.bytes == 0 && cache.count == 0)
    }

    @Test func anUtteranceOverAQuarterOfTheBudgetIsNotKeptAndPushesNothingOut() {
        var cache = SpeechCache(capacity: 10, maxBytes: 4000)
        cache.put(Self.key("short"), Self.samples(100))
        cache.put(Self.key("long"), Self.samples(501))    // 1,002 bytes > 1,000
        #expect(cache.get(Self.key("long")) == nil)
        #expect(cache.get(Self.key("short")) != nil && cache.bytes == 200)
        cache.put(Self.key("short"), Self.samples(600))   // grown past the limit: dropped, not stale
        #expect(cache.get(Self.key("short")) == nil && cache.bytes == 0)
    }

    /// The real synthesizer: thirty new sentences (a guardian's announcements) leave the cache
    /// within its 2 MiB; a 20-second one is spoken but not kept.
    @Test func theSynthesizersCacheStaysWithinItsBudget() throws {
        let speech = SpeechSynthesizer.shared
        let settings = VoiceSettings(locale: "en", rate: 1)
        for n in 0..<30 {
            _ = try speech.samples(text: "Announcement number \(n): shoes on, coats on, and we go to the park together.", settings: settings)
            #expect(speech.cacheUsage.bytes <= 2 << 20)
        }
        let long = Array(repeating: "After lunch we wash our hands, brush our teeth and read a story.", count: 6).joined(separator: " ")
        let spoken = try speech.samples(text: long, settings: settings)
        #expect(Double(spoken.count) / Double(SpeechSynthesizer.sampleRate) > 15)
        #expect(speech.cached(text: long, settings: settings) == nil)
    }
}
