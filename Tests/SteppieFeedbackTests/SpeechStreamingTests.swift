import Foundation
import SteppieTestSupport
import Synchronization
import Testing
import SteppieCore
@testable import SteppieFeedback

/// A streaming output without a clock that writes down every program and every mix, in order.
final class ProbeOutput: AudioOutput, @unchecked Sendable {
    enum Event: Equatable {
        case start(program: Int, interrupt: Bool, samples: Int)
        case mix(program: Int, offset: Int, samples: Int)
    }

    let kind = OutputKind.null
    let streamsSpeech = true
    private let lock = NSLock()
    // Guarded by `lock`.
    private var log: [Event] = []
    private var nextId = 0
    private var times: [Int: UInt64] = [:]

    var events: [Event] { lock.withLock { log } }

    func startProgram(_ samples: [Float], interrupt: Bool) -> ProgramHandle {
        lock.withLock {
            nextId += 1
            let program = nextId
            log.append(.start(program: program, interrupt: interrupt, samples: samples.count))
            let start = Int64(program) * 10_000_000
            return ProgramHandle(id: program, start: start, firstSample: stamp(start))
        }
    }

    func mix(_ samples: [Float], into program: ProgramHandle, offset: Int) -> SampleMarker {
        lock.withLock {
            log.append(.mix(program: program.id, offset: offset, samples: samples.count))
            return stamp(program.start + Int64(offset))
        }
    }

    func writeTime(of marker: SampleMarker) -> UInt64? { lock.withLock { times[marker.id] } }
    var isBusy: Bool { false }
    func latency() -> Double? { nil }
    func close() throws {}

    private func stamp(_ position: Int64) -> SampleMarker {
        nextId += 1
        times[nextId] = Monotonic.now()
        return SampleMarker(id: nextId, position: position)
    }

    /// The mixes into `program`: (index in the log, offset, samples).
    func mixes(into program: Int) -> [(index: Int, offset: Int, samples: Int)] {
        events.enumerated().compactMap { i, e in
            if case let .mix(p, offset, samples) = e, p == program { return (i, offset, samples) }
            return nil
        }
    }

    func startIndex(of program: Int) -> Int? {
        events.firstIndex { if case let .start(p, _, _) = $0 { return p == program } else { return false } }
    }
}

/// Holds espeak-ng's queue until released, so a test decides what is queued behind what.
final class QueueGate: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    init(_ speech: SpeechSynthesizer) { speech.enqueue { [semaphore] in semaphore.wait() } }
    func release() { semaphore.signal() }
}

@Suite(.serialized) struct SpeechStreamingTests {
    let strong = Fixture.feedback(.strong)

    /// Sample count of the speech of `cue`, synthesized whole.
    func speechLength(_ engine: FeedbackEngine, _ cue: Cue, _ feedback: EffectiveFeedback) throws -> Int {
        try #require(try engine.renderToBuffer(cue, feedback: feedback, locale: "en").speech).count
    }

