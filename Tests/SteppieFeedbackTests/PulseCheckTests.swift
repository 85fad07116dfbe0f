import Foundation
import SteppieTestSupport
import Testing
import SteppieCore
@testable import SteppieFeedback

/// The libpulse checking helper, and what a refused call means for a routine: one notice, feedback
/// going on.
@Suite struct PulseCheckTests {
    /// (status, call, the error; nil = success). Codes are libpulse's `PA_ERR_*` values, negated as
    /// the calls return them.
    static let statuses: [(Int32, String, FeedbackError?)] = [
        (0, "pa_stream_write", nil),
        (3, "pa_stream_get_latency", nil),
        (-3, "pa_stream_write", .pulse(call: "pa_stream_write", reason: "Invalid argument")),
        (-6, "pa_context_connect", .pulse(call: "pa_context_connect", reason: "Connection refused")),
        (-15, "pa_stream_disconnect", .pulse(call: "pa_stream_disconnect", reason: "Bad state")),
        (-16, "pa_stream_get_latency", .pulse(call: "pa_stream_get_latency", reason: "No data")),
        (-9999, "pa_stream_write", .pulse(call: "pa_stream_write", reason: "unknown error -9999")),
    ]

    @Test(arguments: statuses.indices)
    func aNegativeStatusBecomesTheErrorValue(_ i: Int) {
        let (code, call, expected) = Self.statuses[i]
        let result = Result { () throws(FeedbackError) in try PulseCheck().status(code, call, context: nil) }
        switch (result, expected) {
        case (.success, nil): break
        case (.failure(let e), let x?): #expect(e == x)
        default: Issue.record("\(code) \(call): got \(result), expected \(String(describing: expected))")
        }
    }

    @Test func aMissingOperationAndAnInjectedFailureAreErrors() {
        #expect(throws: FeedbackError.pulse(call: "pa_stream_flush", reason: "refused without a reason")) {
            try PulseCheck().operation(nil, "pa_stream_flush", context: nil)
        }
        let check = PulseCheck(injected: ["pa_stream_write": -15])
        #expect(throws: FeedbackError.pulse(call: "pa_stream_write", reason: "Bad state")) {
            try check.status(0, "pa_stream_write", context: nil)
        }
        #expect(throws: Never.self) { try check.status(0, "pa_stream_disconnect", context: nil) }
    }

    @Test func noticesHaveCatalogWords() {
        let n = FeedbackNotice.audioFailed(call: "pa_stream_write", reason: "Bad state")
        #expect(n.description == "PulseAudio refused pa_stream_write (Bad state); some feedback may not be heard, the routine goes on")
    }
}

/// Refused libpulse calls against a real server: told once per call as a notice value, and the
/// engine keeps answering presses.
@Suite(.serialized, .enabled(if: PulseEnv.shouldRun, "set PULSE_SERVER (scripts/with-pulse.sh) to run"))
struct PulseFailureTests {
    final class Notices: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [FeedbackNotice] = []
        var all: [FeedbackNotice] { lock.withLock { items } }
        func append(_ n: FeedbackNotice) { lock.withLock { items.append(n) } }
    }

    @Test func aFailedWriteMidStreamIsToldOnceAndPressesGoOn() throws {
        let server = try PrivatePulseServer()
        try server.start()
        let notices = Notices()
        let output = try PulseOutput(options: .init(server: server.address, sink: "steppie_test", retryInterval: 0.2),
                                     log: { notices.append($0) })
        defer { try? output.close() }
        let engine = Fixture.engine(output)
        let strong = Fixture.feedback(.strong)
        let cue = Cue.make(.completed, context: CueContext(routineTitle: "Brush teeth"), feedback: strong)
        let first = try engine.play(cue, feedback: strong, locale: "en")
        #expect(waitUntil(timeout: 3) { engine.latencies(of: first).cue != nil })
        #expect(notices.all.isEmpty)

        // Mid-stream, the server starts refusing writes (the stream would be in a bad state) and flushes.
        output.injectFailures(["pa_stream_write": -15, "pa_stream_flush": -15])
        for _ in 0..<5 {
            let report = try engine.play(cue, feedback: strong, locale: "en")   // every press is still answered
            #expect(report.program != nil)
        }
        #expect(waitUntil(timeout: 3) { notices.all.count == 2 })
        #expect(Set(notices.all.map(\.description)) == [
            FeedbackNotice.audioFailed(call: "pa_stream_write", reason: "Bad state").description,
            FeedbackNotice.audioFailed(call: "pa_stream_flush", reason: "Bad state").description,
        ])
        #expect(output.isConnected)   // the stream stays; nothing crashed

        // Writes work again: the cue is heard, and no more lines were written meanwhile.
        output.injectFailures([:])
        let recorder = try MonitorRecorder(server: server.address, device: "steppie_test.monitor")
        let later = try engine.play(cue, feedback: strong, locale: "en")
        #expect(waitUntil(timeout: 5) { engine.latencies(of: later).cue != nil })
        #expect(waitUntil(timeout: 10) { !output.isBusy })
        #expect(recorder.waitForMore(seconds: 0.3))
        #expect(AudioLevels(recorder.stop()).rms > 0.005)
        #expect(notices.all.count == 2)
    }

    @Test func aServerKilledMidStreamIsANoticeAndPressesGoOn() throws {
        let server = try PrivatePulseServer()
        try server.start()
        let notices = Notices()
        let fallback = NullOutput()
        let output = try PulseOutput(options: .init(server: server.address, sink: "steppie_test", retryInterval: 0.2),
                                     fallback: fallback, log: { notices.append($0) })
        defer { try? output.close() }
        let engine = Fixture.engine(output)
        let strong = Fixture.feedback(.strong)
        let cue = Cue.make(.announce, context: CueContext(routineTitle: "Brush teeth"), feedback: strong)
        let report = try engine.play(cue, feedback: strong, locale: "en")
        #expect(waitUntil(timeout: 3) { engine.latencies(of: report).cue != nil })
        server.kill()   // while the announcement is still being written
        #expect(waitUntil(timeout: 5) { !notices.all.isEmpty })
        guard case .serverLost(_, .null, _)? = notices.all.first else {
            Issue.record("expected serverLost, got \(notices.all)")
            return
        }
        for _ in 0..<3 { try engine.play(cue, feedback: strong, locale: "en") }
        #expect(fallback.programs == 3)
        #expect(notices.all.count == 1)
    }
}
