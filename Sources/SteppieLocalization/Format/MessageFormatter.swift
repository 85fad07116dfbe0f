/// Substitutes arguments into a ``MessageTemplate``, attaching agreeing Korean particles.
public enum MessageFormatter {
    /// The text of `template` with `args` filled in.
    ///
    /// - `{name}` becomes the argument's value;
    /// - `{name|을를}` becomes the value followed by the particle that agrees with it
    ///   (``KoreanParticles``); a particle text that is not a known ``ParticleForm`` is written
    ///   as it stands, so the checker's warning is the only place it is reported;
    /// - a placeholder without an argument stays visible in source form (`{routineTitle}`).
    public static func render(_ template: MessageTemplate, args: [String: String]) -> String {
        var out = ""
        for segment in template.segments {
            switch segment {
            case .literal(let text):
                out += text
            case .placeholder(let name, let particle):
                guard let value = args[name] else {
                    out += "{" + name + (particle.map { "|" + $0 } ?? "") + "}"
                    continue
                }
                out += value
                if let particle {
                    out += ParticleForm(rawValue: particle).map { KoreanParticles.particle($0, after: value) } ?? particle
                }
            }
        }
        return out
    }
}
