/// A guardian's recording that speaks one argument of a cue's sentence (normally `routineTitle`).
///
/// The engine splits the rendered sentence at the argument's value: the text before it and the
/// text after it (a Korean particle, the rest of the sentence) are synthesized, and the recording
/// is played in between, so "이제 [recording] 시간이에요." keeps the catalog's sentence around the
/// child's own title.
public struct PrerecordedSpeech: Hashable, Sendable {
    /// The catalog argument the recording replaces.
    public var argument: String
    /// 22050 Hz mono float samples, peak-normalized to 1 (the engine applies the speech level and volume).
    public var samples: [Float]

    public init(argument: String = "routineTitle", samples: [Float]) {
        self.argument = argument
        self.samples = samples
    }

    /// Seconds of audio.
    public var duration: Double { Double(samples.count) / Double(SampleFormat.rate) }

    /// `raw` scaled so its peak is 1, with 5 ms fades at both ends against clicks.
    public static func normalized(_ raw: [Float]) -> [Float] {
        let peak = raw.reduce(Float(0)) { max($0, abs($1)) }
        guard peak > 0 else { return raw }
        var out = raw.map { $0 / peak }
        let fade = min(out.count / 2, SampleFormat.samples(0.005))
        for i in 0..<fade {
            let g = Float(i) / Float(fade)
            out[i] *= g
            out[out.count - 1 - i] *= g
        }
        return out
    }
}
