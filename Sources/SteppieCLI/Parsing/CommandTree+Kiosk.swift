// `kiosk enable|disable`: the child's kiosk in one command (#26 item 2, docs/kiosk.md).
extension CommandTree {
    static let kioskOptions: [OptionSpec] = [
        .value("--user", "NAME", help: "cli.option.kioskUser", type: .of(KioskUser.self)),
        .value("--root", "DIR", help: "cli.option.kioskRoot", kind: .outputFolder),
    ]

    static let kioskArea: [CommandSpec] = [
        CommandSpec("kiosk", abstract: "cli.kiosk.abstract", subcommands: [
            CommandSpec("enable", abstract: "cli.kiosk.enable.abstract", options: kioskOptions, run: KioskCommands.enable),
            CommandSpec("disable", abstract: "cli.kiosk.disable.abstract", options: kioskOptions, run: KioskCommands.disable),
        ]),
    ]
}
