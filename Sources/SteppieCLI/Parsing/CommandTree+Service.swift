import SteppieInput

// `serve`, `service status` (issue 12).
extension CommandTree {
    static let noService = OptionSpec.flag("--no-service", help: "cli.option.noService")

    static let serviceArea: [CommandSpec] = [
        CommandSpec("serve", abstract: "cli.serve.abstract", options: [
            output, wavFile,
            .value("--button", "PATH[:MAP]", help: "cli.option.button", repeatable: true, type: .of(ButtonSpec.self)),
            .value("--child", "NAME", help: "cli.option.buttonChild"),
            .value("--http", "ADDR:PORT|none", help: "cli.option.http", type: .of(LoopbackAddress.self)),
            .optionalValue("--guardian-lan", "[ADDR[:PORT]]", help: "cli.option.guardianLAN", type: .of(LANAddress.self)),
            .value("--hub", "ADDR:PORT", help: "cli.option.hub", type: .of(HubListen.self)),
        ], run: ServiceCommands.serve),
        CommandSpec("service", abstract: "cli.service.abstract", subcommands: [
            CommandSpec("status", abstract: "cli.service.status.abstract", options: [json], run: ServiceCommands.status),
        ]),
    ]
}
