/// Start-up work a command line can start before it is even parsed (issue 16).
enum Prewarm {
    /// True when `arguments` surely synthesize speech in this process: `say --out FILE` and
    /// `feedback preview --out FILE` (files are never handed to a service). Help, a malformed line
    /// or anything a running service may take (a `say` to the speaker) is not warmed: espeak-ng
    /// would cost that command memory and a core for nothing.
    static func speaksInProcess(_ arguments: [String]) -> Bool {
        guard !arguments.contains(where: { $0 == "--help" || $0 == "-h" || $0 == "--print-spoken" }),
              arguments.contains(where: { $0 == "--out" || $0.hasPrefix("--out=") }) else { return false }
        let words = arguments.prefix { !$0.hasPrefix("-") }
        return words.first == "say" || Array(words.prefix(2)) == ["feedback", "preview"]
    }
}