    @Test func chunksArriveInOrderWithoutGapsAndMakeTheWholeSentence() throws {
        let probe = ProbeOutput()
        let engine = Fixture.engine(probe)
        let cue = LongSentence.announce(500, strong)
        let report = try engine.play(cue, feedback: strong, locale: "en")
        #expect(report.decision == .interrupt)
        #expect(waitUntil(timeout: 10) { !engine.isBusy })
        let program = try #require(report.program).id
        let mixes = probe.mixes(into: program)
        #expect(mixes.count > 100, "a ~10 s sentence arrives in espeak-ng's ~50 ms chunks, got \(mixes.count)")
        #expect(mixes.first?.offset == 0)
        for (a, b) in zip(mixes, mixes.dropFirst()) { #expect(b.offset == a.offset + a.samples) }
        let streamed = mixes.reduce(0) { $0 + $1.samples }
        #expect(abs(streamed - (try speechLength(engine, cue, strong))) <= 16)
        #expect(engine.latencies(of: report).speech != nil)
    }

    @Test func noChunkOfACutSentenceIsMixedAfterTheCut() throws {
        let probe = ProbeOutput()
        let engine = Fixture.engine(probe)
        // ~35 s of speech at half speed, so the cut lands while espeak-ng is still at it.
        let slow = Fixture.feedback(.strong, rate: 0.5)
        let long = Cue.make(.announce, context: CueContext(routineTitle: "600 " + LongSentence.title + ", and then we go"),
                            feedback: slow)
        let first = try engine.play(long, feedback: slow, locale: "en")
        let old = try #require(first.program).id
        let deadline = Monotonic.now() + 5_000_000_000
        while probe.mixes(into: old).isEmpty && Monotonic.now() < deadline { usleep(50) }
        let done = Cue.make(.completed, context: CueContext(routineTitle: "Eat"), feedback: strong)
        let second = try engine.play(done, feedback: strong, locale: "en")
        #expect(second.decision == .interrupt)
        #expect(waitUntil(timeout: 10) { !engine.isBusy })
        let new = try #require(second.program).id
        let cutAt = try #require(probe.startIndex(of: new))
        let effects = try engine.renderToBuffer(done, feedback: strong, locale: "en").nonSpeech?.count ?? 0
        #expect(probe.events[cutAt] == .start(program: new, interrupt: true, samples: effects))
        let oldMixes = probe.mixes(into: old)
        #expect(!oldMixes.isEmpty)
        #expect(oldMixes.allSatisfy { $0.index < cutAt }, "a chunk of the cut sentence was mixed after the cut")
        let heardOfOld = oldMixes.reduce(0) { $0 + $1.samples }
        #expect(heardOfOld < (try speechLength(engine, long, slow)) / 2, "the old sentence was not cut: \(heardOfOld) samples")
        // The new cue's speech arrived whole.
        let newSpeech = probe.mixes(into: new).reduce(0) { $0 + $1.samples }
        #expect(abs(newSpeech - (try speechLength(engine, done, strong))) <= 16)
    }

    @Test func aLessImportantCueStartsWhenTheSentenceInFrontIsWhole() throws {
        let probe = ProbeOutput()
        let engine = Fixture.engine(probe)
        let gate = QueueGate(SpeechSynthesizer.shared)   // the announcement is still being synthesized
        defer { gate.release() }   // never leave the shared queue held
        let announce = LongSentence.announce(700, strong)
        let first = try engine.play(announce, feedback: strong, locale: "en")
        let reminder = Cue.make(.reminder, context: CueContext(routineTitle: "Eat", minutes: 5), feedback: strong)
        let waiting = try engine.play(reminder, feedback: strong, locale: "en")
        #expect(waiting.decision == .wait)
        #expect(waiting.program == nil)   // where the announcement ends is not known yet
        #expect(engine.isBusy)
        gate.release()
        #expect(waitUntil(timeout: 10) { !engine.isBusy })
        let announced = probe.mixes(into: try #require(first.program).id)
        #expect(abs(announced.reduce(0) { $0 + $1.samples } - (try speechLength(engine, announce, strong))) <= 16)
        // Started (appended, not interrupting) after the last chunk of the announcement.
        let reminderStart = try #require(probe.events.firstIndex {
            if case .start(_, false, let n) = $0 { return n > 0 } else { return false }
        })
        #expect(announced.allSatisfy { $0.index < reminderStart })
        #expect(engine.latencies(of: waiting).cue != nil)
        #expect(engine.latencies(of: waiting).speech != nil)
    }

