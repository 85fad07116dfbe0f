// `say`, `feedback preview|profiles|tune` (issue 3).
extension CommandTree {
    static let output = OptionSpec.value("--output", "OUTPUT", help: "cli.option.output", choices: ["pulse", "wav", "null"])
    static let wavFile = OptionSpec.value("--wav", "FILE", help: "cli.option.wav", kind: .outputFile)
    static let events = ["completed", "undone", "next", "all-done", "announce", "reminder", "error"]

    static let feedbackArea: [CommandSpec] = [
        CommandSpec("say", abstract: "cli.say.abstract", options: [
            .value("--rate", "R", help: "cli.option.rate", allowed: .ttsRate),
            .value("--volume", "V", help: "cli.option.volume", allowed: .unitVolume),
            .value("--out", "FILE.wav", help: "cli.option.outWav", kind: .outputFile),
            output, wavFile, noService,
            .flag("--print-spoken", help: "cli.option.printSpoken"),
        ], positionals: [PositionalSpec("TEXT", help: "cli.argument.text", variadic: true)], run: FeedbackCommands.say),
        CommandSpec("feedback", abstract: "cli.feedback.abstract", subcommands: [
            CommandSpec("preview", abstract: "cli.feedback.preview.abstract", options: [
                child,
                .value("--intensity", "INTENSITY", help: "cli.option.previewIntensity", choices: ["strong", "normal", "quiet", "off"]),
                .value("--event", "EVENT", help: "cli.option.event", choices: events),
                .value("--out", "FILE.wav", help: "cli.option.outWav", kind: .outputFile),
                output, wavFile, noService,
            ], run: FeedbackCommands.preview),
            CommandSpec("profiles", abstract: "cli.feedback.profiles.abstract", options: [child, json], run: GuardianAccess.looking(FeedbackCommands.profiles)),
            CommandSpec("tune", abstract: "cli.feedback.tune.abstract", options: [
                child,
                .value("--event", "EVENT", help: "cli.option.event", choices: events),
                .value("--out-dir", "DIR", help: "cli.option.outDir", kind: .outputFolder),
                .value("--keep", "INTENSITY", help: "cli.option.keep", choices: ["strong", "normal", "quiet", "off"]),
                output, wavFile,
            ], run: FeedbackCommands.tune),
        ]),
    ]
}
