import SteppieBackup

// `backup create|verify|restore` (issue 6).
extension CommandTree {
    static let backupArea: [CommandSpec] = [
        CommandSpec("backup", abstract: "cli.backup.abstract", subcommands: [
            // `--for ios|android --child NAME`: one child's data in the phone app's archive (issue 26, item 5).
            CommandSpec("create", abstract: "cli.backup.create.abstract",
                        options: [.value("--out", "FILE|FOLDER", help: "cli.option.backupOut", kind: .outputFileOrFolder),
                                  .value("--for", "PLATFORM", help: "cli.option.backupFor", choices: PhoneExporter.Platform.allCases.map(\.rawValue)),
                                  .value("--child", "NAME", help: "cli.option.backupChild"), json],
                        rules: [.requires("--for", "--child"), .requires("--child", "--for")],
                        run: GuardianAccess.changing(BackupCommands.create)),
            CommandSpec("verify", abstract: "cli.backup.verify.abstract", options: [json],
                        positionals: [PositionalSpec("FILE", help: "cli.argument.backupFile")], run: GuardianAccess.looking(BackupCommands.verify)),
            CommandSpec("restore", abstract: "cli.backup.restore.abstract",
                        options: [.value("--child", "NAME", help: "cli.option.restoreChild"),
                                  .flag("--dry-run", help: "cli.option.restoreDryRun"), pinStdin, json],
                        positionals: [PositionalSpec("FILE", help: "cli.argument.backupFile")], run: BackupCommands.restore),
        ]),
    ]
}
