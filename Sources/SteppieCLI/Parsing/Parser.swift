import SteppieFiles
/// Turns `argv` into an `Invocation` against the command tree, or a `UsageError` naming the bad
/// argument. Nothing runs before the whole line is valid.
public struct Parser: Sendable {
    public let root: CommandSpec
    /// Options every command accepts, before or after the subcommand (`--db`, `--locale`).
    public let globals: [OptionSpec]

    public init(root: CommandSpec, globals: [OptionSpec]) {
        self.root = root
        self.globals = globals
    }

    public func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var inv = Invocation()
        var node = root
        var rest: [String] = []        // tokens after the command path, in order
        var i = 0
        var onlyPositionals = false

        // Split `--name=value` and find the command path; global options may appear anywhere.
        var tokens: [String] = []
        for a in arguments {
            if a.hasPrefix("--"), let eq = a.firstIndex(of: "="), !onlyPositionals {
                tokens.append(String(a[..<eq]))
                tokens.append(String(a[a.index(after: eq)...]))
            } else {
                if a == "--" { onlyPositionals = true }
                tokens.append(a)
            }
        }
        onlyPositionals = false
        while i < tokens.count {
            let t = tokens[i]
            if !onlyPositionals && t == "--" { onlyPositionals = true; rest.append(t); i += 1; continue }
            if !onlyPositionals && (t == "--help" || t == "-h") { inv.wantsHelp = true; i += 1; continue }
            if !onlyPositionals, t.hasPrefix("-"), t.count > 1, let g = globals.first(where: { $0.name == t }) {
                try take(g, tokens, &i, into: &inv)
                continue
            }
            if !onlyPositionals, t.hasPrefix("-"), t.count > 1, node.options.first(where: { $0.name == t }) == nil,
               !node.subcommands.isEmpty {
                throw .unknownOption(t, path: inv.path)
            }
            if rest.isEmpty, !node.subcommands.isEmpty, !t.hasPrefix("-") {
                guard let next = node.subcommand(t) else { throw .unknownCommand(t, path: inv.path) }
                node = next
                inv.path.append(t)
                i += 1
                continue
            }
            rest.append(t)
            i += 1
        }
        if inv.wantsHelp { return inv }
        if !node.subcommands.isEmpty && !node.runsWithoutSubcommand {
            if inv.path.isEmpty && rest.isEmpty { inv.wantsHelp = true; return inv }
            throw .missingCommand(path: inv.path)
        }

