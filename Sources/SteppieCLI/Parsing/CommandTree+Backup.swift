// `backup create|verify|restore` (issue 6).
extension CommandTree {
    static let backupArea: [CommandSpec] = [
        CommandSpec("backup", abstract: "cli.backup.abstract", subcommands: [
            CommandSpec("create", abstract: "cli.backup.create.abstract",
                        options: [.value("--out", "FILE|FOLDER", help: "cli.option.backupOut", kind: .outputFileOrFolder), json], run: GuardianAccess.changing(BackupCommands.create)),
            CommandSpec("verify", abstract: "cli.backup.verify.abstract", options: [json],
                        positionals: [PositionalSpec("FILE", help: "cli.argument.backupFile")], run: GuardianAccess.looking(BackupCommands.verify)),
            CommandSpec("restore", abstract: "cli.backup.restore.abstract",
                        options: [.value("--child", "NAME", help: "cli.option.restoreChild"),
                                  .flag("--dry-run", help: "cli.option.restoreDryRun"), pinStdin, json],
                        positionals: [PositionalSpec("FILE", help: "cli.argument.backupFile")], run: BackupCommands.restore),
        ]),
    ]
}
