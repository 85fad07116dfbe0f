// `sync invite|status|digest|leave`: a household's devices kept in step through a hub (issue 27,
// docs/sync.md). `serve --hub` makes a service the hub.
extension CommandTree {
    static let syncArea: [CommandSpec] = [
        CommandSpec("sync", abstract: "cli.sync.abstract", subcommands: [
            CommandSpec("invite", abstract: "cli.sync.invite.abstract", options: [
                .value("--child", "NAME", help: "cli.option.syncChild", repeatable: true),
                json,
            ], run: GuardianAccess.changing(SyncCommands.invite)),
            CommandSpec("status", abstract: "cli.sync.status.abstract", options: [json], run: GuardianAccess.looking(SyncCommands.status)),
            CommandSpec("digest", abstract: "cli.sync.digest.abstract", options: [json], run: GuardianAccess.looking(SyncCommands.digest)),
            CommandSpec("leave", abstract: "cli.sync.leave.abstract", run: GuardianAccess.changing(SyncCommands.leave)),
        ]),
    ]
}
