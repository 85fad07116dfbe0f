// `hub [invite|devices|grant|remove|digest]`: the centre's hub on PostgreSQL (issue 28, docs/centre.md).
// `steppie hub --postgres CONNINFO --listen ADDR:PORT` runs it; the subcommands manage it.
extension CommandTree {
    static let postgres = OptionSpec.value("--postgres", "CONNINFO", help: "cli.option.postgres")

    static let hubArea: [CommandSpec] = [
        CommandSpec("hub", abstract: "cli.hub.abstract", options: [
            postgres,
            .value("--listen", "ADDR:PORT", help: "cli.option.hubListen", type: .of(HubListen.self)),
            .value("--host", "NAME", help: "cli.option.hubHost", repeatable: true),
        ], subcommands: [
            CommandSpec("invite", abstract: "cli.hub.invite.abstract", options: [
                postgres,
                .value("--child", "NAME", help: "cli.option.syncChild", repeatable: true),
                json,
            ], rules: [.required("--postgres")], run: HubCommands.invite),
            CommandSpec("devices", abstract: "cli.hub.devices.abstract", options: [postgres, json],
                        rules: [.required("--postgres")], run: HubCommands.devices),
            CommandSpec("remove", abstract: "cli.hub.remove.abstract", options: [postgres],
                        positionals: [PositionalSpec("DEVICE", help: "cli.argument.syncDevice")],
                        rules: [.required("--postgres")], run: HubCommands.remove),
            CommandSpec("grant", abstract: "cli.hub.grant.abstract", options: [
                postgres,
                .value("--child", "NAME", help: "cli.option.hubGrantChild", repeatable: true),
                .flag("--all-children", help: "cli.option.hubAllChildren"),
            ], positionals: [PositionalSpec("DEVICE", help: "cli.argument.syncDevice")],
               rules: [.required("--postgres")], run: HubCommands.grant),
            CommandSpec("digest", abstract: "cli.hub.digest.abstract", options: [postgres, json],
                        rules: [.required("--postgres")], run: HubCommands.digest),
        ], runsWithoutSubcommand: true, rules: [.required("--postgres"), .required("--listen")], run: HubCommands.run),
    ]
}
