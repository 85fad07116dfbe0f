import CPulse
import Dispatch
import Foundation

/// PulseAudio output through libpulse's asynchronous API: one low-latency playback stream kept open.
///
/// The stream is fed silence while idle so the sink never sleeps; a new program flushes queued
/// silence (or less important audio) and is written at once. When the server goes away the output
/// logs one line, sends audio to its fallback and retries connecting every `retryInterval`.
/// Every libpulse status goes through `PulseCheck`; a failed write, flush or disconnect is told once
/// per call as `FeedbackNotice.audioFailed` (again after a reconnection), and feedback goes on.
///
/// `@unchecked Sendable`: all mutable state is touched only with the threaded mainloop's lock held
/// (libpulse callbacks run with that lock held).
public final class PulseOutput: AudioOutput, @unchecked Sendable {
    /// Connection settings.
    public struct Options: Sendable {
        /// Server address (`unix:/path`); nil uses `$PULSE_SERVER` or the default.
        public var server: String?
        /// Sink name; nil uses `$PULSE_SINK` or the default sink.
        public var sink: String?
        /// Target buffer length in milliseconds.
        public var latencyMs: Int
        /// Seconds between reconnection attempts after the server went away.
        public var retryInterval: Double
        /// When no server answers at start: false throws, true starts on the fallback and keeps
        /// trying to connect (child mode must not refuse to start for want of sound).
        public var startWithoutServer: Bool

        public init(server: String? = nil, sink: String? = nil, latencyMs: Int = 20, retryInterval: Double = 1,
                    startWithoutServer: Bool = false) {
            self.server = server; self.sink = sink; self.latencyMs = latencyMs; self.retryInterval = retryInterval
            self.startWithoutServer = startWithoutServer
        }
    }

    enum Link: Equatable { case connecting, ready, down, closed }

    public let kind = OutputKind.pulse
    /// Plays against the server's clock: speech is mixed in as it is synthesized.
    public let streamsSpeech = true
    public let options: Options
    private let fallback: any AudioOutput
    private let log: @Sendable (FeedbackNotice) -> Void
    private let mainloop: OpaquePointer
    private let api: UnsafeMutablePointer<pa_mainloop_api>
    private let retryQueue = DispatchQueue(label: "steppie.pulse.retry")
    private let chunkBytes: Int
    // Guarded by the mainloop lock.
    private var context: OpaquePointer?
    private var stream: OpaquePointer?
    private var link = Link.connecting
    private var everReady = false
    private var outage = false
    private var lastError = ""
    private var pending = PendingAudio()
    private var holdSince: UInt64?
    private var nextId = 0
    private var times: [Int: UInt64] = [:]
    private var fallbackPrograms: [Int: ProgramHandle] = [:]
    private var timer: (any DispatchSourceTimer)?
    private var finished = false
    private var check = PulseCheck()
    private var reportedFailures = Set<String>()

    /// Connects and waits until the stream is ready; throws `FeedbackError.pulse` when no server answers.
    public init(options: Options = Options(), fallback: any AudioOutput = NullOutput(),
                log: @escaping @Sendable (FeedbackNotice) -> Void) throws {
        self.options = options
        self.fallback = fallback
        self.log = log
        chunkBytes = max(2, SampleFormat.rate * options.latencyMs / 1000) * 2
        guard let ml = pa_threaded_mainloop_new() else {
            throw FeedbackError.pulse(call: "pa_threaded_mainloop_new", reason: "out of memory")
        }
        guard let api = pa_threaded_mainloop_get_api(ml) else {
            pa_threaded_mainloop_free(ml)
            throw FeedbackError.pulse(call: "pa_threaded_mainloop_get_api", reason: "no API")
        }
        mainloop = ml
        self.api = api
        do { try check.status(pa_threaded_mainloop_start(ml), "pa_threaded_mainloop_start", context: nil) } catch {
            pa_threaded_mainloop_free(ml)
            throw error
        }
        pa_threaded_mainloop_lock(ml)
        connect()
        while link == .connecting { pa_threaded_mainloop_wait(ml) }
        let ok = link == .ready
        let reason = lastError
        let waiting = !ok && options.startWithoutServer
        if waiting {
            // Down from the start: one line now, one more when the server answers.
            link = .down
            outage = true
            teardown()
        } else if !ok {
            link = .closed
            teardown()
        }
        pa_threaded_mainloop_unlock(ml)
        // On failure deinit stops and frees the mainloop.
        guard ok || waiting else {
            throw FeedbackError.pulse(call: "pa_context_connect", reason: reason)
        }
        if waiting {
            log(.serverMissing(reason: reason, fallback: fallback.kind, retrySeconds: options.retryInterval))
        }
        startRetryTimer()
    }

    deinit {
        shutDown()
        pa_threaded_mainloop_free(mainloop)
    }

    /// True while the stream to the server is up.
    public var isConnected: Bool { locked { link == .ready } }

    public var isBusy: Bool { locked { link == .ready ? pending.queued > 0 : fallback.isBusy } }

