// `schedule show|set|clear`: a child's weekly schedule of routine sets (issue 12, item 5).
extension CommandTree {
    static let scheduleArea: [CommandSpec] = [
        CommandSpec("schedule", abstract: "cli.schedule.abstract", subcommands: [
            CommandSpec("show", abstract: "cli.schedule.show.abstract", options: [child, json]),
            CommandSpec("set", abstract: "cli.schedule.set.abstract", options: [
                child,
                .value("--set", "SET", help: "cli.option.scheduleSet"),
                .value("--days", "DAYS", help: "cli.option.days"),
                .value("--from", "HH:mm", help: "cli.option.from"),
            ]),
            CommandSpec("clear", abstract: "cli.schedule.clear.abstract", options: [
                child,
                .value("--days", "DAYS", help: "cli.option.clearDays"),
            ]),
        ]),
    ]
}

extension Steppie {
    static let scheduleHandlers: [String: Handler] = [
        "schedule show": GuardianAccess.looking(ScheduleCommands.show),
        "schedule set": GuardianAccess.changing(ScheduleCommands.set),
        "schedule clear": GuardianAccess.changing(ScheduleCommands.clear),
    ]
}
