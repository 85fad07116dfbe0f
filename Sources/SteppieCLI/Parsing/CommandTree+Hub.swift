import SteppieCentre

// `hub [invite|devices|grant|remove|digest|staff|group]`: the centre's hub on PostgreSQL (issue 28, docs/centre.md).
// `steppie hub --postgres CONNINFO --listen ADDR:PORT` runs it; the subcommands manage it.
extension CommandTree {
    static let postgres = OptionSpec.value("--postgres", "CONNINFO", help: "cli.option.postgres")
    static let hubAs = OptionSpec.value("--as", "NAME", help: "cli.option.hubAs")
    static let passwordStdin = OptionSpec.flag("--password-stdin", help: "cli.option.passwordStdin")

    static let hubArea: [CommandSpec] = [
        CommandSpec("hub", abstract: "cli.hub.abstract", options: [
            postgres,
            .value("--listen", "ADDR:PORT", help: "cli.option.hubListen", type: .of(HubListen.self)),
            .value("--host", "NAME", help: "cli.option.hubHost", repeatable: true),
        ], subcommands: [
            CommandSpec("invite", abstract: "cli.hub.invite.abstract", options: [
                postgres,
                .value("--child", "NAME", help: "cli.option.syncChild", repeatable: true),
                json, hubAs, passwordStdin,
            ], rules: [.required("--postgres"), .requires("--as", "--password-stdin")], run: HubCommands.invite),
            CommandSpec("devices", abstract: "cli.hub.devices.abstract", options: [postgres, json],
                        rules: [.required("--postgres")], run: HubCommands.devices),
            CommandSpec("remove", abstract: "cli.hub.remove.abstract", options: [postgres, hubAs, passwordStdin],
                        positionals: [PositionalSpec("DEVICE", help: "cli.argument.syncDevice")],
                        rules: [.required("--postgres"), .requires("--as", "--password-stdin")], run: HubCommands.remove),
            CommandSpec("grant", abstract: "cli.hub.grant.abstract", options: [
                postgres,
                .value("--child", "NAME", help: "cli.option.hubGrantChild", repeatable: true),
                .flag("--all-children", help: "cli.option.hubAllChildren"),
                .value("--group", "GROUP", help: "cli.option.hubGrantGroup"),
                .flag("--no-group", help: "cli.option.hubNoGroup"),
                hubAs, passwordStdin,
            ], positionals: [PositionalSpec("DEVICE", help: "cli.argument.syncDevice")],
               rules: [.required("--postgres"), .requires("--as", "--password-stdin"), .requires("--group", "--as"),
                       .requires("--no-group", "--as")], run: HubCommands.grant),
            hubStaff, hubGroup,
            CommandSpec("digest", abstract: "cli.hub.digest.abstract", options: [postgres, json],
                        rules: [.required("--postgres")], run: HubCommands.digest),
        ], runsWithoutSubcommand: true, rules: [.required("--postgres"), .required("--listen")], run: HubCommands.run),
    ]
}

// `hub staff add|remove|list` and `hub group add|remove|list|child add|remove` (docs/centre.md,
// "Staff, roles and groups"): changes act as a member (`--as NAME`, password on standard input),
// except the first admin.
extension CommandTree {
    static let hubStaff = CommandSpec("staff", abstract: "cli.hub.staff.abstract", subcommands: [
        CommandSpec("add", abstract: "cli.hub.staff.add.abstract", options: [
            postgres,
            .value("--role", "ROLE", help: "cli.option.hubRole", choices: StaffRole.allCases.map(\.rawValue)),
            passwordStdin, hubAs,
        ], positionals: [PositionalSpec("NAME", help: "cli.argument.staffName")],
           rules: [.required("--postgres"), .required("--role"), .required("--password-stdin")], run: HubStaffCommands.add),
        CommandSpec("remove", abstract: "cli.hub.staff.remove.abstract", options: [postgres, hubAs, passwordStdin],
                    positionals: [PositionalSpec("NAME", help: "cli.argument.staffName")],
                    rules: [.required("--postgres"), .required("--as"), .required("--password-stdin")], run: HubStaffCommands.remove),
        CommandSpec("list", abstract: "cli.hub.staff.list.abstract", options: [postgres, json],
                    rules: [.required("--postgres")], run: HubStaffCommands.list),
    ])

    static let hubGroup = CommandSpec("group", abstract: "cli.hub.group.abstract", subcommands: [
        CommandSpec("add", abstract: "cli.hub.group.add.abstract", options: [postgres, hubAs, passwordStdin],
                    positionals: [PositionalSpec("GROUP", help: "cli.argument.groupName")],
                    rules: [.required("--postgres"), .required("--as"), .required("--password-stdin")], run: HubStaffCommands.addGroup),
        CommandSpec("remove", abstract: "cli.hub.group.remove.abstract", options: [postgres, hubAs, passwordStdin],
                    positionals: [PositionalSpec("GROUP", help: "cli.argument.groupName")],
                    rules: [.required("--postgres"), .required("--as"), .required("--password-stdin")], run: HubStaffCommands.removeGroup),
        CommandSpec("list", abstract: "cli.hub.group.list.abstract", options: [postgres, json],
                    rules: [.required("--postgres")], run: HubStaffCommands.listGroups),
        CommandSpec("child", abstract: "cli.hub.group.child.abstract", subcommands: [
            CommandSpec("add", abstract: "cli.hub.group.child.add.abstract", options: [postgres, hubAs, passwordStdin],
                        positionals: [PositionalSpec("GROUP", help: "cli.argument.groupName"),
                                      PositionalSpec("CHILD", help: "cli.argument.groupChild")],
                        rules: [.required("--postgres"), .required("--as"), .required("--password-stdin")], run: HubStaffCommands.addChild),
            CommandSpec("remove", abstract: "cli.hub.group.child.remove.abstract", options: [postgres, hubAs, passwordStdin],
                        positionals: [PositionalSpec("GROUP", help: "cli.argument.groupName"),
                                      PositionalSpec("CHILD", help: "cli.argument.groupChild")],
                        rules: [.required("--postgres"), .required("--as"), .required("--password-stdin")], run: HubStaffCommands.removeChild),
        ]),
    ])
}
