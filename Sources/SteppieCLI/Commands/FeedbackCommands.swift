import Foundation
import SteppieFiles
import SteppieCore
import SteppieFeedback
import SteppieStore

/// `steppie say`, `feedback preview|profiles|tune`: hear and inspect the feedback engine.
enum FeedbackCommands {
    /// Speaks text literally (never as markup) with espeak-ng.
    static func say(_ c: Context) throws -> Int32 {
        let text = c.invocation.arguments("TEXT").joined(separator: " ")
        if c.invocation.flag("--print-spoken") {
            // What espeak-ng is handed, for testers to read what will be heard; nothing is played.
            c.console.print(SpeechText.spoken(text, locale: c.text.locale))
            return 0
        }
        let rate = try number(c, "--rate", in: Validator.ttsRateRange, default: 1.0)
        let volume = try number(c, "--volume", in: Validator.ttsVolumeRange, default: 1.0)
        if c.invocation.value("--out") == nil, c.invocation.value("--output") == nil,
           let status = try ServiceCommands.say(c, text: text, rate: rate, volume: volume) {
            return status
        }
        let out = c.invocation.value("--out")
        // The closing line's catalog is read on the other core while espeak-ng speaks.
        if out != nil { c.text.prefetch("cli.feedback.wrote") }
        let samples = try SpeechSynthesizer.shared.speak(text: text, locale: c.text.locale, rate: rate, volume: volume)
        if let out {
            try SoundFile.writeWAV(samples, to: out)
            c.console.print(c.text("cli.feedback.wrote", ["path": out, "seconds": seconds(samples.count)]))
            return 0
        }
        let (engine, note) = try c.feedbackEngine(defaultWav: c.defaultWavName("say"))
        if let note { c.console.error(c.text("cli.feedback.outputNote", ["note": ErrorText.notice(note, c.text)])) }
        let program = engine.output.startProgram([], interrupt: true)
        _ = engine.output.mix(samples.map { Float($0) / 32768 }, into: program, offset: 0)
        try engine.drain()
        try engine.output.close()
        return 0
    }

    /// Renders one event at one intensity (the child's own, or the one asked for).
    static func preview(_ c: Context) throws -> Int32 {
        var profile = try profileForPreview(c)
        if let i = c.invocation.value("--intensity").flatMap(FeedbackIntensity.init(rawValue:)) { profile.intensity = i }
        let event = FeedbackEvent(rawValue: eventName(c.invocation.value("--event") ?? "completed")) ?? .completed
        let feedback = EffectiveFeedback(profile: profile)
        let locale = profile.locale ?? c.text.locale
        let cue = Cue.make(event, context: sampleContext(c, locale: locale), feedback: feedback)
        if let out = c.invocation.value("--out") {
            let engine = FeedbackEngine(output: NullOutput(), sounds: try c.soundLibrary(), render: try c.speechRenderer())
            let rendered = try engine.renderToBuffer(cue, feedback: feedback, locale: locale)
            try SoundFile.writeWAV(rendered.int16, to: out)
            c.console.print(c.text("cli.feedback.wrote", ["path": out, "seconds": String(format: "%.2f", rendered.duration)]))
            if let spoken = rendered.spokenText { c.console.print("  “\(spoken)”") }
            return 0
        }
        // Heard on the device's stream when a service runs on this database (`--output pulse` or none).
        if c.invocation.value("--output") ?? "pulse" == "pulse",
           let status = try ServiceCommands.preview(c, event: event.rawValue, intensity: c.invocation.value("--intensity")) {
            return status
        }
        let (engine, note) = try c.feedbackEngine(defaultWav: c.defaultWavName("preview"))
        if let note { c.console.error(c.text("cli.feedback.outputNote", ["note": ErrorText.notice(note, c.text)])) }
        let report = try engine.play(cue, feedback: feedback, locale: locale)
        if let spoken = report.spokenText { c.console.print("  “\(spoken)”") }
        try engine.drain()
        try engine.output.close()
        return 0
    }

    /// The intensity table with the child's own settings on top.
    static func profiles(_ c: Context) throws -> Int32 {
        let child = try c.child()
        let rows = FeedbackIntensity.allCases.sorted(by: >).map { intensity in
            var p = child.profile
            p.intensity = intensity
            return ProfileRow(EffectiveFeedback(profile: p), current: intensity == child.profile.intensity)
        }
        if c.json {
            try c.printJSON(ProfilesJSON(child: child.displayName, profiles: rows))
            return 0
        }
        c.console.print(c.text("cli.feedback.profilesHeader", ["child": child.displayName]))
        for r in rows {
            let mark = r.current ? "▶" : " "
            let speech = r.speech ? String(format: "%@ vol %.2f rate %.2f", r.verbosity, r.speechVolume, r.speechRate) : "-"
            let sound = r.sound == SoundStyle.none.rawValue ? "-" : String(format: "%@ gain %.2f", r.sound, r.soundGain)
            let haptic = r.haptic ? String(format: "%.2f", r.hapticGain) : "-"
            c.console.print("\(mark) \(c.text("feedback.intensity.\(r.intensity)"))  \(c.text("cli.feedback.speech")) \(speech)  "
                            + "\(c.text("cli.feedback.sound")) \(sound)  \(c.text("cli.feedback.haptic")) \(haptic)  "
                            + String(format: "cap %.2f", r.volumeCap))
        }
        return 0
    }

