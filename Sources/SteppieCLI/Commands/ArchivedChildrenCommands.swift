import Foundation
import SteppieCore
import SteppieStore

/// `steppie children list --archived`, `steppie children unarchive NAME`.
enum ArchivedChildrenCommands {
    /// One archived child for scripts.
    struct Row: Encodable {
        let id: String
        let name: String
        let archivedAt: String?
    }

    static func list(_ c: Context) throws -> Int32 {
        let children = try c.store().archivedChildren()
        if c.json {
            try c.printEncodable(children.map { Row(id: $0.id.lowercased, name: $0.displayName,
                                                    archivedAt: $0.archivedAt.map { Timestamp.format($0, in: c.env.timeZone) }) })
            return 0
        }
        if children.isEmpty { c.console.print(c.text("cli.children.archivedNone")) }
        for child in children {
            c.console.print(c.text("cli.children.archivedRow", ["child": child.displayName, "id": child.id.lowercased,
                                                                "date": child.archivedAt.map { LocalDay($0, in: c.env.timeZone).description } ?? "-"]))
        }
        return 0
    }

    static func unarchive(_ c: Context) throws -> Int32 {
        let store = try c.store()
        let child = try store.resolveArchivedChild(c.invocation.argument("NAME") ?? "")
        try store.unarchiveChild(id: child.id, at: c.now)
        c.console.print(c.text("cli.children.unarchived", ["child": child.displayName]))
        return 0
    }
}

extension Context {
    /// The child named by `--child` for commands that read history: an active child, or an
    /// archived one when no active child has that name or id.
    func childIncludingArchived() throws -> Child {
        try store().resolveChildIncludingArchived(invocation.value("--child"))
    }

    /// Prints an `Encodable` value as one JSON document (sorted keys, pretty, slashes kept).
    func printEncodable<T: Encodable>(_ value: T) throws {
        try printJSON(value)
    }

    /// A local date and time `YYYY-MM-DD HH:mm` of an instant, in the device's zone.
    func localDateTime(_ date: Date) -> String {
        let stamp = Timestamp.format(date, in: env.timeZone)
        return String(stamp.prefix(10)) + " " + String(stamp.dropFirst(11).prefix(5))
    }
}