    @Test func anInterruptDropsTheCuesWaitingBehindTheCutSentence() throws {
        let probe = ProbeOutput()
        let engine = Fixture.engine(probe)
        let gate = QueueGate(SpeechSynthesizer.shared)
        defer { gate.release() }
        try engine.play(LongSentence.announce(800, strong), feedback: strong, locale: "en")
        let waiting = try engine.play(Cue.make(.reminder, context: CueContext(routineTitle: "Eat", minutes: 5), feedback: strong),
                                      feedback: strong, locale: "en")
        #expect(waiting.decision == .wait)
        let done = try engine.play(Cue.make(.completed, context: CueContext(routineTitle: "Eat"), feedback: strong),
                                   feedback: strong, locale: "en")
        #expect(done.decision == .interrupt)
        gate.release()
        #expect(waitUntil(timeout: 10) { !engine.isBusy })
        // The flush dropped what waited, as it drops queued audio: two programs, the reminder never started.
        #expect(probe.events.filter { if case .start = $0 { true } else { false } }.count == 2)
        #expect(engine.latencies(of: waiting).cue == nil)
    }

    @Test func aPreparedSentenceIsMixedWholeWithinThePress() throws {
        let probe = ProbeOutput()
        let engine = Fixture.engine(probe)
        let next = Cue.make(.next, context: CueContext(routineTitle: "900 brush your teeth"), feedback: strong)
        engine.prepare(next, feedback: strong, locale: "en")
        let plan = engine.speechPlan(try #require(next.speech), feedback: strong, locale: "en")
        #expect(waitUntil(timeout: 5) { engine.cachedSpeech(plan) != nil })
        let report = try engine.play(next, feedback: strong, locale: "en")
        // Mixed before `play` returned, in one piece, without espeak-ng's queue.
        #expect(!engine.isBusy)
        let mixes = probe.mixes(into: try #require(report.program).id)
        #expect(mixes.count == 1)
        #expect(mixes.first?.samples == (try speechLength(engine, next, strong)))
    }

    @Test func aSynthesisFailureInTheBackgroundIsToldOnceAndTheSoundPlays() throws {
        let probe = ProbeOutput()
        let notices = LogLines()
        let engine = Fixture.engine(probe, log: { notices.append($0.description) })
        for _ in 0..<3 {
            let cue = Cue.make(.completed, context: CueContext(routineTitle: "Eat"), feedback: strong)
            let report = try engine.play(cue, feedback: strong, locale: "zz")   // no such espeak-ng voice
            #expect(report.program != nil)
            #expect(waitUntil(timeout: 5) { !engine.isBusy })
            #expect(engine.latencies(of: report).speech == nil)
        }
        #expect(notices.lines == [FeedbackNotice.speechFailed(call: "espeak_SetVoiceByName(zz)", code: 2).description],
                "\(notices.lines)")
        #expect(probe.events.filter { if case .start(_, _, let n) = $0 { n > 0 } else { false } }.count == 3)
    }

    @Test func espeakStopsWhenAChunkIsRefusedAndTheNextSentenceIsWhole() throws {
        let speech = SpeechSynthesizer.shared
        let settings = VoiceSettings(locale: "en", rate: 1)
        let text = "1000 " + LongSentence.title
        let whole = try speech.samples(text: text + " whole", settings: settings).count
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<(finished: Bool, chunks: Int, samples: Int)?>(nil)
        speech.enqueue {
            var chunks = 0, samples = 0
            let finished = try? speech.stream(text: text, settings: settings) { chunk in
                chunks += 1
                samples += chunk.count
                return chunks < 3
            }
            result.withLock { $0 = (finished ?? true, chunks, samples) }
            done.signal()
        }
        done.wait()
        let stopped = try #require(result.withLock { $0 })
        #expect(!stopped.finished)
        #expect(stopped.chunks == 3)
        #expect(stopped.samples < whole / 10)
        #expect(speech.cached(text: text, settings: settings) == nil)   // a cut sentence is not cached
        // espeak-ng is fine afterwards: the same sentence, whole, as long as before.
        #expect(abs(try speech.samples(text: text + " whole", settings: settings).count - whole) <= 16)
    }
}
