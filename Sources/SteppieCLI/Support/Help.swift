/// Help text for any node of the command tree, rendered from the tree and the catalogs.
enum Help {
    static func render(path: [String], text: Messages) -> String {
        guard let node = CommandTree.parser.node(at: path) else { return "" }
        let name = (["steppie"] + path).joined(separator: " ")
        var usage = name
        if !node.subcommands.isEmpty { usage += " " + text("cli.help.commandPlaceholder") }
        for o in node.options { usage += " [\(o.name)\(o.valueName.map { " " + $0 } ?? "")]" }
        for p in node.positionals { usage += " " + (p.optional ? "[\(p.name)]" : p.name) + (p.variadic ? "..." : "") }

        var lines = [text(node.abstractKey), "", text("cli.help.usage") + " " + usage]
        func table(_ title: String, _ rows: [(String, String)]) {
            guard !rows.isEmpty else { return }
            let width = rows.map(\.0.count).max() ?? 0
            lines.append("")
            lines.append(title)
            for (left, right) in rows {
                lines.append("  " + left + String(repeating: " ", count: width - left.count + 2) + right)
            }
        }
        table(text("cli.help.commands"), node.subcommands.map { ($0.name, text($0.abstractKey)) })
        table(text("cli.help.arguments"), node.positionals.map { ($0.name, text($0.helpKey)) })
        let optionRows: [(String, String)] = node.options.map { o in
            (o.name + (o.valueName.map { " " + $0 } ?? ""), text(o.helpKey) + (o.choices.map { " (" + $0.joined(separator: "|") + ")" } ?? ""))
        }
        table(text("cli.help.options"), optionRows)
        let globalRows: [(String, String)] = CommandTree.globals.map { o in
            (o.name + (o.valueName.map { " " + $0 } ?? ""), text(o.helpKey) + (o.choices.map { " (" + $0.joined(separator: "|") + ")" } ?? ""))
        } + [("--help", text("cli.option.help"))]
        table(text("cli.help.globalOptions"), globalRows)
        return lines.joined(separator: "\n") + "\n"
    }
}
