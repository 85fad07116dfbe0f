/// Per-event data of the cue timeline: which sound each style uses, where speech starts, haptics or not.
struct CueTable {
    struct Row {
        var sounds: [SoundStyle: SoundName]
        /// Seconds after the press at which speech starts, per sound style (when a sound plays).
        var speechOffset: [SoundStyle: Double]
        var haptic: Bool
    }

    static func row(_ event: FeedbackEvent) -> Row {
        switch event {
        case .completed:
            Row(sounds: [.full: .chimeDouble, .single: .chime, .soft: .tick],
                speechOffset: [.full: 0.35, .single: 0.3, .soft: 0.12], haptic: true)
        case .undone:
            Row(sounds: [.full: .undo, .single: .undo, .soft: .tick],
                speechOffset: [.full: 0.3, .single: 0.3, .soft: 0.12], haptic: true)
        case .allDone:
            Row(sounds: [.full: .allDone, .single: .allDone, .soft: .tick],
                speechOffset: [.full: 0.9, .single: 0.9, .soft: 0.12], haptic: true)
        case .reminder:
            Row(sounds: [.full: .reminder, .single: .reminder, .soft: .tick],
                speechOffset: [.full: 0.45, .single: 0.45, .soft: 0.12], haptic: false)
        case .error:
            Row(sounds: [.full: .error, .single: .error, .soft: .tick],
                speechOffset: [.full: 0.3, .single: 0.3, .soft: 0.12], haptic: false)
        case .announce, .next, .setStartsAt:
            Row(sounds: [:], speechOffset: [:], haptic: false)
        }
    }
}