    /// Lets a guardian hear the same event at every intensity and keep one.
    static func tune(_ c: Context) throws -> Int32 {
        let store = try c.store()
        let child = try c.child()
        let event = FeedbackEvent(rawValue: eventName(c.invocation.value("--event") ?? "completed")) ?? .completed
        let locale = child.profile.locale ?? c.text.locale
        let outDir = c.invocation.value("--out-dir")
        let engine: FeedbackEngine
        var note: FeedbackNotice?
        if outDir != nil {
            engine = FeedbackEngine(output: NullOutput(), sounds: try c.soundLibrary(), render: try c.speechRenderer())
        } else {
            (engine, note) = try c.feedbackEngine(defaultWav: c.defaultWavName("tune"))
        }
        if let note { c.console.error(c.text("cli.feedback.outputNote", ["note": ErrorText.notice(note, c.text)])) }
        for intensity in FeedbackIntensity.allCases.sorted(by: >) {
            var p = child.profile
            p.intensity = intensity
            let feedback = EffectiveFeedback(profile: p)
            let cue = Cue.make(event, context: sampleContext(c, locale: locale), feedback: feedback)
            let name = c.text("feedback.intensity.\(intensity.rawValue)")
            if let outDir {
                let path = URL(fileURLWithPath: outDir).appendingPathComponent("\(event.rawValue)-\(intensity.rawValue).wav").path
                try OwnerOnly.createDirectories(outDir)
                let rendered = try engine.renderToBuffer(cue, feedback: feedback, locale: locale)
                try SoundFile.writeWAV(rendered.int16, to: path)
                c.console.print("  \(name): \(path)")
            } else {
                c.console.print("  ▶ \(name)")
                try engine.play(cue, feedback: feedback, locale: locale)
                try engine.drain()
            }
        }
        if outDir == nil { try engine.output.close() }
        guard let keepText = c.invocation.value("--keep") ?? askIntensity(c) else {
            c.console.print(c.text("cli.feedback.kept", ["intensity": c.text("feedback.intensity.\(child.profile.intensity.rawValue)")]))
            return 0
        }
        guard let keep = FeedbackIntensity(rawValue: keepText) else {
            throw UsageError.invalidChoice(option: "--keep", value: keepText, choices: FeedbackIntensity.allCases.map(\.rawValue))
        }
        try GuardianAccess.requireUnlocked(c)
        var patch = ProfilePatch()
        patch.intensity = keep
        try store.updateProfile(childId: child.id, patch, at: c.now)
        c.console.print(c.text("cli.feedback.kept", ["intensity": c.text("feedback.intensity.\(keep.rawValue)")]))
        return 0
    }

    /// On a terminal, asks which intensity to keep (Enter keeps the current one).
    static func askIntensity(_ c: Context) -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        c.console.write(c.text("cli.feedback.askKeep") + " ")
        guard let line = c.env.readLine()?.trimmingCharacters(in: .whitespaces), !line.isEmpty else { return nil }
        return line.lowercased()
    }

    static func profileForPreview(_ c: Context) throws -> FeedbackProfile {
        if c.invocation.value("--child") == nil, (try? c.store().children().isEmpty) ?? true { return FeedbackProfile() }
        return try c.child().profile
    }

    static func sampleContext(_ c: Context, locale: String) -> CueContext {
        let title = Template.morning.items[2].title.resolve(chosen: locale, system: nil)
        return CueContext(routineTitle: title, minutes: 5, time: "07:30", completed: 3, total: 6)
    }

    /// `all-done` on the command line, `allDone` inside.
    static func eventName(_ s: String) -> String { s == "all-done" ? "allDone" : s }

    static func number(_ c: Context, _ option: String, in range: ClosedRange<Double>, default value: Double) throws -> Double {
        guard let text = c.invocation.value(option) else { return value }
        guard let v = Double(text), v.isFinite else {
            throw UsageError.invalidValue(option: option, value: text, expected: "a number \(range.lowerBound)…\(range.upperBound)")
        }
        guard range.contains(v) else {
            throw ContractViolation(field: option == "--rate" ? "ttsRate" : "ttsVolume", value: text,
                                    allowed: "\(range.lowerBound)…\(range.upperBound)")
        }
        return v
    }

    static func seconds(_ samples: Int) -> String { String(format: "%.2f", Double(samples) / Double(SpeechSynthesizer.sampleRate)) }
}

extension FeedbackCommands {
    /// One intensity's effective feedback in `feedback profiles` (and its `--json`).
    struct ProfileRow: Encodable {
        let intensity: String
        let speech: Bool
        let verbosity: String
        let speechVolume: Double
        let speechRate: Double
        let sound: String
        let soundGain: Double
        let haptic: Bool
        let hapticGain: Double
        let volumeCap: Double
        let current: Bool

        init(_ f: EffectiveFeedback, current: Bool) {
            intensity = f.intensity.rawValue
            speech = f.speech
            verbosity = f.verbosity.rawValue
            speechVolume = f.speechVolume
            speechRate = f.speechRate
            sound = f.soundStyle.rawValue
            soundGain = f.soundGain
            haptic = f.haptic != nil
            hapticGain = f.hapticGain
            volumeCap = f.volumeCap
            self.current = current
        }
    }

    struct ProfilesJSON: Encodable {
        let child: String
        let profiles: [ProfileRow]
    }
}
