/// A validated command line: which command, and the values of its options and arguments.
public struct Invocation: Equatable, Sendable {
    /// The command path below `steppie` (`["children", "add"]`).
    public var path: [String]
    public var options: [String: [String]]
    public var flags: Set<String>
    public var positionals: [String: [String]]
    /// `--help` was given: show help for `path` instead of running it.
    public var wantsHelp: Bool

    public init(path: [String] = [], options: [String: [String]] = [:], flags: Set<String> = [],
                positionals: [String: [String]] = [:], wantsHelp: Bool = false) {
        self.path = path
        self.options = options
        self.flags = flags
        self.positionals = positionals
        self.wantsHelp = wantsHelp
    }

    public func value(_ option: String) -> String? { options[option]?.last }

    public func values(_ option: String) -> [String] { options[option] ?? [] }

    public func flag(_ name: String) -> Bool { flags.contains(name) }

    public func argument(_ name: String) -> String? { positionals[name]?.first }

    public func arguments(_ name: String) -> [String] { positionals[name] ?? [] }
}
