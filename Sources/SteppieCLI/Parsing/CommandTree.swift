/// The `steppie` command tree, declared as data. Help text comes from the catalogs (`cli.*`).
public enum CommandTree {
    static let child = OptionSpec.value("--child", "NAME", help: "cli.option.child")
    static let json = OptionSpec.flag("--json", help: "cli.option.json")

    public static let globals: [OptionSpec] = [
        .value("--db", "PATH", help: "cli.option.db", kind: .database),
        .value("--locale", "LOCALE", help: "cli.option.locale", choices: ["ko", "en", "qps"]),
    ]

    /// Every command, by area; each area declares its own part of the tree.
    public static let root = CommandSpec("steppie", abstract: "cli.steppie.abstract",
                                         subcommands: basics + guardianArea + scheduleArea + feedbackArea + backupArea + serviceArea
                                                             + deviceArea + kioskArea + syncArea + hubArea)

    static let basics: [CommandSpec] = [
        CommandSpec("init", abstract: "cli.init.abstract", options: [
            child,
            .value("--template", "TEMPLATE", help: "cli.option.template", choices: ["morning", "school", "bedtime"]),
        ], run: GuardianAccess.changing(InitCommand.run)),
        CommandSpec("routines", abstract: "cli.routines.abstract",
                    options: [child, json, .flag("--deleted", help: "cli.option.deleted")], run: GuardianAccess.looking(TodayCommands.routines)),
        CommandSpec("today", abstract: "cli.today.abstract", options: [child, json], run: GuardianAccess.looking(TodayCommands.today)),
        CommandSpec("complete", abstract: "cli.complete.abstract", options: [child, json, noService],
                    positionals: [PositionalSpec("ROUTINE-ID", help: "cli.argument.routineId", optional: true, type: .of(RecordId.self))], run: TodayCommands.complete),
        CommandSpec("undo", abstract: "cli.undo.abstract", options: [child, json, noService], run: TodayCommands.undo),
        CommandSpec("icons", abstract: "cli.icons.abstract", options: [json], run: GuardianAccess.looking(TodayCommands.icons)),
        CommandSpec("child", abstract: "cli.child.abstract", options: [
            child,
            output, wavFile,
            .value("--events", "FILE", help: "cli.option.events", kind: .outputFile),
            .value("--keys-from", "FILE", help: "cli.option.keysFrom"),
            noService,
        ], run: ChildCommand.run),
        CommandSpec("l10n", abstract: "cli.l10n.abstract", subcommands: [
            CommandSpec("check", abstract: "cli.l10n.check.abstract", options: [
                .value("--dir", "DIR", help: "cli.option.catalogDir"),
                .value("--sources", "DIR", help: "cli.option.sources"),
                .value("--pronunciation", "DIR", help: "cli.option.pronunciation"),
                json,
            ], run: L10nCommands.check),
            CommandSpec("render", abstract: "cli.l10n.render.abstract", options: [
                .value("--out", "DIR", help: "cli.option.renderOut", kind: .outputFolder), json,
                .value("--arg", "NAME=VALUE", help: "cli.option.renderArg", repeatable: true, type: .of(NamedArgument.self)),
                .value("--child", "NAME", help: "cli.option.renderChild"),
            ], run: L10nRenderCommand.run),
            CommandSpec("show", abstract: "cli.l10n.show.abstract", options: [json],
                        positionals: [PositionalSpec("KEY", help: "cli.argument.key")], run: L10nCommands.show),
            CommandSpec("format", abstract: "cli.l10n.format.abstract", options: [
                .value("--template", "TEXT", help: "cli.option.template.text"),
                .value("--arg", "NAME=VALUE", help: "cli.option.arg", repeatable: true, type: .of(NamedArgument.self)),
            ], positionals: [PositionalSpec("KEY", help: "cli.argument.key", optional: true)],
               rules: [.atLeastOne(["KEY", "--template"]), .exclusive("KEY", "--template")], run: L10nCommands.format),
        ]),
    ]

    public static let parser = Parser(root: root, globals: globals)
}
