/// One option of a command: a flag (`--json`) or an option with a value (`--child NAME`).
public struct OptionSpec: Sendable, Equatable {
    public let name: String
    /// The value's placeholder in help (`NAME`); nil for a flag.
    public let valueName: String?
    /// Allowed values, when the set is closed (`ko`, `en`).
    public let choices: [String]?
    /// Catalog key of the one-line help.
    public let helpKey: String
    public let repeatable: Bool
    /// What the value names, so paths are checked before the command runs.
    public var kind: ValueKind = .text
    /// Values beyond a closed set of choices: numbers in a range, times, dates (checked by the parser).
    public var allowed: AllowedValues? = nil
    /// The value may be left out (`--guardian-lan` alone, or followed by another option): the
    /// option is then a flag, and the command uses its default value.
    public var valueOptional = false
    /// The value's type when it has a shape of its own (`LoopbackAddress`), parsed before any handler runs.
    public var type: ArgumentType? = nil

    /// What an option's value is.
    public enum ValueKind: Sendable, Equatable {
        case text
        /// A file the command writes: an existing target must be a regular file (`-` is standard output).
        case outputFile
        /// A folder the command writes into: an existing target must be a folder.
        case outputFolder
        /// A file the command writes, or a folder it writes its default file name into: an
        /// existing target must be a regular file or a folder.
        case outputFileOrFolder
        /// The database: an existing target must be a regular file.
        case database
    }

    public static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, choices: nil, helpKey: help, repeatable: false)
    }

    /// An option whose value may be left out; `Invocation.flag` says whether it was given at all.
    public static func optionalValue(_ name: String, _ valueName: String, help: String, type: ArgumentType? = nil) -> OptionSpec {
        var spec = OptionSpec(name: name, valueName: valueName, choices: nil, helpKey: help, repeatable: false)
        spec.valueOptional = true
        spec.type = type
        return spec
    }

    public static func value(_ name: String, _ valueName: String, help: String, choices: [String]? = nil,
                             repeatable: Bool = false, kind: ValueKind = .text, allowed: AllowedValues? = nil,
                             type: ArgumentType? = nil) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, choices: choices, helpKey: help, repeatable: repeatable, kind: kind,
                   allowed: allowed, type: type)
    }
}

/// A positional argument of a command.
public struct PositionalSpec: Sendable, Equatable {
    public let name: String
    public let helpKey: String
    public let optional: Bool
    /// Takes every remaining argument (`steppie say TEXT...`).
    public let variadic: Bool
    /// Allowed values, when the set is closed (`done`, `not-done`).
    public let choices: [String]?
    /// Values of a shape (a date, a time), checked by the parser.
    public let allowed: AllowedValues?
    /// The value's type when it has a shape of its own (`RecordId`), parsed before any handler runs.
    public let type: ArgumentType?

    public init(_ name: String, help: String, optional: Bool = false, variadic: Bool = false,
                choices: [String]? = nil, allowed: AllowedValues? = nil, type: ArgumentType? = nil) {
        self.name = name
        self.helpKey = help
        self.optional = optional
        self.variadic = variadic
        self.choices = choices
        self.allowed = allowed
        self.type = type
    }
}

/// A rule between a leaf's options and arguments that no single value can say ("one of these",
/// "not both"), checked by the parser with the values: a line that breaks one is refused (exit 64)
/// before the handler runs, so nothing is opened or created for it. Names are options as typed
/// (`--to`) or positionals (`KEY`).
public enum UsageRule: Sendable, Equatable {
    /// This option must be given.
    case required(String)
    /// At least one of these must be given.
    case atLeastOne([String])
    /// Not both.
    case exclusive(String, String)
    /// For this command, the option (a global one, say) takes only these values.
    case choices(String, [String])
    /// When the first is given, the second must be given too (`--for` needs `--child`).
    case requires(String, String)
}

/// A node of the command tree, declared as data: a group of subcommands or a runnable leaf, which
/// carries its handler.
public struct CommandSpec: Sendable {
    public let name: String
    /// Catalog key of the one-line summary.
    public let abstractKey: String
    public let options: [OptionSpec]
    public let positionals: [PositionalSpec]
    public let subcommands: [CommandSpec]
    /// A group that also runs on its own with its options (`steppie history --date D` beside
    /// `steppie history set …`); a plain group needs a subcommand.
    public let runsWithoutSubcommand: Bool
    /// What the parser checks across the values (`UsageRule`).
    public let rules: [UsageRule]
    /// What runs the command: every leaf has one (and a group that runs on its own), a plain group
    /// has none (`CommandTreeTests` holds both).
    public let run: Steppie.Handler?

    public init(_ name: String, abstract: String, options: [OptionSpec] = [], positionals: [PositionalSpec] = [],
                subcommands: [CommandSpec] = [], runsWithoutSubcommand: Bool = false, rules: [UsageRule] = [],
                run: Steppie.Handler? = nil) {
        self.name = name
        self.abstractKey = abstract
        self.options = options
        self.positionals = positionals
        self.subcommands = subcommands
        self.runsWithoutSubcommand = runsWithoutSubcommand
        self.rules = rules
        self.run = run
    }

    public func subcommand(_ name: String) -> CommandSpec? { subcommands.first { $0.name == name } }
}
