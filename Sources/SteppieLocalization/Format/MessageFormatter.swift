/// Substitutes arguments into a ``MessageTemplate``, attaching agreeing Korean particles.
public enum MessageFormatter {
    /// The text of `template` with `args` filled in.
    ///
    /// - `{name}` becomes the argument's value;
    /// - `{name|을를}` becomes the value followed by the particle that agrees with it
    ///   (``KoreanParticles``); a particle text that is not a known ``ParticleForm`` is written
    ///   as it stands, so the checker's warning is the only place it is reported;
    /// - `{name@key}` becomes `counted(key, value)`, the plural entry `key` with `count` = the value
    ///   (``Localizer`` supplies it; without it the bare value is written);
    /// - a placeholder without an argument stays visible in source form (`{routineTitle}`).
    public static func render(_ template: MessageTemplate, args: [String: String],
                              counted: (_ key: String, _ count: String) -> String = { _, count in count }) -> String {
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
            case .counted(let name, let key):
                guard let value = args[name] else {
                    out += "{" + name + "@" + key + "}"
                    continue
                }
                out += counted(key, value)
            }
        }
        return out
    }

    /// The text of `template` as it is to be *said* in `locale`: typed values in their spoken form
    /// (``SpokenForms``: a count read for the Korean counter word after it, times and dates as
    /// people say them, numbers in text values written out). Particles agree with what is said.
    public static func renderSpoken(_ template: MessageTemplate, values: [String: MessageValue], locale: String,
                                    counted: (_ key: String, _ count: MessageValue) -> String = { _, count in count.written }) -> String {
        var out = ""
        for (index, segment) in template.segments.enumerated() {
            switch segment {
            case .literal(let text):
                out += text
            case .placeholder(let name, let particle):
                guard let value = values[name] else {
                    out += "{" + name + (particle.map { "|" + $0 } ?? "") + "}"
                    continue
                }
                var following: Substring = ""
                if particle == nil, index + 1 < template.segments.count, case .literal(let next) = template.segments[index + 1] {
                    following = Substring(next)
                }
                let spoken = SpokenForms.say(value, locale: locale, following: following)
                out += spoken
                if let particle {
                    out += ParticleForm(rawValue: particle).map { KoreanParticles.particle($0, after: spoken) } ?? particle
                }
            case .counted(let name, let key):
                guard let value = values[name] else {
                    out += "{" + name + "@" + key + "}"
                    continue
                }
                out += counted(key, value)
            }
        }
        return out
    }
}
