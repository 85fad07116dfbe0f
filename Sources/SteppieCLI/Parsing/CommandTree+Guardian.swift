import SteppieCore

// The guardian's part of the command tree: children and their feedback, PIN, routine editing,
// history and statistics (issue 5).
extension CommandTree {
    static let pinStdin = OptionSpec.flag("--pin-stdin", help: "cli.option.pinStdin")
    static let onOff = ["on", "off"]
    static let routineId = PositionalSpec("ROUTINE-ID", help: "cli.argument.editRoutineId", type: .of(RecordId.self))
    static let setId = PositionalSpec("SET-ID", help: "cli.argument.setId", type: .of(RecordId.self))

    static let guardianArea: [CommandSpec] = [
        CommandSpec("guardian", abstract: "cli.guardian.abstract", subcommands: [
            CommandSpec("set-pin", abstract: "cli.guardian.setPin.abstract", options: [pinStdin], run: GuardianCommands.setPin),
            CommandSpec("unlock", abstract: "cli.guardian.unlock.abstract", options: [pinStdin], run: GuardianCommands.unlock),
            CommandSpec("lock", abstract: "cli.guardian.lock.abstract", run: GuardianCommands.lock),
            CommandSpec("recover", abstract: "cli.guardian.recover.abstract", options: [pinStdin], run: GuardianCommands.recover),
            CommandSpec("status", abstract: "cli.guardian.status.abstract", options: [json], run: GuardianAccess.looking(GuardianCommands.status)),
        ]),
        CommandSpec("children", abstract: "cli.children.abstract", subcommands: [
            CommandSpec("add", abstract: "cli.children.add.abstract",
                        options: [.value("--template", "TEMPLATE", help: "cli.option.template", choices: ["morning", "school", "bedtime"])],
                        positionals: [PositionalSpec("NAME", help: "cli.argument.childName")], run: GuardianAccess.changing(ChildrenCommands.add)),
            CommandSpec("rename", abstract: "cli.children.rename.abstract",
                        positionals: [PositionalSpec("NAME", help: "cli.argument.childSelector"),
                                      PositionalSpec("NEW", help: "cli.argument.newChildName")], run: GuardianAccess.changing(ChildrenCommands.rename)),
            CommandSpec("archive", abstract: "cli.children.archive.abstract",
                        positionals: [PositionalSpec("NAME", help: "cli.argument.childSelector")], run: GuardianAccess.changing(ChildrenCommands.archive)),
            CommandSpec("list", abstract: "cli.children.list.abstract",
                        options: [json, .flag("--archived", help: "cli.option.archived")], run: GuardianAccess.looking(ChildrenCommands.list)),
            CommandSpec("set-icon", abstract: "cli.children.setIcon.abstract",
                        positionals: [PositionalSpec("NAME", help: "cli.argument.childSelector"),
                                      PositionalSpec("ICON", help: "cli.argument.childIcon", type: .of(ChildIcon.self))],
                        run: GuardianAccess.changing(ChildrenCommands.setIcon)),
            CommandSpec("unarchive", abstract: "cli.children.unarchive.abstract",
                        positionals: [PositionalSpec("NAME", help: "cli.argument.archivedChild")], run: GuardianAccess.changing(ArchivedChildrenCommands.unarchive)),
        ]),
        CommandSpec("profile", abstract: "cli.profile.abstract", subcommands: [
            CommandSpec("show", abstract: "cli.profile.show.abstract", options: [child, json], run: GuardianAccess.looking(ProfileCommands.show)),
            CommandSpec("set", abstract: "cli.profile.set.abstract", options: [
                child,
                .value("--intensity", "LEVEL", help: "cli.option.intensity", choices: ["strong", "normal", "quiet", "off"]),
                .value("--sound", "ON|OFF", help: "cli.option.sound", choices: onOff),
                .value("--speech", "ON|OFF", help: "cli.option.speech", choices: onOff),
                .value("--haptic", "ON|OFF", help: "cli.option.haptic", choices: onOff),
                .value("--tts-rate", "RATE", help: "cli.option.ttsRate", allowed: .ttsRate),
                .value("--tts-volume", "VOLUME", help: "cli.option.ttsVolume", allowed: .unitVolume),
                .value("--volume-cap", "VOLUME", help: "cli.option.volumeCap", allowed: .volumeCap),
                .value("--pitch", "PITCH", help: "cli.option.pitch", allowed: .pitch),
                .value("--voice", "VARIANT", help: "cli.option.voice"),
                .value("--undo", "SECONDS", help: "cli.option.undo", allowed: .undoSeconds),
                .value("--lead-times", "MINUTES", help: "cli.option.leadTimes", allowed: .leadTimes),
                .value("--quiet-hours", "HH:mm-HH:mm", help: "cli.option.quietHours", allowed: .quietHours),
                .value("--child-locale", "LOCALE", help: "cli.option.childLocale", choices: ["ko", "en", "system"]),
            ], rules: [.atLeastOne(ProfileOptions.names)], run: GuardianAccess.changing(ProfileCommands.set)),
        ]),
        CommandSpec("sets", abstract: "cli.sets.abstract", options: [child, json], run: GuardianAccess.looking(SetCommands.list)),
        CommandSpec("set", abstract: "cli.set.abstract", subcommands: [
            CommandSpec("create", abstract: "cli.set.create.abstract", options: [
                child,
                .value("--template", "TEMPLATE", help: "cli.option.template", choices: ["morning", "school", "bedtime"]),
                .value("--name-ko", "NAME", help: "cli.option.nameKo"),
                .value("--name-en", "NAME", help: "cli.option.nameEn"),
                .flag("--activate", help: "cli.option.activate"),
                .value("--start", "HH:mm", help: "cli.option.setStart", allowed: .time),
            ], rules: [.atLeastOne(["--template", "--name-ko", "--name-en"]),
                       .exclusive("--template", "--name-ko"), .exclusive("--template", "--name-en")], run: GuardianAccess.changing(SetCommands.create)),
            CommandSpec("start-time", abstract: "cli.set.startTime.abstract",
                        positionals: [setId,
                                      PositionalSpec("TIME", help: "cli.argument.startTime", allowed: .timeOrNone)], run: GuardianAccess.changing(SetCommands.startTime)),
            CommandSpec("activate", abstract: "cli.set.activate.abstract",
                        positionals: [setId], run: GuardianAccess.changing(SetCommands.activate)),
            CommandSpec("rename", abstract: "cli.set.rename.abstract", options: [
                .value("--name-ko", "NAME", help: "cli.option.nameKo"),
                .value("--name-en", "NAME", help: "cli.option.nameEn"),
            ], positionals: [setId], rules: [.atLeastOne(["--name-ko", "--name-en"])],
               run: GuardianAccess.changing(SetEditCommands.rename)),
            CommandSpec("delete", abstract: "cli.set.delete.abstract",
                        positionals: [setId], run: GuardianAccess.changing(SetEditCommands.delete)),
        ]),
        CommandSpec("routine", abstract: "cli.routine.abstract", subcommands: [
            CommandSpec("add", abstract: "cli.routine.add.abstract", options: [
                child,
                .value("--set", "SET-ID", help: "cli.option.set", type: .of(RecordId.self)),
            ] + routineFields + [.value("--position", "N", help: "cli.option.position", allowed: .position)], run: GuardianAccess.changing(RoutineEditCommands.add)),
            CommandSpec("edit", abstract: "cli.routine.edit.abstract", options: routineFields, positionals: [routineId],
                        rules: [.atLeastOne(routineFields.map(\.name))], run: GuardianAccess.changing(RoutineEditCommands.edit)),
            CommandSpec("move", abstract: "cli.routine.move.abstract",
                        options: [.value("--to", "N", help: "cli.option.to", allowed: .position)], positionals: [routineId],
                        rules: [.required("--to")], run: GuardianAccess.changing(RoutineEditCommands.move)),
            CommandSpec("activate", abstract: "cli.routine.activate.abstract", positionals: [routineId], run: GuardianAccess.changing(RoutineEditCommands.activate)),
            CommandSpec("deactivate", abstract: "cli.routine.deactivate.abstract", positionals: [routineId], run: GuardianAccess.changing(RoutineEditCommands.deactivate)),
            CommandSpec("delete", abstract: "cli.routine.delete.abstract", positionals: [routineId], run: GuardianAccess.changing(RoutineEditCommands.delete)),
            CommandSpec("restore", abstract: "cli.routine.restore.abstract", positionals: [routineId], run: GuardianAccess.changing(RoutineEditCommands.restore)),
            CommandSpec("record", abstract: "cli.routine.record.abstract",
                        options: [.flag("--remove", help: "cli.option.removeRecording")],
                        positionals: [routineId, PositionalSpec("FILE", help: "cli.argument.recordingFile", optional: true)],
                        rules: [.required("--locale"), .choices("--locale", ["ko", "en"]),
                                .exclusive("--remove", "FILE"), .atLeastOne(["FILE", "--remove"])],
                        run: GuardianAccess.changing(RecordingCommands.record)),
            CommandSpec("photo", abstract: "cli.routine.photo.abstract",
                        positionals: [routineId, PositionalSpec("FILE", help: "cli.argument.photoFile")],
                        run: GuardianAccess.changing(RoutinePhotoCommand.run)),
        ]),
        CommandSpec("history", abstract: "cli.history.abstract", options: [
            child,
            .value("--date", "YYYY-MM-DD", help: "cli.option.date", allowed: .date),
            .value("--month", "YYYY-MM", help: "cli.option.month", allowed: .month),
            .value("--routine", "ROUTINE-ID", help: "cli.option.routine", type: .of(RecordId.self)),
            json,
        ], subcommands: [
            CommandSpec("set", abstract: "cli.history.set.abstract", options: [child, json], positionals: [
                PositionalSpec("DATE", help: "cli.argument.entryDate", allowed: .date),
                PositionalSpec("ROUTINE-ID", help: "cli.argument.entryRoutineId", type: .of(RecordId.self)),
                PositionalSpec("STATE", help: "cli.argument.entryState", choices: ["done", "not-done"]),
            ], run: GuardianAccess.changing(HistoryCorrectionCommand.run)),
        ], runsWithoutSubcommand: true, rules: [.exclusive("--date", "--month"), .exclusive("--date", "--routine")], run: GuardianAccess.looking(HistoryCommand.run)),
        CommandSpec("stats", abstract: "cli.stats.abstract", options: [child, json], run: GuardianAccess.looking(StatsCommand.run)),
    ]

    static let routineFields: [OptionSpec] = [
        .value("--title-ko", "TEXT", help: "cli.option.titleKo"),
        .value("--title-en", "TEXT", help: "cli.option.titleEn"),
        .value("--icon", "NAME", help: "cli.option.icon"),
        .value("--color", "COLOR", help: "cli.option.color", choices: CardColor.allCases.map(\.rawValue)),
        .value("--time", "HH:mm", help: "cli.option.time", allowed: .timeOrNone),
    ]
}
