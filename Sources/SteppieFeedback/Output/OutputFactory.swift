import Foundation

/// Picks and builds an audio output; `auto` prefers PulseAudio and falls back to a WAV file.
public enum OutputFactory {
    /// What was built, and a note for the user when the choice was not the one asked for.
    public struct Choice: Sendable {
        public let output: any AudioOutput
        /// Set when automatic output found no server and writes a WAV file instead.
        public let note: FeedbackNotice?
    }

    /// Builds `kind`, or with `kind == nil` PulseAudio when a server answers, else a WAV file at `wavPath`.
    public static func make(kind: OutputKind?, wavPath: String, pulse: PulseOutput.Options = .init(),
                            log: @escaping @Sendable (FeedbackNotice) -> Void = FeedbackLog.standardError) throws -> Choice {
        switch kind {
        case .null: return Choice(output: NullOutput(), note: nil)
        case .wav: return Choice(output: WAVOutput(path: wavPath), note: nil)
        case .pulse: return Choice(output: try PulseOutput(options: pulse, log: log), note: nil)
        case nil:
            do {
                var firstTry = pulse
                firstTry.startWithoutServer = false   // auto falls back to a WAV file instead
                return Choice(output: try PulseOutput(options: firstTry, log: log), note: nil)
            } catch {
                return Choice(output: WAVOutput(path: wavPath),
                              note: .writingToFile(path: wavPath, reason: String(describing: error)))
            }
        }
    }
}
