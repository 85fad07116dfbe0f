// The guardian's part of the command tree: children and their feedback, PIN, routine editing,
// history and statistics (issue 5).
extension CommandTree {
    static let guardianArea: [CommandSpec] = [
        CommandSpec("children", abstract: "cli.children.abstract", subcommands: [
            CommandSpec("add", abstract: "cli.children.add.abstract",
                        options: [.value("--template", "TEMPLATE", help: "cli.option.template", choices: ["morning", "school", "bedtime"])],
                        positionals: [PositionalSpec("NAME", help: "cli.argument.childName")]),
            CommandSpec("list", abstract: "cli.children.list.abstract", options: [json]),
        ]),
    ]
}

extension Steppie {
    static let guardianHandlers: [String: Handler] = [
        "children add": ChildrenCommands.add,
        "children list": ChildrenCommands.list,
    ]
}
