import SteppieCore

/// `steppie profile set` options as a `ProfilePatch`. The parser has already refused values
/// outside the ranges the command tree declares (exit 64, `AllowedValues`), so this only reads
/// the text; the rules are the patch's (`ProfilePatch.applied`, through the store), the same as
/// for the guardian's feedback page.
struct ProfileOptions {
    let invocation: Invocation

    static let names = ["--intensity", "--sound", "--speech", "--haptic", "--tts-rate", "--tts-volume", "--volume-cap",
                        "--pitch", "--voice", "--undo", "--lead-times", "--quiet-hours", "--child-locale"]

    var patch: ProfilePatch {
        var patch = ProfilePatch()
        let value = invocation.value
        patch.intensity = value("--intensity").flatMap(FeedbackIntensity.init(rawValue:))
        patch.soundEnabled = value("--sound").map { $0 == "on" }
        patch.ttsEnabled = value("--speech").map { $0 == "on" }
        patch.hapticEnabled = value("--haptic").map { $0 == "on" }
        patch.ttsRate = value("--tts-rate").flatMap(Double.init)
        patch.ttsVolume = value("--tts-volume").flatMap(Double.init)
        patch.volumeCap = value("--volume-cap").flatMap(Double.init)
        patch.pitch = value("--pitch").flatMap { Int($0) }
        patch.voiceVariant = value("--voice").map { $0 == "default" ? .clear : .set($0) }
        patch.undoDurationSeconds = value("--undo").flatMap { Int($0) }
        patch.notificationLeadTimes = value("--lead-times").map { text in
            text == "none" ? [] : text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
        patch.quietHours = value("--quiet-hours").flatMap { text -> ProfilePatch.Change<ProfilePatch.QuietHours>? in
            if text == "none" { return .clear }
            let parts = text.split(separator: "-").map(String.init)
            guard parts.count == 2, let start = LocalTime(parts[0]), let end = LocalTime(parts[1]) else { return nil }
            return .set(.init(start: start, end: end))
        }
        patch.locale = value("--child-locale").map { $0 == "system" ? .clear : .set($0) }
        return patch
    }
}
