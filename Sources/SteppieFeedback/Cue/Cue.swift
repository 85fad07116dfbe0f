import SteppieCore
import SteppieLocalization

/// The names of the project's own sound effects (`Sounds/<rawValue>.wav`).
public enum SoundName: String, Sendable, Codable, CaseIterable {
    case chimeDouble = "chime-double"
    case chime
    case tick
    case undo
    case allDone = "all-done"
    case reminder
    case error
}

/// A sound effect placed on a cue's timeline.
public struct SoundPlacement: Hashable, Sendable {
    public var name: SoundName
    /// Linear gain.
    public var gain: Double
    /// Seconds after the press.
    public var offset: Double

    public init(name: SoundName, gain: Double, offset: Double) {
        self.name = name; self.gain = gain; self.offset = offset
    }
}

/// The spoken part of a cue: a catalog key and its typed arguments, said in the child's locale.
public struct SpeechPart: Hashable, Sendable {
    public var key: String
    /// Typed so that speech says a time, a date or a count the way people do (`SpokenForms`).
    public var values: [String: MessageValue]
    public var priority: SpeechPriority
    /// Seconds after the press.
    public var offset: Double
    /// A recording that speaks one of `args` instead of the synthesizer, nil for all-synthesized speech.
    public var recording: PrerecordedSpeech?

    public init(key: String, values: [String: MessageValue], priority: SpeechPriority, offset: Double,
                recording: PrerecordedSpeech? = nil) {
        self.key = key; self.values = values; self.priority = priority; self.offset = offset
        self.recording = recording
    }

    /// The written form of every argument (as on screen).
    public var args: [String: String] { values.written }
}

/// The feedback of one event: a short timeline of sound effect, haptic pattern and speech.
public struct Cue: Equatable, Sendable {
    public var event: FeedbackEvent
    public var sounds: [SoundPlacement]
    /// Starts with the press.
    public var haptic: HapticPattern?
    public var hapticGain: Double
    public var speech: SpeechPart?
    public var priority: SpeechPriority

    public init(event: FeedbackEvent, sounds: [SoundPlacement], haptic: HapticPattern?, hapticGain: Double = 1,
                speech: SpeechPart?, priority: SpeechPriority) {
        self.event = event; self.sounds = sounds; self.haptic = haptic; self.hapticGain = hapticGain
        self.speech = speech; self.priority = priority
    }

    /// True when the cue has nothing to play (intensity off, everything disabled).
    public var isSilent: Bool { sounds.isEmpty && haptic == nil && speech == nil }

    /// Builds the cue of `event` for a child's effective feedback.
    public static func make(_ event: FeedbackEvent, context: CueContext = CueContext(),
                            feedback: EffectiveFeedback) -> Cue {
        let row = CueTable.row(event)
        var sounds: [SoundPlacement] = []
        if feedback.soundGain > 0, let name = row.sounds[feedback.soundStyle] {
            sounds.append(SoundPlacement(name: name, gain: feedback.soundGain, offset: 0))
        }
        let haptic = row.haptic ? feedback.haptic : nil
        var speech: SpeechPart?
        if feedback.speech && feedback.speechVolume > 0 {
            // With no sound in front of it, speech starts with the press.
            let offset = sounds.isEmpty ? 0 : row.speechOffset[feedback.soundStyle] ?? 0
            speech = SpeechPart(key: event.speechKey(feedback.verbosity), values: context.values,
                                priority: event.priority, offset: offset)
        }
        return Cue(event: event, sounds: sounds, haptic: haptic, hapticGain: feedback.hapticGain,
                   speech: speech, priority: event.priority)
    }
}

/// The facts a cue's sentence may mention; absent values are not passed to the catalog.
public struct CueContext: Equatable, Sendable {
    public var routineTitle: String?
    public var minutes: Int?
    /// Local time `HH:mm` (setStartsAt).
    public var time: String?
    public var completed: Int?
    public var total: Int?

    public init(routineTitle: String? = nil, minutes: Int? = nil, time: String? = nil,
                completed: Int? = nil, total: Int? = nil) {
        self.routineTitle = routineTitle; self.minutes = minutes; self.time = time
        self.completed = completed; self.total = total
    }

    /// The typed catalog arguments (`routineTitle`, `minutes`, `time`, `completed`, `total`).
    public var values: [String: MessageValue] {
        var a: [String: MessageValue] = [:]
        if let routineTitle { a["routineTitle"] = .text(routineTitle) }
        if let minutes {
            a["minutes"] = .count(minutes)
            a["count"] = .count(minutes)   // plural forms are chosen by `count`
        }
        // `time` is `HH:mm` by contract; anything else is said as the text it is.
        if let time { a["time"] = LocalTime(time).map(MessageValue.time) ?? .text(time) }
        if let completed { a["completed"] = .count(completed) }
        if let total { a["total"] = .count(total) }
        return a
    }

    /// The named catalog arguments in their written form.
    public var arguments: [String: String] { values.written }
}
