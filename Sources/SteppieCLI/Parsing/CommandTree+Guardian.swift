import SteppieCore

// The guardian's part of the command tree: children and their feedback, PIN, routine editing,
// history and statistics (issue 5).
extension CommandTree {
    static let pinStdin = OptionSpec.flag("--pin-stdin", help: "cli.option.pinStdin")
    static let onOff = ["on", "off"]
    static let routineId = PositionalSpec("ROUTINE-ID", help: "cli.argument.editRoutineId")

    static let guardianArea: [CommandSpec] = [
        CommandSpec("guardian", abstract: "cli.guardian.abstract", subcommands: [
            CommandSpec("set-pin", abstract: "cli.guardian.setPin.abstract", options: [pinStdin]),
            CommandSpec("unlock", abstract: "cli.guardian.unlock.abstract", options: [pinStdin]),
            CommandSpec("lock", abstract: "cli.guardian.lock.abstract"),
            CommandSpec("recover", abstract: "cli.guardian.recover.abstract", options: [pinStdin]),
            CommandSpec("status", abstract: "cli.guardian.status.abstract", options: [json]),
        ]),
        CommandSpec("children", abstract: "cli.children.abstract", subcommands: [
            CommandSpec("add", abstract: "cli.children.add.abstract",
                        options: [.value("--template", "TEMPLATE", help: "cli.option.template", choices: ["morning", "school", "bedtime"])],
                        positionals: [PositionalSpec("NAME", help: "cli.argument.childName")]),
            CommandSpec("rename", abstract: "cli.children.rename.abstract",
                        positionals: [PositionalSpec("NAME", help: "cli.argument.childSelector"),
                                      PositionalSpec("NEW", help: "cli.argument.newChildName")]),
            CommandSpec("archive", abstract: "cli.children.archive.abstract",
                        positionals: [PositionalSpec("NAME", help: "cli.argument.childSelector")]),
            CommandSpec("list", abstract: "cli.children.list.abstract",
                        options: [json, .flag("--archived", help: "cli.option.archived")]),
            CommandSpec("unarchive", abstract: "cli.children.unarchive.abstract",
                        positionals: [PositionalSpec("NAME", help: "cli.argument.archivedChild")]),
        ]),
        CommandSpec("profile", abstract: "cli.profile.abstract", subcommands: [
            CommandSpec("show", abstract: "cli.profile.show.abstract", options: [child, json]),
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
            ]),
        ]),
        CommandSpec("sets", abstract: "cli.sets.abstract", options: [child, json]),
        CommandSpec("set", abstract: "cli.set.abstract", subcommands: [
            CommandSpec("create", abstract: "cli.set.create.abstract", options: [
                child,
                .value("--template", "TEMPLATE", help: "cli.option.template", choices: ["morning", "school", "bedtime"]),
                .value("--name-ko", "NAME", help: "cli.option.nameKo"),
                .value("--name-en", "NAME", help: "cli.option.nameEn"),
                .flag("--activate", help: "cli.option.activate"),
                .value("--start", "HH:mm", help: "cli.option.setStart", allowed: .time),
            ]),
            CommandSpec("start-time", abstract: "cli.set.startTime.abstract",
                        positionals: [PositionalSpec("SET-ID", help: "cli.argument.setId"),
                                      PositionalSpec("TIME", help: "cli.argument.startTime", allowed: .timeOrNone)]),
            CommandSpec("activate", abstract: "cli.set.activate.abstract",
                        positionals: [PositionalSpec("SET-ID", help: "cli.argument.setId")]),
            CommandSpec("rename", abstract: "cli.set.rename.abstract", options: [
                .value("--name-ko", "NAME", help: "cli.option.nameKo"),
                .value("--name-en", "NAME", help: "cli.option.nameEn"),
            ], positionals: [PositionalSpec("SET-ID", help: "cli.argument.setId")]),
            CommandSpec("delete", abstract: "cli.set.delete.abstract",
                        positionals: [PositionalSpec("SET-ID", help: "cli.argument.setId")]),
        ]),
        CommandSpec("routine", abstract: "cli.routine.abstract", subcommands: [
            CommandSpec("add", abstract: "cli.routine.add.abstract", options: [
                child,
                .value("--set", "SET-ID", help: "cli.option.set"),
            ] + routineFields + [.value("--position", "N", help: "cli.option.position", allowed: .position)]),
            CommandSpec("edit", abstract: "cli.routine.edit.abstract", options: routineFields, positionals: [routineId]),
            CommandSpec("move", abstract: "cli.routine.move.abstract",
                        options: [.value("--to", "N", help: "cli.option.to", allowed: .position)], positionals: [routineId]),
            CommandSpec("activate", abstract: "cli.routine.activate.abstract", positionals: [routineId]),
            CommandSpec("deactivate", abstract: "cli.routine.deactivate.abstract", positionals: [routineId]),
            CommandSpec("delete", abstract: "cli.routine.delete.abstract", positionals: [routineId]),
            CommandSpec("restore", abstract: "cli.routine.restore.abstract", positionals: [routineId]),
            CommandSpec("record", abstract: "cli.routine.record.abstract",
                        options: [.flag("--remove", help: "cli.option.removeRecording")],
                        positionals: [routineId, PositionalSpec("FILE", help: "cli.argument.recordingFile", optional: true)]),
        ]),
        CommandSpec("history", abstract: "cli.history.abstract", options: [
            child,
            .value("--date", "YYYY-MM-DD", help: "cli.option.date", allowed: .date),
            .value("--month", "YYYY-MM", help: "cli.option.month", allowed: .month),
            .value("--routine", "ROUTINE-ID", help: "cli.option.routine"),
            json,
        ], subcommands: [
            CommandSpec("set", abstract: "cli.history.set.abstract", options: [child, json], positionals: [
                PositionalSpec("DATE", help: "cli.argument.entryDate", allowed: .date),
                PositionalSpec("ROUTINE-ID", help: "cli.argument.entryRoutineId"),
                PositionalSpec("STATE", help: "cli.argument.entryState", choices: ["done", "not-done"]),
            ]),
        ], runsWithoutSubcommand: true),
        CommandSpec("stats", abstract: "cli.stats.abstract", options: [child, json]),
    ]

    static let routineFields: [OptionSpec] = [
        .value("--title-ko", "TEXT", help: "cli.option.titleKo"),
        .value("--title-en", "TEXT", help: "cli.option.titleEn"),
        .value("--icon", "NAME", help: "cli.option.icon"),
        .value("--color", "COLOR", help: "cli.option.color", choices: CardColor.allCases.map(\.rawValue)),
        .value("--time", "HH:mm", help: "cli.option.time", allowed: .timeOrNone),
    ]
}

