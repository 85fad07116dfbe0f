/// Everything that can go wrong in the feedback engine, as comparable values with reasons.
public enum FeedbackError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An espeak-ng call failed.
    case speech(call: String, code: Int32)
    /// A sound file could not be read.
    case soundFile(path: String, reason: String)
    /// A sound effect is missing from the library.
    case missingSound(name: String, directory: String)
    /// A WAV file could not be written.
    case wavFile(path: String, reason: String)
    /// A libpulse call failed or the server did not answer.
    case pulse(call: String, reason: String)
    /// The force-feedback device could not be used.
    case hapticDevice(path: String, reason: String)
    /// The device exists but has no FF_RUMBLE support.
    case noRumble(path: String)
    /// The haptic event log could not be written.
    case hapticLog(path: String, reason: String)

    /// The reason part of a failure, for notices that say it in their own sentence.
    public var reason: String {
        switch self {
        case let .pulse(_, reason), let .soundFile(_, reason), let .wavFile(_, reason), let .hapticDevice(_, reason),
             let .hapticLog(_, reason): reason
        default: description
        }
    }

    public var description: String {
        switch self {
        case let .speech(call, code):
            "speech synthesis failed: \(call) returned \(code); check that espeak-ng data is installed"
        case let .soundFile(path, reason): "cannot read sound \(path): \(reason)"
        case let .missingSound(name, dir):
            "sound effect \(name).wav is missing in \(dir); run scripts/make-sounds.py"
        case let .wavFile(path, reason): "cannot write WAV file \(path): \(reason)"
        case let .pulse(call, reason): "PulseAudio: \(call) failed: \(reason)"
        case let .hapticDevice(path, reason): "haptic device \(path): \(reason)"
        case let .noRumble(path):
            "haptic device \(path) has no force-feedback rumble (FF_RUMBLE); choose another event device or leave it unset"
        case let .hapticLog(path, reason): "cannot write haptic log \(path): \(reason)"
        }
    }
}