    public func startProgram(_ samples: [Float], interrupt: Bool) -> ProgramHandle {
        locked {
            nextId += 1
            guard link == .ready, let stream else {
                let handle = fallback.startProgram(samples, interrupt: interrupt)
                fallbackPrograms[nextId] = handle
                let marker = stamp(SampleMarker(id: nextId, position: handle.start), now: Monotonic.now())
                return ProgramHandle(id: nextId, start: handle.start, firstSample: marker)
            }
            // Queued silence (and, when interrupting, older feedback) is dropped so this is heard at once.
            let onlySilenceQueued = pending.queued == 0 && pending.audibleUntil <= pending.written - Int64(chunkBytes / 2)
            if interrupt || onlySilenceQueued {
                pending.clear()
                checked { try check.operation(pa_stream_flush(stream, nil, nil), "pa_stream_flush", context: context) }
            }
            let start = pending.end
            let marker = SampleMarker(id: nextId, position: start)
            pending.watch(marker)
            pending.mix(samples, at: start)
            if samples.isEmpty {
                holdSince = Monotonic.now()  // speech follows in a moment: don't pad with silence meanwhile
            } else {
                holdSince = nil
                if start == pending.written { write(bytes: chunkBytes) }
            }
            return ProgramHandle(id: nextId, start: start, firstSample: marker)
        }
    }

    public func mix(_ samples: [Float], into program: ProgramHandle, offset: Int) -> SampleMarker {
        locked {
            nextId += 1
            if let handle = fallbackPrograms[program.id] {
                _ = fallback.mix(samples, into: handle, offset: offset)
                return stamp(SampleMarker(id: nextId, position: handle.start + Int64(offset)), now: Monotonic.now())
            }
            let position = max(program.start + Int64(offset), pending.written)
            let marker = SampleMarker(id: nextId, position: position)
            guard link == .ready else { return marker }
            pending.watch(marker)
            pending.mix(samples, at: position)
            if holdSince != nil || position == pending.written {
                holdSince = nil
                write(bytes: chunkBytes)
            }
            return marker
        }
    }

    public func writeTime(of marker: SampleMarker) -> UInt64? { locked { times[marker.id] } }

    public func latency() -> Double? {
        locked {
            guard link == .ready, let stream else { return nil }
            var usec: pa_usec_t = 0
            var negative: Int32 = 0
            // Not a notice: before the first timing update this fails with PA_ERR_NODATA by design.
            guard (try? check.status(pa_stream_get_latency(stream, &usec, &negative), "pa_stream_get_latency", context: context)) != nil
            else { return nil }
            return negative != 0 ? 0 : Double(usec) / 1_000_000
        }
    }

    public func close() throws { shutDown() }

    // MARK: - connection (mainloop lock held)

    private func connect() {
        lastError = ""
        guard let ctx = pa_context_new(api, "steppie") else {
            link = .down; lastError = "pa_context_new failed"; return
        }
        context = ctx
        pa_context_set_state_callback(ctx, { ctx, userdata in
            guard let ctx, let userdata else { return }
            Unmanaged<PulseOutput>.fromOpaque(userdata).takeUnretainedValue().contextChanged(ctx)
        }, Unmanaged.passUnretained(self).toOpaque())
        link = .connecting
        let result = withOptionalCString(options.server) { server in
            pa_context_connect(ctx, server, PA_CONTEXT_NOAUTOSPAWN, nil)
        }
        // A failed connection is the outage the server notices tell (missing, lost), with this reason.
        do { try check.status(result, "pa_context_connect", context: ctx) } catch { linkLost(ctx, reason: error.reason) }
    }

