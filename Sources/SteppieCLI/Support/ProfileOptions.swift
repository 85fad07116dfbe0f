import SteppieCore

/// Applies `steppie profile set` options to a feedback profile. The parser has already refused
/// values outside the ranges the command tree declares (exit 64, `AllowedValues`); what is left
/// to the contract (a voice name, the whole profile) throws `ContractViolation` (exit 1).
struct ProfileOptions {
    let invocation: Invocation

    /// True when at least one profile option was given.
    var isEmpty: Bool { ProfileOptions.names.allSatisfy { invocation.value($0) == nil } }

    static let names = ["--intensity", "--sound", "--speech", "--haptic", "--tts-rate", "--tts-volume", "--volume-cap",
                        "--pitch", "--voice", "--undo", "--lead-times", "--quiet-hours", "--child-locale"]

    /// `profile` with every given option applied and checked.
    func apply(to profile: FeedbackProfile) throws -> FeedbackProfile {
        var p = profile
        if let v = invocation.value("--intensity").flatMap(FeedbackIntensity.init(rawValue:)) { p.intensity = v }
        if let v = invocation.value("--sound") { p.soundEnabled = v == "on" }
        if let v = invocation.value("--speech") { p.ttsEnabled = v == "on" }
        if let v = invocation.value("--haptic") { p.hapticEnabled = v == "on" }
        if let v = try number("--tts-rate") { try Validator.ttsRate(v); p.ttsRate = v }
        if let v = try number("--tts-volume") { try Validator.ttsVolume(v); p.ttsVolume = v }
        if let v = try number("--volume-cap") { try Validator.volumeCap(v); p.volumeCap = v }
        if let v = try integer("--pitch", invocation.value("--pitch")) { try Validator.pitch(v); p.pitch = v }
        if let v = invocation.value("--voice") {
            if v == "default" { p.voiceVariant = nil } else { try Validator.voiceVariant(v); p.voiceVariant = v }
        }
        if let v = try integer("--undo", invocation.value("--undo")) { try Validator.undoDuration(v); p.undoDurationSeconds = v }
        if let v = invocation.value("--lead-times") {
            let minutes = v == "none" ? [] : try v.split(separator: ",", omittingEmptySubsequences: false)
                .map { try integer("--lead-times", String($0).trimmingCharacters(in: .whitespaces)) ?? 0 }
            try Validator.leadTimes(minutes)
            p.notificationLeadTimes = minutes
        }
        if let v = invocation.value("--quiet-hours") { try quietHours(v, into: &p) }
        if let v = invocation.value("--child-locale") { p.locale = v == "system" ? nil : v }
        try Validator.profile(p)
        return p
    }

    private func number(_ option: String) throws -> Double? {
        guard let text = invocation.value(option) else { return nil }
        guard let v = Double(text), v.isFinite else {
            throw UsageError.invalidValue(option: option, value: text, expected: "a number such as 1.0")
        }
        return v
    }

    private func integer(_ option: String, _ text: String?) throws -> Int? {
        guard let text else { return nil }
        guard let v = Int(text) else { throw UsageError.invalidValue(option: option, value: text, expected: "a whole number") }
        return v
    }

    private func quietHours(_ text: String, into p: inout FeedbackProfile) throws {
        if text == "none" {
            p.quietHoursStart = nil
            p.quietHoursEnd = nil
            return
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else {
            throw ContractViolation(field: "quietHours", value: Validator.printable(text), allowed: "HH:mm-HH:mm (two different times) or none",
                                    allowedKey: "contract.allowed.quietHoursText")
        }
        let start = try Validator.parseTime(parts[0], field: "quietHours")
        let end = try Validator.parseTime(parts[1], field: "quietHours")
        try Validator.quietHours(start: start, end: end)
        p.quietHoursStart = start
        p.quietHoursEnd = end
    }
}
