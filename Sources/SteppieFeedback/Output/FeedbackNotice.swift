import SteppieFiles
import Foundation

/// Something the feedback engine tells its user once (not an error: feedback goes on). A value,
/// so a front end can say it in the user's language; `description` is the English log line.
public enum FeedbackNotice: Equatable, Sendable, CustomStringConvertible {
    /// No server at start; feedback goes to `fallback` and the output keeps trying to connect.
    case serverMissing(reason: String, fallback: OutputKind, retrySeconds: Double)
    /// Automatic output found no server and writes a WAV file instead.
    case writingToFile(path: String, reason: String)
    /// The server went away while playing; feedback goes to `fallback` until it is back.
    case serverLost(reason: String, fallback: OutputKind, retrySeconds: Double)
    /// The server answers again and feedback plays through it.
    case serverBack
    /// A haptic output failed (reported once per device).
    case hapticFailed(reason: String)
    /// A libpulse call failed while the stream was up (reported once per call until the next
    /// stream); the audio of that call is lost, feedback goes on.
    case audioFailed(call: String, reason: String)
    /// espeak-ng failed while synthesizing a sentence in the background (told once per call);
    /// that sentence is silent, the sound effects play, feedback goes on.
    case speechFailed(call: String, code: Int32)

    public var description: String {
        switch self {
        case .serverMissing(let reason, let fallback, let retry):
            "no PulseAudio server answered (\(reason)); feedback continues on the \(fallback.rawValue) output and connects every \(retry) s"
        case .writingToFile(let path, let reason):
            "no PulseAudio server answered (\(reason)); feedback is written to \(path)"
        case .serverLost(let reason, let fallback, let retry):
            "PulseAudio server went away (\(reason)); feedback continues on the \(fallback.rawValue) output and reconnects every \(retry) s"
        case .serverBack:
            "PulseAudio server is back; feedback plays through it again"
        case .hapticFailed(let reason):
            "haptic output failed: \(reason)"
        case .audioFailed(let call, let reason):
            "PulseAudio refused \(call) (\(reason)); some feedback may not be heard, the routine goes on"
        case .speechFailed(let call, let code):
            "speech synthesis failed (\(call), code \(code)); the sound effects play, the routine goes on"
        }
    }
}

/// Where the engine's notices go by default.
public enum FeedbackLog {
    /// Writes each notice to standard error as one line.
    public static let standardError: @Sendable (FeedbackNotice) -> Void = { notice in
        // A closed or full standard error must not stop the engine: the notice is dropped.
        try? Descriptor.writeAll(STDERR_FILENO, "steppie: \(notice)\n", path: "standard error")
    }
}
