import SteppieCore
import SteppieInput

// `buttons list|add|remove`, `haptics show|set`: this device's hardware, stored per device and
// followed by `steppie serve` (issue 12 leftovers).
extension CommandTree {
    static let deviceArea: [CommandSpec] = [
        CommandSpec("buttons", abstract: "cli.buttons.abstract", subcommands: [
            CommandSpec("list", abstract: "cli.buttons.list.abstract", options: [json], run: GuardianAccess.looking(ButtonsCommands.list)),
            CommandSpec("add", abstract: "cli.buttons.add.abstract", options: [
                .value("--map", "MAP", help: "cli.option.buttonMap", type: .of(ButtonMap.self)),
                .value("--child", "NAME|ID", help: "cli.option.buttonOwner"),
                .flag("--grab", help: "cli.option.grab"),
                .flag("--no-grab", help: "cli.option.noGrab"),
                .value("--debounce", "MS", help: "cli.option.debounce", allowed: .debounceMilliseconds),
            ], positionals: [PositionalSpec("PATH", help: "cli.argument.buttonPath")],
               rules: [.exclusive("--grab", "--no-grab")], run: GuardianAccess.changing(ButtonsCommands.add)),
            CommandSpec("remove", abstract: "cli.buttons.remove.abstract",
                        positionals: [PositionalSpec("PATH|ID", help: "cli.argument.buttonSelector")], run: GuardianAccess.changing(ButtonsCommands.remove)),
        ]),
        CommandSpec("haptics", abstract: "cli.haptics.abstract", subcommands: [
            CommandSpec("show", abstract: "cli.haptics.show.abstract", options: [json], run: GuardianAccess.looking(HapticsCommands.show)),
            CommandSpec("set", abstract: "cli.haptics.set.abstract", options: [
                .value("--audio-pulse", "ON|OFF", help: "cli.option.audioPulse", choices: onOff),
                .value("--rumble", "PATH|none", help: "cli.option.rumble"),
                .value("--log", "FILE|none", help: "cli.option.hapticLog"),
            ], rules: [.atLeastOne(["--audio-pulse", "--rumble", "--log"])], run: GuardianAccess.changing(HapticsCommands.set)),
        ]),
    ]
}

extension AllowedValues {
    /// `buttons add --debounce`: the window a stored button may set, in milliseconds.
    static let debounceMilliseconds = AllowedValues(.integerRange(min: Validator.buttonDebounceRange.lowerBound,
                                                                  max: Validator.buttonDebounceRange.upperBound))
}
