import SteppieLocalization
import Testing
import SteppieCore
@testable import SteppieFeedback

@Suite struct CueTests {
    @Test(arguments: [
        (FeedbackIntensity.strong, SoundName.chimeDouble, 1.0),
        (.normal, .chime, 0.7),
        (.quiet, .tick, 0.35),
    ])
    func completedCuePerIntensity(intensity: FeedbackIntensity, sound: SoundName, gain: Double) {
        let cue = Cue.make(.completed, context: CueContext(routineTitle: "Brush teeth", completed: 2, total: 5),
                           feedback: Fixture.feedback(intensity))
        #expect(cue.sounds == [SoundPlacement(name: sound, gain: gain, offset: 0)])
        #expect(cue.speech?.key == (intensity == .quiet ? "tts.completed.short" : "tts.completed"))
        #expect(cue.speech?.args == ["routineTitle": "Brush teeth", "completed": "2", "total": "5"])
        #expect(cue.speech?.priority == .message)
        #expect(cue.priority == .message)
    }

    @Test func offIsSilent() {
        for event in FeedbackEvent.allCases {
            #expect(Cue.make(event, feedback: Fixture.feedback(.off)).isSilent)
        }
    }

    @Test func hapticsFollowPreset() {
        #expect(Cue.make(.completed, feedback: Fixture.feedback(.strong)).haptic == .medium)
        #expect(Cue.make(.completed, feedback: Fixture.feedback(.normal)).haptic == .light)
        #expect(Cue.make(.completed, feedback: Fixture.feedback(.quiet)).haptic == nil)
        #expect(Cue.make(.announce, feedback: Fixture.feedback(.strong)).haptic == nil)
    }

    @Test func speechStartsAtPressWithoutSound() {
        var p = FeedbackProfile()
        p.soundEnabled = false
        let cue = Cue.make(.completed, feedback: EffectiveFeedback(profile: p))
        #expect(cue.sounds.isEmpty && cue.speech?.offset == 0)
        let announce = Cue.make(.announce, context: CueContext(routineTitle: "Eat"), feedback: Fixture.feedback(.strong))
        #expect(announce.speech == SpeechPart(key: "tts.announce", values: ["routineTitle": .text("Eat")], priority: .text, offset: 0))
    }

    @Test func reminderAndSetStartsAtArguments() {
        let r = Cue.make(.reminder, context: CueContext(routineTitle: "Breakfast", minutes: 5), feedback: Fixture.feedback(.normal))
        #expect(r.speech?.args == ["routineTitle": "Breakfast", "minutes": "5", "count": "5"])   // count picks the plural form
        #expect(r.priority == .notification)
        let s = Cue.make(.setStartsAt, context: CueContext(time: "07:30"), feedback: Fixture.feedback(.quiet))
        #expect(s.speech?.key == "tts.setStartsAt.short" && s.speech?.args == ["time": "07:30"])
    }

    @Test func prioritiesDecide() {
        typealias D = PlaybackDecision
        #expect(D.decide(playing: nil, new: .notification) == .interrupt)
        #expect(D.decide(playing: .text, new: .message) == .interrupt)      // completion beats announcement
        #expect(D.decide(playing: .message, new: .message) == .interrupt)   // newer wins
        #expect(D.decide(playing: .notification, new: .text) == .interrupt) // announcement beats reminder
        #expect(D.decide(playing: .message, new: .notification) == .wait)   // reminder never cuts a completion
        #expect(D.decide(playing: .message, new: .text) == .wait)
    }
}