    private func contextChanged(_ ctx: OpaquePointer) {
        guard ctx == context else { return }
        let state = pa_context_get_state(ctx)
        if state == PA_CONTEXT_READY {
            openStream(ctx)
        } else if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
            linkLost(ctx, reason: PulseCheck.reason(code: nil, context: ctx))
        }
        pa_threaded_mainloop_signal(mainloop, 0)
    }

    private func openStream(_ ctx: OpaquePointer) {
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(SampleFormat.rate), channels: 1)
        guard let s = pa_stream_new(ctx, "steppie feedback", &spec, nil) else {
            linkLost(ctx, reason: "pa_stream_new: " + PulseCheck.reason(code: nil, context: ctx)); return
        }
        stream = s
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_stream_set_state_callback(s, { s, userdata in
            guard let s, let userdata else { return }
            Unmanaged<PulseOutput>.fromOpaque(userdata).takeUnretainedValue().streamChanged(s)
        }, me)
        pa_stream_set_write_callback(s, { s, nbytes, userdata in
            guard let s, let userdata else { return }
            let output = Unmanaged<PulseOutput>.fromOpaque(userdata).takeUnretainedValue()
            guard s == output.stream else { return }
            output.writeRequested(nbytes)
        }, me)
        let t = UInt32(chunkBytes)
        var attr = pa_buffer_attr(maxlength: UInt32.max, tlength: t, prebuf: UInt32.max,
                                  minreq: max(2, t / 4), fragsize: UInt32.max)
        let flags = pa_stream_flags_t(rawValue: PA_STREAM_ADJUST_LATENCY.rawValue
            | PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue)
        let result = withOptionalCString(options.sink) { sink in
            pa_stream_connect_playback(s, sink, &attr, flags, nil, nil)
        }
        do { try check.status(result, "pa_stream_connect_playback", context: ctx) } catch {
            linkLost(ctx, reason: "pa_stream_connect_playback: " + error.reason)
        }
    }

    private func streamChanged(_ s: OpaquePointer) {
        guard s == stream, let ctx = context else { return }
        let state = pa_stream_get_state(s)
        if state == PA_STREAM_READY {
            link = .ready
            pending.clear()
            reportedFailures.removeAll()   // a new stream: its failures are worth a line again
            if outage { log(.serverBack) }
            outage = false
            everReady = true
        } else if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED {
            linkLost(ctx, reason: PulseCheck.reason(code: nil, context: ctx))
        }
        pa_threaded_mainloop_signal(mainloop, 0)
    }

    private func linkLost(_ ctx: OpaquePointer, reason: String) {
        guard link != .down, link != .closed else { return }
        let wasReady = link == .ready
        link = .down
        lastError = reason
        pending.clear()
        if wasReady && !outage {
            outage = true
            log(.serverLost(reason: reason, fallback: fallback.kind, retrySeconds: options.retryInterval))
        }
    }

    private func teardown() {
        if let s = stream {
            pa_stream_set_state_callback(s, nil, nil)
            pa_stream_set_write_callback(s, nil, nil)
            if pa_stream_get_state(s) == PA_STREAM_READY {
                checked { try check.status(pa_stream_disconnect(s), "pa_stream_disconnect", context: context) }
            }
            pa_stream_unref(s)
            stream = nil
        }
        if let ctx = context {
            pa_context_set_state_callback(ctx, nil, nil)
            pa_context_disconnect(ctx)
            pa_context_unref(ctx)
            context = nil
        }
    }

    private func startRetryTimer() {
        let timer = DispatchSource.makeTimerSource(queue: retryQueue)
        let interval = max(0.05, options.retryInterval)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.locked {
                guard self.link == .down, !self.finished else { return }
                self.teardown()
                self.connect()
            }
        }
        locked { self.timer = timer }
        timer.resume()
    }

    /// Stops the stream and the mainloop thread; the mainloop itself is freed in deinit, so late
    /// calls (and a retry timer that already fired) still find a valid lock.
    private func shutDown() {
        let alreadyClosed: Bool = locked {
            let was = finished
            finished = true
            timer?.cancel()
            timer = nil
            link = .closed
            teardown()
            return was
        }
        guard !alreadyClosed else { return }
        pa_threaded_mainloop_stop(mainloop)
    }

    // MARK: - writing (mainloop lock held)

    private func writeRequested(_ nbytes: Int) {
        if let since = holdSince {
            // Waiting briefly for speech that will start the program; give up after 100 ms.
            if Monotonic.now() - since < 100_000_000 { return }
            holdSince = nil
        }
        write(bytes: nbytes)
    }

    private func write(bytes: Int) {
        guard let stream, link == .ready, bytes >= 2 else { return }
        let (samples, covered) = pending.take(bytes / 2)
        let result = samples.withUnsafeBytes { raw in
            pa_stream_write(stream, raw.baseAddress, raw.count, nil, 0, PA_SEEK_RELATIVE)
        }
        let now = Monotonic.now()
        // A chunk that was not written is lost (its markers get no write time); the next one is tried.
        guard checked({ try check.status(result, "pa_stream_write", context: context) }) else { return }
        for marker in covered { _ = stamp(marker, now: now) }
    }

    private func stamp(_ marker: SampleMarker, now: UInt64) -> SampleMarker {
        times[marker.id] = now
        if times.count > 8192, let oldest = times.keys.min() { times[oldest] = nil }
        if fallbackPrograms.count > 64, let oldest = fallbackPrograms.keys.min() { fallbackPrograms[oldest] = nil }
        return marker
    }

    /// Runs a libpulse check; a failure is told once per call (until the next stream) and never
    /// stops feedback. Returns whether the call succeeded.
    @discardableResult
    private func checked(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return true
        } catch {
            // PulseCheck throws only FeedbackError.pulse; say anything else the same way.
            let (call, reason) = if case FeedbackError.pulse(let call, let reason) = error { (call, reason) } else { ("libpulse", "\(error)") }
            if reportedFailures.insert(call).inserted { log(.audioFailed(call: call, reason: reason)) }
            return false
        }
    }

    /// Test seam: makes the named calls fail with the given negative libpulse codes from now on.
    func injectFailures(_ calls: [String: Int32]) {
        locked { check.injected = calls }
    }

    private func locked<T>(_ body: () -> T) -> T {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return body()
    }
}

private func withOptionalCString<T>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let s else { return body(nil) }
    return s.withCString { body($0) }
}

