import SteppieBackup
import SteppieCore

/// The lines of a restore's confirmation that name what is replaced, what stays and what the
/// backup brings: every child, its sets and its counts.
struct RestoreSummary {
    let text: Messages
    let resolve: (LocalizedText) -> String

    func lines(_ scope: RestoreScope) -> [String] {
        var out: [String] = []
        switch scope.kind {
        case .device: out.append(text("cli.restore.scope.device"))
        case .child: out.append(text(scope.newChild ? "cli.restore.scope.newChild" : "cli.restore.scope.child", ["child": scope.child ?? ""]))
        }
        if scope.replaced.isEmpty { out.append(text("cli.restore.replacedNothing")) }
        for child in scope.replaced { out.append(text("cli.restore.replaced", arguments(child))) }
        if !scope.kept.isEmpty { out.append(text("cli.restore.kept", ["children": scope.kept.joined(separator: ", ")])) }
        for child in scope.incoming { out.append(text("cli.restore.incoming", arguments(child))) }
        return out
    }

    private func arguments(_ c: ChildContents) -> [String: String] {
        ["child": c.archived ? text("cli.restore.archived", ["child": c.name]) : c.name,
         "sets": c.sets.isEmpty ? text("cli.restore.noSets") : c.sets.map(resolve).joined(separator: ", "),
         "routines": String(c.routines), "logs": String(c.dailyLogs), "photos": String(c.photos)]
    }
}
