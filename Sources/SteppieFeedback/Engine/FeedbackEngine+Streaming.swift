import Foundation

/// The markers of one played cue, filled in as its program starts and its speech is mixed.
struct CueMarkers: Sendable {
    var firstSample: SampleMarker?
    var speech: SampleMarker?
}

/// A sentence being mixed into its program chunk by chunk as espeak-ng synthesizes it.
struct ActiveSpeech: Sendable {
    let ticket: Int
    let program: ProgramHandle
    /// Where the next chunk goes, in samples after the program's start.
    var offset: Int
}

/// A cue that is ready to start: its non-speech part and its speech.
struct WaitingCue: Sendable {
    let ticket: Int
    let effects: [Float]
    let speech: SpeechPlan?
    /// Samples after the program's start where the speech begins.
    let offset: Int
}

/// Speech on a streaming output: synthesis runs on espeak-ng's queue (`SpeechSynthesizer`, its
/// one owner), never under a press; each chunk is mixed as it comes, under the engine's lock, and
/// only while its sentence is still the active one — an interrupting cue replaces `active` and
/// flushes in one critical section, so no chunk of the old sentence is mixed after the flush.
extension FeedbackEngine {
    /// Starts the program of `cue` and its speech (lock held): a cached sentence is mixed whole at
    /// once; any other is handed to espeak-ng's queue and becomes the active sentence.
    func start(_ cue: WaitingCue, interrupt: Bool) -> ProgramHandle {
        let program = output.startProgram(cue.effects, interrupt: interrupt)
        markers[cue.ticket]?.firstSample = program.firstSample
        guard let plan = cue.speech else { return program }
        if let whole = cachedSpeech(plan) {
            if !whole.isEmpty { markers[cue.ticket]?.speech = output.mix(whole, into: program, offset: cue.offset) }
            return program
        }
        active = ActiveSpeech(ticket: cue.ticket, program: program, offset: cue.offset)
        let ticket = cue.ticket
        speech.enqueue { [self] in synthesize(plan, ticket: ticket) }
        return program
    }

    /// Runs on espeak-ng's queue: synthesizes the pieces of `plan` and mixes them in as they come,
    /// until the sentence is whole or cut.
    private func synthesize(_ plan: SpeechPlan, ticket: Int) {
        // Cut before it began (a newer press came while older work was on the queue).
        guard lock.run({ active?.ticket == ticket }) else { return }
        do {
            for piece in plan.pieces {
                let goesOn: Bool
                switch piece {
                case let .synthesized(text, phonemes):
                    goesOn = try speech.stream(text: text, settings: plan.settings, phonemes: phonemes) { chunk in
                        deliver(SampleFormat.toFloat(chunk, gain: plan.gain), ticket: ticket)
                    }
                case let .recorded(samples):
                    goesOn = deliver(samples, ticket: ticket)
                }
                guard goesOn else { return }
            }
            finish(ticket, failure: nil)
        } catch {
            finish(ticket, failure: error)
        }
    }

    /// Mixes one chunk of sentence `ticket` after the previous one; false when that sentence is no
    /// longer the active one (it was cut), which stops espeak-ng.
    private func deliver(_ samples: [Float], ticket: Int) -> Bool {
        lock.run {
            guard var sentence = active, sentence.ticket == ticket else { return false }
            guard !samples.isEmpty else { return true }
            let marker = output.mix(samples, into: sentence.program, offset: sentence.offset)
            if markers[ticket]?.speech == nil { markers[ticket]?.speech = marker }
            // A chunk that came after its place had been played was put at the stream's position; the rest follows it.
            sentence.offset = Int(marker.position - sentence.program.start) + samples.count
            active = sentence
            return true
        }
    }

    /// Sentence `ticket` is whole (or failed): the cues waiting behind it start, appended after it.
    private func finish(_ ticket: Int, failure: (any Error)?) {
        let notice: FeedbackNotice? = lock.run {
            if active?.ticket == ticket {
                active = nil
                while active == nil, !waiting.isEmpty {
                    _ = start(waiting.removeFirst(), interrupt: false)
                }
            }
            guard let failure else { return nil }
            let (call, code) = if case let FeedbackError.speech(call, code) = failure { (call, code) } else { ("espeak-ng", Int32(-1)) }
            // Once per call: a missing voice fails every sentence the same way.
            return reportedSpeechFailures.insert(call).inserted ? .speechFailed(call: call, code: code) : nil
        }
        if let notice { log(notice) }
    }
}
