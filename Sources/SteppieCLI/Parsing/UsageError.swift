import SteppieFiles

/// A mistake in how the command was called; the front end exits 64 and names the bad argument.
public enum UsageError: Error, Equatable, Sendable {
    case unknownCommand(String, path: [String])
    case missingCommand(path: [String])
    case unknownOption(String, path: [String])
    case missingValue(option: String)
    case invalidChoice(option: String, value: String, choices: [String])
    /// A value outside what the command tree declares for the option or argument (`--undo 7`).
    case notAllowed(option: String, value: String, allowed: AllowedValues)
    case repeatedOption(String)
    case unexpectedArgument(String)
    case missingArgument(String)
    case invalidValue(option: String, value: String, expected: String)
    /// A value refused for a reason said in full (a button map naming an unknown key, a path a
    /// button cannot be at): `reason` is catalog text already in the user's language.
    case refusedValue(option: String, value: String, reason: String)
    /// A value its declared type refused (`ArgumentValue.parse`), found by the parser.
    case refused(option: String, value: String, ArgumentRefusal)
    case conflictingOptions(String, String)
    /// The first option needs the second one too.
    case requiresOption(String, String)
    /// An option names a path that cannot be used for it (a FIFO as an output file, …).
    case unusablePath(option: String, FileRefusal)
}
