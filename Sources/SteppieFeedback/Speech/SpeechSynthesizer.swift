import CEspeakNG
import Dispatch
import Foundation
import Synchronization

/// The one owner of libespeak-ng in this process: every espeak call runs on its serial queue.
///
/// libespeak-ng keeps global state and is not thread-safe, so there is exactly one instance
/// (`shared`); it is `Sendable` because its espeak state is confined to `queue` and its cache of
/// finished utterances is behind a `Mutex` (so a press can look there without waiting for the queue).
/// `@unchecked`: confinement to a dispatch queue is a rule the compiler cannot check.
public final class SpeechSynthesizer: @unchecked Sendable {
    /// The process-wide synthesizer.
    public static let shared = SpeechSynthesizer()

    /// The engine's sample rate (espeak-ng's own).
    public static let sampleRate = 22050

    private let queue = DispatchQueue(label: "steppie.espeak", qos: .userInteractive)
    // Confined to `queue`.
    private var initialized = false
    private var currentVoice: String?
    private var currentParams: (wpm: Int, gap: Int, pitch: Int)?
    /// espeak-ng's data folder, known after initialization (voices are chosen by their file).
    private var voiceFiles: VoiceFiles?
    /// Each voice name's file name, found once: switching between ko and en must not look in
    /// espeak-ng's folders again on every sentence.
    private var voicePaths: [String: String] = [:]
    /// 24 utterances, 2 MiB of samples (about 47 s of speech at 22,050 Hz): a device that runs all
    /// day keeps its everyday cues warm without a guardian's long sentences growing the service.
    private let cache = Mutex(SpeechCache(capacity: 24, maxBytes: 2 << 20))

    private init() {}

    /// Initializes espeak-ng and selects the voices of `locales` once, so the first press is fast.
    public func warmUp(locales: [String] = ["ko", "en"]) throws {
        try queue.sync {
            try initializeIfNeeded()
            for locale in locales {
                try selectVoice(VoiceSettings(locale: locale, rate: 1).voice)
            }
        }
    }

    /// The voice variants installed with espeak-ng (`voices/!v`) that a profile can name (letters,
    /// digits, `-` and `_`), sorted: what the guardian's feedback page offers.
    public func installedVariants() throws -> [String] {
        try queue.sync {
            try initializeIfNeeded()
            return voiceFiles?.variants() ?? []
        }
    }

    /// Opens libespeak-ng and initializes it on the synthesizer's queue without waiting, so a
    /// command that will speak overlaps that work with its own start-up; a failure here is left
    /// for the first real call, which tries again and reports it.
    public func startInitializing() {
        queue.async { [self] in try? initializeIfNeeded() }
    }

    /// Speaks `text` (numbers said as people say them, sanitized, as plain text: `SpeechText.spoken`) and returns 22050 Hz mono 16-bit samples scaled by `volume` 0…1.
    public func speak(text: String, locale: String, rate: Double = 1, volume: Double = 1,
                      pitch: Int = 50, variant: String? = nil) throws -> [Int16] {
        let settings = VoiceSettings(locale: locale, rate: rate, pitch: pitch, variant: variant)
        let raw = try samples(text: SpeechText.spoken(text, locale: locale), settings: settings)
        let gain = Float(min(1, max(0, volume.isFinite ? volume : 0)))
        return raw.map { Int16((Float($0) * gain).rounded()) }
    }

    /// Synthesizes already-sanitized text at full voice volume; results are cached by text and settings.
    ///
    /// `phonemes` turns on espeak-ng's `[[…]]` phoneme input (`espeakPHONEMES`). Only pass it for
    /// sanitized text whose `[[…]]` segments were inserted by a `PronunciationLexicon`.
    public func samples(text: String, settings: VoiceSettings, phonemes: Bool = false) throws -> [Int16] {
        try queue.sync { try synthesizeCached(text: text, settings: settings, phonemes: phonemes) }
    }

    /// Synthesizes in the background so a later `samples` call for the same text is a cache hit.
    public func prepare(text: String, settings: VoiceSettings, phonemes: Bool = false) {
        queue.async { [self] in _ = try? synthesizeCached(text: text, settings: settings, phonemes: phonemes) }
    }

    /// Drops cached utterances (benchmarks use it to measure cold synthesis).
    public func clearCache() {
        queue.sync { cache.withLock { $0.removeAll() } }
    }

    /// Utterances and bytes of samples held in the cache now (tests).
    var cacheUsage: (count: Int, bytes: Int) { cache.withLock { ($0.count, $0.bytes) } }

    /// The samples of an utterance synthesized before (by `samples`, `prepare` or a whole
    /// `stream`), nil otherwise; never waits for the queue.
    func cached(text: String, settings: VoiceSettings, phonemes: Bool = false) -> [Int16]? {
        cache.withLock { $0.get(SpeechCache.Key(text: text, settings: settings, phonemes: phonemes)) }
    }

