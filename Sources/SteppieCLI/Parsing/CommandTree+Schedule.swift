// `schedule show|set|clear`: a child's weekly schedule of routine sets (issue 12, item 5).
extension CommandTree {
    static let scheduleArea: [CommandSpec] = [
        CommandSpec("schedule", abstract: "cli.schedule.abstract", subcommands: [
            CommandSpec("show", abstract: "cli.schedule.show.abstract", options: [child, json], run: GuardianAccess.looking(ScheduleCommands.show)),
            CommandSpec("set", abstract: "cli.schedule.set.abstract", options: [
                child,
                .value("--set", "SET", help: "cli.option.scheduleSet"),
                .value("--days", "DAYS", help: "cli.option.days", type: .of(WeekdayList.self)),
                .value("--from", "HH:mm", help: "cli.option.from", type: .of(StartTime.self)),
            ], rules: [.required("--set"), .required("--days"), .required("--from")], run: GuardianAccess.changing(ScheduleCommands.set)),
            CommandSpec("clear", abstract: "cli.schedule.clear.abstract", options: [
                child,
                .value("--days", "DAYS", help: "cli.option.clearDays", type: .of(WeekdayList.self)),
            ], run: GuardianAccess.changing(ScheduleCommands.clear)),
        ]),
    ]
}