extension Steppie {
    /// Guardian commands. `changing` ones need guardian mode when a PIN is set; `looking` ones only
    /// extend a running session. The PIN commands manage the session themselves.
    static let guardianHandlers: [String: Handler] = [
        "guardian set-pin": GuardianCommands.setPin,
        "guardian unlock": GuardianCommands.unlock,
        "guardian lock": GuardianCommands.lock,
        "guardian recover": GuardianCommands.recover,
        "guardian status": GuardianAccess.looking(GuardianCommands.status),
        "children add": GuardianAccess.changing(ChildrenCommands.add),
        "children rename": GuardianAccess.changing(ChildrenCommands.rename),
        "children archive": GuardianAccess.changing(ChildrenCommands.archive),
        "children list": GuardianAccess.looking(ChildrenCommands.list),
        "children unarchive": GuardianAccess.changing(ArchivedChildrenCommands.unarchive),
        "profile show": GuardianAccess.looking(ProfileCommands.show),
        "profile set": GuardianAccess.changing(ProfileCommands.set),
        "sets": GuardianAccess.looking(SetCommands.list),
        "set create": GuardianAccess.changing(SetCommands.create),
        "set activate": GuardianAccess.changing(SetCommands.activate),
        "set start-time": GuardianAccess.changing(SetCommands.startTime),
        "set rename": GuardianAccess.changing(SetEditCommands.rename),
        "set delete": GuardianAccess.changing(SetEditCommands.delete),
        "routine add": GuardianAccess.changing(RoutineEditCommands.add),
        "routine edit": GuardianAccess.changing(RoutineEditCommands.edit),
        "routine move": GuardianAccess.changing(RoutineEditCommands.move),
        "routine activate": GuardianAccess.changing(RoutineEditCommands.activate),
        "routine deactivate": GuardianAccess.changing(RoutineEditCommands.deactivate),
        "routine delete": GuardianAccess.changing(RoutineEditCommands.delete),
        "routine restore": GuardianAccess.changing(RoutineEditCommands.restore),
        "routine record": GuardianAccess.changing(RecordingCommands.record),
        "history": GuardianAccess.looking(HistoryCommand.run),
        "history set": GuardianAccess.changing(HistoryCorrectionCommand.run),
        "stats": GuardianAccess.looking(StatsCommand.run),
    ]
}