    /// Runs `work` on the owner queue after everything queued before it (streaming jobs call
    /// `stream` from there).
    func enqueue(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Synthesizes `text` handing each chunk of samples to `chunk` as espeak-ng delivers it (about
    /// 50 ms of speech each); `chunk` returning false aborts the synthesis there. Returns false when
    /// it was aborted. A whole utterance is cached; a cached one is handed over as one chunk.
    /// Call only on the owner queue (from `enqueue`).
    func stream(text: String, settings: VoiceSettings, phonemes: Bool = false, chunk: ([Int16]) -> Bool) throws -> Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        let key = SpeechCache.Key(text: text, settings: settings, phonemes: phonemes)
        if let hit = cache.withLock({ $0.get(key) }) { return hit.isEmpty || chunk(hit) }
        let (samples, finished) = try withoutActuallyEscaping(chunk) { chunk in
            try synthesize(text: text, settings: settings, phonemes: phonemes, chunk: chunk)
        }
        if finished { cache.withLock { $0.put(key, samples) } }
        return finished
    }

    // MARK: - queue-confined

    private func synthesizeCached(text: String, settings: VoiceSettings, phonemes: Bool) throws -> [Int16] {
        let key = SpeechCache.Key(text: text, settings: settings, phonemes: phonemes)
        if let hit = cache.withLock({ $0.get(key) }) { return hit }
        let fresh = try synthesize(text: text, settings: settings, phonemes: phonemes, chunk: nil).samples
        cache.withLock { $0.put(key, fresh) }
        return fresh
    }

    private func initializeIfNeeded() throws {
        guard !initialized else { return }
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, Int32(espeakINITIALIZE_DONT_EXIT))
        guard rate > 0 else { throw FeedbackError.speech(call: "espeak_Initialize", code: rate) }
        espeak_SetSynthCallback { wav, count, events in
            guard let events, let box = events.pointee.user_data else { return 0 }
            let sink = Unmanaged<SampleSink>.fromOpaque(box).takeUnretainedValue()
            guard let wav, count > 0, !sink.stopped else { return sink.stopped ? 1 : 0 }
            let chunk = UnsafeBufferPointer(start: wav, count: Int(count))
            sink.samples.append(contentsOf: chunk)
            // Returning 1 tells espeak-ng to abort the rest of the utterance.
            if let deliver = sink.deliver, !deliver(Array(chunk)) { sink.stopped = true }
            return sink.stopped ? 1 : 0
        }
        try check(espeak_SetParameter(espeakVOLUME, 100, 0), "espeak_SetParameter(volume)")
        var dataPath: UnsafePointer<CChar>?
        _ = espeak_Info(&dataPath)
        voiceFiles = dataPath.map { VoiceFiles(dataDirectory: String(cString: $0)) }
        initialized = true
    }

    private func selectVoice(_ name: String) throws {
        guard currentVoice != name else { return }
        // Until this one is chosen, nothing is known about espeak-ng's voice and parameters.
        currentVoice = nil
        currentParams = nil
        // By the voice's file when it is known: espeak-ng then skips reading every voice file.
        let byFile = voicePaths[name] ?? {
            let path = voiceFiles?.resolve(name) ?? name
            voicePaths[name] = path
            return path
        }()
        if byFile == name || espeak_SetVoiceByName(byFile) != EE_OK, espeak_SetVoiceByName(name) != EE_OK {
            // A bad variant falls back to the plain language voice.
            let language = String(name.prefix { $0 != "+" })
            try check(espeak_SetVoiceByName(language), "espeak_SetVoiceByName(\(language))")
        }
        currentVoice = name
        currentParams = nil
    }

    /// The samples of `text`, each chunk also handed to `chunk` as it comes; `finished` is false
    /// when `chunk` stopped it.
    private func synthesize(text: String, settings: VoiceSettings, phonemes: Bool,
                            chunk: (([Int16]) -> Bool)?) throws -> (samples: [Int16], finished: Bool) {
        try initializeIfNeeded()
        try selectVoice(settings.voice)
        let params = (settings.wordsPerMinute, settings.wordGap, settings.pitch)
        if currentParams.map({ $0 != params }) ?? true {
            try check(espeak_SetParameter(espeakRATE, Int32(settings.wordsPerMinute), 0), "espeak_SetParameter(rate)")
            try check(espeak_SetParameter(espeakWORDGAP, Int32(settings.wordGap), 0), "espeak_SetParameter(wordgap)")
            try check(espeak_SetParameter(espeakPITCH, Int32(settings.pitch), 0), "espeak_SetParameter(pitch)")
            currentParams = params
        }
        guard !text.isEmpty else { return ([], true) }
        let sink = SampleSink()
        sink.deliver = chunk
        defer { sink.deliver = nil }
        let box = Unmanaged.passRetained(sink)
        defer { box.release() }
        // Plain UTF-8 text: never espeakSSML. espeakPHONEMES only for lexicon output, whose text was
        // sanitized before the lexicon inserted its `[[…]]` segments (user text is text).
        let flags = UInt32(espeakCHARS_UTF8) | (phonemes ? UInt32(espeakPHONEMES) : 0)
        let result = text.withCString { cText in
            espeak_Synth(cText, strlen(cText) + 1, 0, POS_CHARACTER, 0, flags, nil, box.toOpaque())
        }
        try check(result, "espeak_Synth")
        return (sink.samples, !sink.stopped)
    }

    private func check(_ code: espeak_ERROR, _ call: String) throws {
        guard code == EE_OK else { throw FeedbackError.speech(call: call, code: Int32(code.rawValue)) }
    }
}

/// Collects the samples of one synthesis and hands each chunk on (touched only on the synthesizer's queue).
private final class SampleSink {
    var samples: [Int16] = []
    /// Receives each chunk as it comes; false stops the synthesis.
    var deliver: (([Int16]) -> Bool)?
    var stopped = false
}
