import CPulse

/// The one checking helper for libpulse return codes: a negative status or a missing operation
/// becomes `FeedbackError.pulse(call:reason:)` with libpulse's own words for the error.
///
/// `injected` is a test seam: a call named there fails with that (negative) code after the real
/// call ran, so the reporting path can be exercised against a real server, where a failing
/// `pa_stream_write` cannot be provoked from outside.
struct PulseCheck: Sendable {
    var injected: [String: Int32] = [:]

    /// Checks a status-returning call (`pa_stream_write`, `pa_context_connect`, …).
    func status(_ result: Int32, _ call: String, context: OpaquePointer?) throws(FeedbackError) {
        let code = injected[call] ?? result
        guard code >= 0 else { throw .pulse(call: call, reason: Self.reason(code: code, context: context)) }
    }

    /// Checks a call that returns an operation (`pa_stream_flush`, `pa_stream_cork`, `pa_stream_drain`)
    /// and releases the operation: nil means libpulse refused to start it.
    func operation(_ op: OpaquePointer?, _ call: String, context: OpaquePointer?) throws(FeedbackError) {
        if let op { pa_operation_unref(op) }
        if let code = injected[call] { throw .pulse(call: call, reason: Self.reason(code: code, context: context)) }
        guard op != nil else { throw .pulse(call: call, reason: Self.reason(code: nil, context: context)) }
    }

    /// libpulse's words for a failure: the context's last error (`pa_context_errno`, set by the
    /// failing call) when it has one, else the returned code.
    static func reason(code: Int32?, context: OpaquePointer?) -> String {
        let errno = context.map { pa_context_errno($0) } ?? 0
        guard let error = errno != 0 ? errno : code else { return "refused without a reason" }
        // pa_strerror reads negative codes as positive and returns NULL past the table.
        guard let text = pa_strerror(error) else { return "unknown error \(error)" }
        return String(cString: text)
    }
}