        // Options and positionals of the leaf.
        var positionals: [String] = []
        var j = 0
        onlyPositionals = false
        while j < rest.count {
            let t = rest[j]
            if !onlyPositionals && t == "--" { onlyPositionals = true; j += 1; continue }
            if !onlyPositionals, t.hasPrefix("-"), t.count > 1, !Parser.looksNumeric(t) {
                guard let spec = node.options.first(where: { $0.name == t }) else { throw .unknownOption(t, path: inv.path) }
                try take(spec, rest, &j, into: &inv)
                continue
            }
            positionals.append(t)
            j += 1
        }
        var k = 0
        for spec in node.positionals {
            if spec.variadic {
                let all = Array(positionals[k...])
                if all.isEmpty && !spec.optional { throw .missingArgument(spec.name) }
                if !all.isEmpty { inv.positionals[spec.name] = all }
                k = positionals.count
            } else if k < positionals.count {
                try check(positionals[k], name: spec.name, choices: spec.choices, allowed: spec.allowed)
                if let type = spec.type, let refusal = type.check(positionals[k]) {
                    throw .refused(option: spec.name, value: positionals[k], refusal)
                }
                inv.positionals[spec.name] = [positionals[k]]
                k += 1
            } else if !spec.optional {
                throw .missingArgument(spec.name)
            }
        }
        if k < positionals.count { throw .unexpectedArgument(positionals[k]) }
        try checkRules(node.rules, inv)
        return inv
    }

    /// The leaf's rules across its values, in the order declared.
    private func checkRules(_ rules: [UsageRule], _ inv: Invocation) throws(UsageError) {
        func given(_ name: String) -> Bool {
            inv.flags.contains(name) || !(inv.options[name] ?? []).isEmpty || !(inv.positionals[name] ?? []).isEmpty
        }
        for rule in rules {
            switch rule {
            case .required(let name):
                if !given(name) { throw .missingArgument(name) }
            case .atLeastOne(let names):
                if !names.contains(where: given) { throw .missingArgument(names.joined(separator: " | ")) }
            case .exclusive(let a, let b):
                if given(a) && given(b) { throw .conflictingOptions(a, b) }
            case .requires(let a, let b):
                if given(a) && !given(b) { throw .requiresOption(a, b) }
            case .choices(let name, let choices):
                for value in inv.options[name] ?? [] where !choices.contains(value) {
                    throw .invalidChoice(option: name, value: value, choices: choices)
                }
            }
        }
    }

    private func take(_ spec: OptionSpec, _ tokens: [String], _ i: inout Int, into inv: inout Invocation) throws(UsageError) {
        let name = spec.name
        guard spec.valueName != nil else {
            inv.flags.insert(name)
            i += 1
            return
        }
        if spec.valueOptional {
            inv.flags.insert(name)
            // Alone, last or before another option (or `--`): given without its value.
            if i + 1 >= tokens.count || (tokens[i + 1].hasPrefix("-") && tokens[i + 1].count > 1) || tokens[i + 1] == "--" {
                i += 1
                return
            }
        }
        guard i + 1 < tokens.count else { throw .missingValue(option: name) }
        let value = tokens[i + 1]
        if value.hasPrefix("--") && value.count > 2 { throw .missingValue(option: name) }
        try check(value, name: name, choices: spec.choices, allowed: spec.allowed)
        if let type = spec.type, let refusal = type.check(value) { throw .refused(option: name, value: value, refusal) }
        if !spec.repeatable, let old = inv.options[name], !old.isEmpty, old.last != value {
            throw .repeatedOption(name)
        }
        inv.options[name, default: []].append(value)
        i += 2
    }

    /// Checks one value against what the tree declares for it, naming the option or argument.
    private func check(_ value: String, name: String, choices: [String]?, allowed: AllowedValues?) throws(UsageError) {
        if let choices, !choices.contains(value) { throw .invalidChoice(option: name, value: value, choices: choices) }
        if let allowed, !allowed.admits(value) { throw .notAllowed(option: name, value: value, allowed: allowed) }
    }

    static func looksNumeric(_ t: String) -> Bool {
        t.count > 1 && t.dropFirst().allSatisfy { $0.isNumber || $0 == "." }
    }

    /// Checks every path option of a parsed line against what is on disk now: an output file or the
    /// database must not be a device, a FIFO or a folder, an output folder must be a folder. Run
    /// before the command, so nothing is written (and no journal created) beside a refused path.
    public func checkPaths(_ inv: Invocation) throws(UsageError) {
        let specs = (node(at: inv.path)?.options ?? []) + globals
        for spec in specs where spec.kind != .text {
            for value in inv.values(spec.name) where !(spec.kind == .outputFile && value == "-") {
                guard let found = OwnerOnly.kind(of: value) else { continue }
                switch spec.kind {
                case .outputFolder:
                    if found != .directory { throw .unusablePath(option: spec.name, .notDirectory(path: value, kind: found)) }
                case .outputFile, .database:
                    if found != .regular { throw .unusablePath(option: spec.name, .notRegularFile(path: value, kind: found)) }
                case .outputFileOrFolder:
                    if found != .regular && found != .directory { throw .unusablePath(option: spec.name, .notRegularFile(path: value, kind: found)) }
                case .text: break
                }
            }
        }
    }

    /// The node at `path`, for help output.
    public func node(at path: [String]) -> CommandSpec? {
        var node = root
        for name in path {
            guard let next = node.subcommand(name) else { return nil }
            node = next
        }
        return node
    }
}
